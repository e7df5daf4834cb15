// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots=chip=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: tilegym-opt %s --split-input-file --tilegpu-legalize-dots="chip=sm_90a remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90A-REMARK

// fp8 operands of a dot not marked, off sm_90a (no chip given), widen to
// f16 (exact): mma.sync takes no fp8; the accumulator and result stay f32.
// CHECK-LABEL: func.func @fp8_dot
// CHECK-SAME: (%[[A:.*]]: tensor<64x32xf8E4M3FN>, %[[B:.*]]: tensor<32x64xf8E4M3FN>, %[[C:.*]]: tensor<64x64xf32>)
// CHECK: %[[A16:.*]] = arith.extf %[[A]] : tensor<64x32xf8E4M3FN> to tensor<64x32xf16>
// CHECK: %[[B16:.*]] = arith.extf %[[B]] : tensor<32x64xf8E4M3FN> to tensor<32x64xf16>
// CHECK: tile.dot %[[A16]], %[[B16]], %[[C]] : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
// REMARK: remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for mma.sync: fp8 wgmma needs sm_90a
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
// REMARK: legalize-dots.mlir:[[# @LINE + 5]]:{{.*}} remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for mma.sync: tilegpu-accelerate-dots left it on mma.sync
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

// -----

// Before tilegpu-accelerate-dots, on sm_90a: an fp8 dot that may run as
// wgmma (4 warps, 64x128x128, A loaded [M][K], B loaded [N][K] and
// transposed) keeps its operands; one whose K is 64, or whose B is loaded
// [K][N], is widened, the remark saying why.
// SM90A-LABEL: func.func @fp8_early
// SM90A: tile.dot %{{.*}} : tensor<64x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<64x128xf32>
// SM90A: arith.extf %{{.*}} : tensor<64x64xf8E4M3FN> to tensor<64x64xf16>
// SM90A: tile.dot %{{.*}} : tensor<64x64xf16>, tensor<64x128xf16>, tensor<64x128xf32>
// SM90A: arith.extf
// SM90A: tile.dot %{{.*}} : tensor<64x128xf16>, tensor<128x128xf16>, tensor<64x128xf32>
// SM90A-REMARK-NOT: legalize-dots.mlir:[[# @LINE + 15]]:
// SM90A-REMARK: legalize-dots.mlir:[[# @LINE + 15]]:{{.*}} remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for mma.sync: an fp8 wgmma reads rows of 128 bytes: K must be a multiple of 128, got 64
// SM90A-REMARK: legalize-dots.mlir:[[# @LINE + 15]]:{{.*}} remark: fp8 ('f8E4M3FN') operands widened to f16, exactly, for mma.sync: an fp8 wgmma reads both operands K-major: A as loaded [M][K], B loaded [N][K] and transposed at the dot, each tile used by this dot alone
// SM90A-REMARK-NOT: remark
func.func @fp8_early(%va: !tile.view<?x?xf8E4M3FN>, %vb: !tile.view<?x?xf8E4M3FN>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %bt = tile.permute %b [1, 0] : tensor<128x128xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %a64 = tile.load %va[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
  %b64 = tile.load %vb[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
  %bt64 = tile.permute %b64 [1, 0] : tensor<128x64xf8E4M3FN> -> tensor<64x128xf8E4M3FN>
  %a2 = tile.load %va[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN>
  %bn = tile.load %vb[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %d = tile.dot %a, %bt, %z : tensor<64x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<64x128xf32>
  %e = tile.dot %a64, %bt64, %d : tensor<64x64xf8E4M3FN>, tensor<64x128xf8E4M3FN>, tensor<64x128xf32>
  %f = tile.dot %a2, %bn, %e : tensor<64x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<64x128xf32>
  tile.store %f, %vc[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}
