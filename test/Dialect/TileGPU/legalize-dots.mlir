// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// fp8 operands of a dot not marked wgmma (mma.sync takes no fp8) widen to
// f16 (exact); the accumulator and result stay f32.
// CHECK-LABEL: func.func @fp8_dot
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf8E4M3FN>, %[[B:.*]]: tensor<32x64xf8E4M3FN>, %[[C:.*]]: tensor<64x64xf32>)
// CHECK: %[[A16:.*]] = arith.extf %[[A]] : tensor<64x32xf8E4M3FN> to tensor<64x32xf16>
// CHECK: %[[B16:.*]] = arith.extf %[[B]] : tensor<32x64xf8E4M3FN> to tensor<32x64xf16>
// CHECK: tile.dot %[[A16]], %[[B16]], %[[C]] : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
// REMARK: remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for mma.sync
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

// A dot that tilegpu-accelerate-dots made a wgmma reads its fp8 operands
// from shared memory as they are; one it left on mma.sync is widened, the
// layouts kept.
// CHECK-LABEL: func.func @fp8_marked
// CHECK: tile.dot %{{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x128xf8E4M3FN, #blocked>, tensor<128x64xf8E4M3FN, #blocked>
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<64x128xf8E4M3FN, #blocked> to tensor<64x128xf16, #blocked>
// CHECK: tile.dot %[[W]], %{{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x128xf16, #blocked>, tensor<128x64xf16, #blocked>
// REMARK-NOT: legalize-dots.mlir:[[# @LINE + 5]]:
// REMARK: legalize-dots.mlir:[[# @LINE + 5]]:{{.*}} remark: fp8 ('f8E4M3FN') operands widened
#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @fp8_marked(%a: tensor<64x128xf8E4M3FN, #a>, %b: tensor<128x64xf8E4M3FN, #a>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tile.dot %a, %b, %c {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x128xf8E4M3FN, #a>, tensor<128x64xf8E4M3FN, #a>, tensor<64x64xf32, #mma>
  %e = tile.dot %a, %b, %d {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x128xf8E4M3FN, #a>, tensor<128x64xf8E4M3FN, #a>, tensor<64x64xf32, #mma>
  return %e : tensor<64x64xf32, #mma>
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
