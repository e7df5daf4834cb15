// RUN: tilegym-opt %s --tilegpu-accelerate-dots="shared-memory-budget=65536 remarks=1" 2>&1 | FileCheck %s --check-prefix=FITS
// RUN: tilegym-opt %s --tilegpu-accelerate-dots="shared-memory-budget=65535 remarks=1" 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: tilegym-opt %s --tilegpu-accelerate-dots="chip=sm_80 shared-memory-budget=65536 remarks=1" 2>&1 | FileCheck %s --check-prefix=SM80
//
// The budget counts each ring at the size it takes. Two stages of a
// 128x64 and a 64x128 bf16 tile take 65536 bytes under wgmma's 128-byte
// swizzle (rows unpadded) and 71680 with rows padded for ldmatrix
// (mma.sync): at a budget of 65536 both rings fit on sm_90a; one byte less
// drops the last ring (B), the dot falls to mma.sync and A's ring takes
// padded rows (36864 bytes); on sm_80 the padded sizes do not fit 65536.

// FITS: remark: runs as wgmma
// FITS: remark: dot operands staged in shared memory by cp.async: 2 in 2 stages (65536 bytes)
// FITS: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>}
// FITS: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>}
// FITS: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>}

// SHORT: remark: runs on mma.sync: its rhs is not staged in shared memory
// SHORT: remark: dot operands staged in shared memory by cp.async: 1 in 2 stages (36864 bytes)
// SHORT: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>}
// SHORT-NOT: ring = 1
// SHORT: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}

// SM80: remark: runs on mma.sync: wgmma needs sm_90a
// SM80: remark: dot operands staged in shared memory by cp.async: 1 in 2 stages (36864 bytes)
// SM80-NOT: ring = 1

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [8, 1]>
func.func @window(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x128xbf16, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
    %bn = tile.load %vb[%k1, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16, #a>, tensor<64x128xbf16, #b>, tensor<128x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<128x128xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x128xbf16, #b>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<128x128xf32, #mma>, !tile.view<?x?xf32>
  return
}
