// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s
// A second run finds nothing left to do.
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-pipeline | FileCheck %s
//
// Rings the TMA copies (tilegpu.tma on their loads, the kernel's
// tilegpu.tensor_maps, as tilegpu-assign-tma leaves them): one mbarrier
// per stage, initialized at the kernel's entry; each copy names the
// mbarrier of its stage and its tensor map; the loop carries the parity of
// the current stage's mbarrier phase beside the stage index, flipped as the
// index wraps; each thread waits for the phase before the barrier that
// precedes the stage's first read; after the loop, the fills no iteration
// read are waited for.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @tma_windows
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xbf16, swizzle = 128>
// CHECK: %[[RB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xbf16, swizzle = 128>
// CHECK: %[[BA:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.mbarrier_init %[[BA]] : !tilegpu.mbarriers<3>
// CHECK-NEXT: %[[BB:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.mbarrier_init %[[BB]] : !tilegpu.mbarriers<3>
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.async_copy %arg0[%c0, %c0], %{{.*}} tma(%[[BA]][%[[Z:.*]]], 0) : {{.*}}, !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy %arg1[%c0, %c0], %{{.*}} tma(%[[BB]][%{{.*}}], 1)
// CHECK: tilegpu.async_copy %arg0[%c0, %c1], %{{.*}} tma(%[[BA]][%{{.*}}], 0)
// CHECK: tilegpu.async_copy %arg1[%c0, %c1], %{{.*}} tma(%[[BB]][%{{.*}}], 1)
// CHECK: %[[L:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %cst, %[[S:.*]] = %{{.*}}, %[[P:.*]] = %{{.*}}) -> (tensor<64x64xf32, #mma>, i32, i32)
// CHECK: tilegpu.async_wait 2
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BA]][%[[S]]], %[[P]] tensor_map 0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BB]][%[[S]]], %[[P]] tensor_map 1
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.mma_wait 1
// CHECK-NEXT: gpu.barrier
// CHECK: %[[AHEAD:.*]] = arith.remui
// CHECK: tilegpu.async_copy %arg0[%c0, %{{.*}}], %{{.*}} tma(%[[BA]][%[[AHEAD]]], 0)
// CHECK: tilegpu.async_copy %arg1[%c0, %{{.*}}], %{{.*}} tma(%[[BB]][%{{.*}}], 1)
// CHECK: %[[NEXT:.*]] = arith.remui
// CHECK: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %{{.*}} : i32
// CHECK-NEXT: %[[FLIP:.*]] = arith.extui %[[WRAP]] : i1 to i32
// CHECK-NEXT: %[[NP:.*]] = arith.xori %[[P]], %[[FLIP]] : i32
// CHECK-NEXT: scf.yield %{{.*}}, %[[NEXT]], %[[NP]] : tensor<64x64xf32, #mma>, i32, i32
// CHECK: tilegpu.async_wait 0
// The two fills ahead of the last iteration: stages s and s + 1 (mod 3),
// their parity flipped past the wrap.
// CHECK: %[[S0:.*]] = arith.addi %[[L]]#1, %{{.*}} : i32
// CHECK: arith.cmpi uge, %[[S0]]
// CHECK: %[[SS0:.*]] = arith.remui %[[S0]]
// CHECK: %[[P0:.*]] = arith.xori %[[L]]#2
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BA]][%[[SS0]]], %[[P0]] tensor_map 0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BB]][%[[SS0]]], %[[P0]] tensor_map 1
// CHECK: %[[S1:.*]] = arith.addi %[[L]]#1, %c1_i32
// CHECK: %[[SS1:.*]] = arith.remui %[[S1]]
// CHECK: %[[P1:.*]] = arith.xori %[[L]]#2
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BA]][%[[SS1]]], %[[P1]] tensor_map 0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BB]][%[[SS1]]], %[[P1]] tensor_map 1
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tile.store
// Both operands of a three-stage wgmma loop on the TMA.
func.func @tma_windows(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @tma_one_stage
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
// CHECK: %[[BA:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<1>
// CHECK-NEXT: tilegpu.mbarrier_init %[[BA]]
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: tilegpu.mbarrier_alloc
// CHECK: tilegpu.async_copy %arg0[%c0, %c0], %[[RA]] tma(%[[BA]][%{{.*}}], 0)
// CHECK: tilegpu.async_copy %arg1[%c0, %c0], %{{.*}} : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #blocked>{{$}}
// CHECK: tilegpu.mbarrier_wait %[[BA]][%[[Z:.*]]], %[[Z]] tensor_map 0
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #mma>, i32) {
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tilegpu.async_copy %arg1
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tile.store
// A tile loaded once before the loop on the TMA (its one fill waited for
// before the loop), B on cp.async: only one ring has mbarriers, and the
// loop carries no phase.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @tma_one_stage(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
