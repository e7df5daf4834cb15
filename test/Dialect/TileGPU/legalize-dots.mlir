// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// fp8 operands widen to f16 (exact); the accumulator and result stay f32.
// CHECK-LABEL: func.func @fp8_dot
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf8E4M3FN>, %[[B:.*]]: tensor<32x64xf8E4M3FN>, %[[C:.*]]: tensor<64x64xf32>)
// CHECK: %[[A16:.*]] = arith.extf %[[A]] : tensor<64x32xf8E4M3FN> to tensor<64x32xf16>
// CHECK: %[[B16:.*]] = arith.extf %[[B]] : tensor<32x64xf8E4M3FN> to tensor<32x64xf16>
// CHECK: tile.dot %[[A16]], %[[B16]], %[[C]] : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
// REMARK: remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for the f16 tensor-core paths
func.func @fp8_dot(%a: tensor<64x32xf8E4M3FN>, %b: tensor<32x64xf8E4M3FN>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xf8E4M3FN>, tensor<32x64xf8E4M3FN>, tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func @e5m2_dot
// CHECK: arith.extf %{{.*}} : tensor<16x16xf8E5M2> to tensor<16x16xf16>
// CHECK: tile.dot %{{.*}} : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
// REMARK: remark: fp8 ('f8E5M2') operands widened
func.func @e5m2_dot(%a: tensor<16x16xf8E5M2>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot %a, %a, %c : tensor<16x16xf8E5M2>, tensor<16x16xf8E5M2>, tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// 16-bit and f32 dots are left as they are, without a remark.
// CHECK-LABEL: func.func @bf16_dot
// CHECK-NOT: arith.extf
// CHECK: tile.dot %{{.*}} : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
func.func @bf16_dot(%a: tensor<16x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot %a, %a, %c : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}
