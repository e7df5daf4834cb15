// RUN: tilegym-opt %s --tilegpu-pipeline=chip=sm_90 --verify-diagnostics
//
// A dot put on wgmma for sm_90a, pipelined for a chip without it.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @wgmma_on_sm90(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but wgmma needs sm_90a}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}
