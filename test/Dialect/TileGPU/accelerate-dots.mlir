// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots="shared-memory-budget=0 remarks=1" 2>&1 | FileCheck %s --check-prefix=NOBUDGET
// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The decision is a function of the IR: made again, it is the same.
// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots --tilegpu-accelerate-dots | FileCheck %s
//
// The pass alone, on kernels whose layouts are written out (what
// tilegpu-assign-layouts gives them).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [8, 1]>

// A window one tile ahead of bf16 operands at 8 warps: two rings of two
// stages, the loads before the loop filling stage 0, the ones in the body
// the stage the last iteration read; on sm_90a the dot runs as wgmma and
// the rings take its 128-byte swizzle, elsewhere mma.sync and padded rows.
// CHECK-LABEL: func.func @window
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>}
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>}
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>}
// SM80-LABEL: func.func @window
// SM80: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>}
// SM80: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>}
// SM80: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs as wgmma
// REMARK: remark: dot operands staged in shared memory by cp.async: 2 in 2 stages (65536 bytes)
// NOBUDGET: remark: runs on mma.sync: its rhs is not staged in shared memory
// NOBUDGET-LABEL: func.func @window
// NOBUDGET-NOT: tilegpu.stage
// NOBUDGET: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
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

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [8, 1]>

// A tile loaded once before the loop (its lhs) is a ring of one stage; the
// rhs is a window two tiles ahead: a ring of three stages, the two loads
// before the loop filling stages 0 and 1. B stored [N, K] reaches the dot
// through a transpose and is staged all the same.
// CHECK-LABEL: func.func @invariant_lhs
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>}
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>}
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>}
// REMARK: remark: runs as wgmma
// REMARK: remark: dot operands staged in shared memory by cp.async: 1 in 3 stages (49152 bytes)
func.func @invariant_lhs(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %q = tile.load %va[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b1 = tile.load %vb[%c1, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %t0 = %b0, %t1 = %b1) -> (tensor<128x128xf32, #mma>, tensor<128x64xbf16, #a>, tensor<128x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %bn = tile.load %vb[%k2, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
    %bt = tile.permute %t0 [1, 0] : tensor<128x64xbf16, #a> -> tensor<64x128xbf16, #b>
    %d = tile.dot %q, %bt, %acc : tensor<128x64xbf16, #a>, tensor<64x128xbf16, #b>, tensor<128x128xf32, #mma>
    scf.yield %d, %t1, %bn : tensor<128x128xf32, #mma>, tensor<128x64xbf16, #a>, tensor<128x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<128x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>

// f32 operands (tf32) with warps along N stay on mma.sync, staged with
// padded rows; a load padded with something other than +0.0 cannot be a
// cp.async zero fill and stays in registers.
// CHECK-LABEL: func.func @tf32
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>}
// CHECK-NOT: tilegpu.stage
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>}
// CHECK-NOT: tilegpu.stage
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs on mma.sync: its accumulator's warps are not all along M
// REMARK: remark: dot operands staged in shared memory by cp.async: 1 in 2 stages (18432 bytes)
func.func @tf32(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %n] {padding = 1.0 : f32} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%k1, %n] {padding = 1.0 : f32} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A dot outside any loop has nothing to stage; a warpgroup's share below a
// 64x64x64 product runs on mma.sync.
// CHECK-LABEL: func.func @no_loop
// CHECK-NOT: tilegpu.stage
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs on mma.sync: each warpgroup's share is less than a 64x64x64 product
func.func @no_loop(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %d = tile.dot %a, %b, %z : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
  tile.store %d, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A tf32 dot with warps along M runs as wgmma on sm_90a: A staged as
// loaded (K-major, rows of 32 f32 = 128 bytes), B ([K][N], N-major) staged
// transposed, since wgmma reads tf32 operands only K-major. Two stages of
// a 64x32 and a 32x128 f32 tile (24576 bytes), unpadded under the swizzle.
// CHECK-LABEL: func.func @tf32_wgmma
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0, transposed = true>}
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, transposed = true>}
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>}
// SM80-LABEL: func.func @tf32_wgmma
// SM80-NOT: transposed
// SM80: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs as wgmma; its tf32 rhs is copied into K-major stages
// REMARK: remark: dot operands staged in shared memory by cp.async: 2 in 2 stages (49152 bytes)
func.func @tf32_wgmma(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%k1, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>

// The same dot with its accumulator in the swapped wgmma layout runs as
// wgmma on the transposed product: A staged K-major under the swizzle, B
// staged as loaded, [K][N], under the swizzle too (which the TMA writes),
// to be read into registers as wgmma's A. Where it cannot run so (no sm_90a, or nothing
// staged), it runs on mma.sync in an mma layout of its own, its
// accumulator converted before it and its result back after it.
// CHECK-LABEL: func.func @tf32_swapped
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>}
// CHECK: scf.for
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>}
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>} : {{.*}}, tensor<64x128xf32, #linear>
// CHECK-NOT: convert_layout
// SM80-LABEL: func.func @tf32_swapped
// SM80: %[[ACC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x128xf32, #linear> -> tensor<64x128xf32, #mma>
// SM80: %[[D:.*]] = tile.dot {{.*}}, %[[ACC]] {tilegpu.dot = #tilegpu.dot<mma_sync>} : {{.*}}, tensor<64x128xf32, #mma>
// SM80: %[[BACK:.*]] = tilegpu.convert_layout %[[D]] : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #linear>
// SM80: scf.yield %[[BACK]]
// NOBUDGET: remark: runs on mma.sync: a tf32 wgmma reads its lhs from shared memory; it is not staged there; its accumulator is converted to an mma layout and back, since the transposed product reads both operands from shared memory; one is not staged there
// NOBUDGET-LABEL: func.func @tf32_swapped
// NOBUDGET: tilegpu.convert_layout
// NOBUDGET: tile.dot {{.*}}#tilegpu.dot<mma_sync>
// NOBUDGET: tilegpu.convert_layout
// REMARK: remark: runs as wgmma on the transposed product (C^T = B^T A^T): its tf32 rhs [K][N] goes from shared memory to registers as wgmma's A
// REMARK: remark: dot operands staged in shared memory by cp.async: 2 in 2 stages (49152 bytes)
func.func @tf32_swapped(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #swapped>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%k1, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #swapped>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #swapped>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#h = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>

// The swapped layout on dots the transposed product does not take (hand-
// written: tilegpu-assign-layouts gives it to none of them): bf16
// operands, an N of 32 (wgmma's M is 64 per warpgroup), a B read through
// a transpose. Each accumulates in an mma layout (warps along M as far as
// its rows go), converted before the dot and back after it, and is then
// decided as any dot in that layout: here each runs as wgmma, the tf32
// [K][N] B of the second copied into K-major stages. Made again, the
// decision is the same (the fifth RUN line).
// REMARK: remark: runs as wgmma; its accumulator is converted to an mma layout and back, since the transposed product is for tf32 operands
// REMARK: remark: runs as wgmma; its tf32 rhs is copied into K-major stages; its accumulator is converted to an mma layout and back, since the transposed product takes N a multiple of 64 per warpgroup, M a multiple of 8 up to 256 and K a multiple of 32
// REMARK: remark: runs as wgmma; its accumulator is converted to an mma layout and back, since the transposed product reads its rhs as loaded, [K][N]
// SM80-LABEL: func.func @swapped_bf16
// SM80: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// CHECK-LABEL: func.func @swapped_bf16
// CHECK: %[[ACC:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x128xf32, #linear> -> tensor<64x128xf32, #mma>
// CHECK: %[[D:.*]] = tile.dot {{.*}}, %[[ACC]] {tilegpu.dot = #tilegpu.dot<wgmma>} : {{.*}}, tensor<64x128xf32, #mma>
// CHECK: tilegpu.convert_layout %[[D]] : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #linear>
// CHECK-NOT: tilegpu.convert_layout
// CHECK-LABEL: func.func @swapped_narrow
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0, transposed = true>}
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>} : {{.*}}, tensor<128x32xf32, #mma>
// CHECK-LABEL: func.func @swapped_bt
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>} : {{.*}}, tensor<64x128xf32, #mma>
func.func @swapped_bf16(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #swapped>
  %a0 = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #h>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16, #h>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #swapped>, tensor<64x64xbf16, #h>, tensor<64x128xbf16, #h>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #h>
    %bn = tile.load %vb[%k1, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16, #h>
    %d = tile.dot %ta, %tb, %acc : tensor<64x64xbf16, #h>, tensor<64x128xbf16, #h>, tensor<64x128xf32, #swapped>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #swapped>, tensor<64x64xbf16, #h>, tensor<64x128xbf16, #h>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x128xf32, #swapped>, !tile.view<?x?xf32>
  return
}
func.func @swapped_narrow(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<128x32xf32, #swapped>
  %a0 = tile.load %va[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x64xf32, #a>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x32xf32, #swapped>, tensor<128x64xf32, #a>, tensor<64x32xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] : !tile.view<?x?xf32> -> tensor<128x64xf32, #a>
    %bn = tile.load %vb[%k1, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf32, #a>, tensor<64x32xf32, #b>, tensor<128x32xf32, #swapped>
    scf.yield %d, %an, %bn : tensor<128x32xf32, #swapped>, tensor<128x64xf32, #a>, tensor<64x32xf32, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<128x32xf32, #swapped>, !tile.view<?x?xf32>
  return
}
func.func @swapped_bt(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #swapped>
  %a0 = tile.load %va[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x32xf32, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<128x32xf32, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%c0, %k1] : !tile.view<?x?xf32> -> tensor<128x32xf32, #a>
    %bt = tile.permute %tb [1, 0] : tensor<128x32xf32, #a> -> tensor<32x128xf32, #a>
    %d = tile.dot %ta, %bt, %acc : tensor<64x32xf32, #a>, tensor<32x128xf32, #a>, tensor<64x128xf32, #swapped>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<128x32xf32, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x128xf32, #swapped>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0], [0, 32], [0, 64]], lane = [[16, 0], [32, 0], [64, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8]]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// An fp8 dot with warps along M, K a multiple of 128 (rows of 128 bytes)
// and B stored [N][K], read through a transpose: both operands staged
// K-major, the dot a wgmma. On sm_80 it stays on mma.sync and its fp8
// tiles are not staged (tilegpu-legalize-dots widens them to f16).
// CHECK-LABEL: func.func @fp8_wgmma
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>}
// CHECK: tile.load {{.*}} {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>}
// CHECK: scf.for
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<wgmma>}
// SM80-LABEL: func.func @fp8_wgmma
// SM80-NOT: tilegpu.stage
// SM80: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs as wgmma
// REMARK: remark: dot operands staged in shared memory by cp.async: 2 in 2 stages (49152 bytes)
func.func @fp8_wgmma(%va: !tile.view<?x?xf8E4M3FN>, %vb: !tile.view<?x?xf8E4M3FN>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN, #a>
  %b0 = tile.load %vb[%n, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x128xf8E4M3FN, #a>, tensor<128x128xf8E4M3FN, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN, #a>
    %bn = tile.load %vb[%n, %k1] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN, #a>
    %bt = tile.permute %tb [1, 0] : tensor<128x128xf8E4M3FN, #a> -> tensor<128x128xf8E4M3FN, #b>
    %d = tile.dot %ta, %bt, %acc : tensor<64x128xf8E4M3FN, #a>, tensor<128x128xf8E4M3FN, #b>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x128xf8E4M3FN, #a>, tensor<128x128xf8E4M3FN, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// An fp8 B stored [K][N] (N-major): wgmma does not transpose fp8, so the
// dot stays on mma.sync and neither fp8 tile is staged.
// CHECK-LABEL: func.func @fp8_n_major
// CHECK-NOT: tilegpu.stage
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs on mma.sync: an fp8 wgmma reads both operands K-major: A as loaded [M][K], B loaded [N][K] and transposed at the dot, each tile used by this dot alone
func.func @fp8_n_major(%va: !tile.view<?x?xf8E5M2>, %vb: !tile.view<?x?xf8E5M2>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf8E5M2>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf8E5M2> -> tensor<64x128xf8E5M2, #a>
  %b0 = tile.load %vb[%c0, %n] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x128xf8E5M2, #a>, tensor<128x128xf8E5M2, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf8E5M2> -> tensor<64x128xf8E5M2, #a>
    %bn = tile.load %vb[%k1, %n] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2, #a>
    %d = tile.dot %ta, %tb, %acc : tensor<64x128xf8E5M2, #a>, tensor<128x128xf8E5M2, #a>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x128xf8E5M2, #a>, tensor<128x128xf8E5M2, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// fp8 rows of 64 bytes: the 128-byte swizzle needs K a multiple of 128.
// CHECK-LABEL: func.func @fp8_k64
// CHECK-NOT: tilegpu.stage
// CHECK: tile.dot {{.*}} {tilegpu.dot = #tilegpu.dot<mma_sync>}
// REMARK: remark: runs on mma.sync: an fp8 wgmma reads rows of 128 bytes: K must be a multiple of 128, got 64
func.func @fp8_k64(%va: !tile.view<?x?xf8E4M3FN>, %vb: !tile.view<?x?xf8E4M3FN>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%m, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<64x64xf8E4M3FN, #a>
  %b0 = tile.load %vb[%n, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x64xf8E4M3FN, #a>, tensor<128x64xf8E4M3FN, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%m, %k1] : !tile.view<?x?xf8E4M3FN> -> tensor<64x64xf8E4M3FN, #a>
    %bn = tile.load %vb[%n, %k1] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN, #a>
    %bt = tile.permute %tb [1, 0] : tensor<128x64xf8E4M3FN, #a> -> tensor<64x128xf8E4M3FN, #a>
    %d = tile.dot %ta, %bt, %acc : tensor<64x64xf8E4M3FN, #a>, tensor<64x128xf8E4M3FN, #a>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x64xf8E4M3FN, #a>, tensor<128x64xf8E4M3FN, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}
