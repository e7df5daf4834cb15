// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s
// A second run finds nothing left to do.
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-pipeline | FileCheck %s
//
// The pass alone, on kernels whose layouts, stages and dot instructions are
// written out (what tilegpu-assign-layouts and tilegpu-accelerate-dots give
// them).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @windows
// CHECK: %[[RA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0>
// CHECK: %[[RB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0>
// CHECK: %[[S0:.*]] = tilegpu.memdesc_index %[[RA]]
// CHECK: tilegpu.async_copy %arg0[%c0, %c0], %[[S0]] {{.*}} as tensor<64x32xbf16, #blocked>
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy %arg1[%c0, %c0]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[STAGE:.*]] = %c0_i32{{.*}}) -> (tensor<64x64xf32, #mma>, i32)
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[STAGE]] : i32 to index
// CHECK-NEXT: %[[TA:.*]] = tilegpu.memdesc_index %[[RA]][%[[I]]]
// CHECK: %[[TB:.*]] = tilegpu.memdesc_index %[[RB]]
// CHECK-NEXT: %[[D:.*]] = tilegpu.mma mma_sync %[[TA]], %[[TB]], %[[ACC]] : !tilegpu.memdesc<64x32xbf16, swizzle = 0>, !tilegpu.memdesc<32x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
// CHECK: %[[P:.*]] = arith.addi %[[STAGE]], %c1_i32
// CHECK-NEXT: %[[AHEAD:.*]] = arith.remui %[[P]], %c2_i32
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[AHEAD]]
// CHECK-NEXT: %[[SA:.*]] = tilegpu.memdesc_index %[[RA]][%[[J]]]
// CHECK-NEXT: tilegpu.async_copy %arg0[%c0, %{{.*}}], %[[SA]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.async_copy %arg1
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: %[[NEXT:.*]] = arith.remui
// CHECK-NEXT: scf.yield %[[D]], %[[NEXT]] : tensor<64x64xf32, #mma>, i32
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: tile.store
// Two windows of one load ahead (rings of two stages) on mma.sync.
func.func @windows(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @wgmma_in_flight
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xbf16, swizzle = 128>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xbf16, swizzle = 128>
// CHECK-COUNT-4: tilegpu.async_commit_group
// CHECK: scf.for
// CHECK: tilegpu.async_wait 2
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: %[[BT:.*]] = tilegpu.memdesc_trans %{{.*}} : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>
// CHECK-NEXT: %[[D:.*]] = tilegpu.mma wgmma %{{.*}}, %[[BT]], %{{.*}} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>
// CHECK-NEXT: tilegpu.mma_wait 1
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.async_copy %arg0
// CHECK: tilegpu.async_copy %arg1
// CHECK-NOT: tilegpu.mma_wait
// CHECK: scf.yield %[[D]]
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait 0
// CHECK-NEXT: %[[R:.*]] = tilegpu.mma_wait 0 %{{.*}}#0
// CHECK-NEXT: tile.store %[[R]]
// wgmma with three stages: B stored [N][K], read transposed; the loads
// ahead go after the dot's issue; the accumulator's group stays in flight.
func.func @wgmma_in_flight(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [8, 1]>

// CHECK-LABEL: func.func @wgmma_in_flight_loads_after
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.mma_wait 1
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.async_copy %arg0
// CHECK: tilegpu.async_copy %arg1
// CHECK-NOT: tilegpu.mma_wait
// CHECK: scf.yield
// The same loop at 8 warps (two warpgroups) with its loads ahead written
// after the dot: they refill the stage the last iteration's groups read,
// which the other warpgroup may still be reading when this one's group is
// done, so the copies wait for a barrier after mma_wait 1.
func.func @wgmma_in_flight_loads_after(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x64xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<128x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    scf.yield %d, %an, %bn : tensor<128x64xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<128x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @two_wgmma
// CHECK: %[[Q:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
// CHECK: tilegpu.async_copy %arg0[%c0, %c0], %[[Q]]
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.memdesc_trans
// CHECK-NEXT: %[[S:.*]] = tilegpu.mma wgmma %[[Q]],
// CHECK-NEXT: %[[SW:.*]] = tilegpu.mma_wait 0 %[[S]]
// CHECK: tilegpu.async_copy %arg1
// CHECK: tilegpu.async_copy %arg2
// CHECK: %[[P:.*]] = arith.truncf %[[SW]]
// CHECK: %[[O:.*]] = tilegpu.mma wgmma %[[P]], %{{.*}}, %{{.*}} : tensor<64x64xbf16, #mma>, !tilegpu.memdesc<64x64xbf16, swizzle = 128>
// CHECK-NOT: tilegpu.mma_wait
// CHECK: %[[OW:.*]] = tilegpu.mma_wait 0 %[[O]]
// CHECK-NEXT: scf.yield %[[OW]]
// CHECK: tilegpu.async_wait 0
// CHECK-NOT: tilegpu.mma_wait
// CHECK: tile.store
// Attention's shape: Q loaded once (a ring of one stage), K and V windows;
// P in the accumulator's registers; the second dot's result only goes
// round the loop.
func.func @two_wgmma(%vq: !tile.view<?x?xbf16>, %vk: !tile.view<?x?xbf16>, %vv: !tile.view<?x?xbf16>, %vo: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vk[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %q = tile.load %vq[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %k0 = tile.load %vk[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %v0 = tile.load %vv[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%o = %z, %tk = %k0, %tv = %v0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %kt = tile.permute %tk [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %s = tile.dot %q, %kt, %z {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    %j1 = arith.addi %j, %c1 : index
    %kn = tile.load %vk[%j1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %vn = tile.load %vv[%j1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %p = arith.truncf %s : tensor<64x64xf32, #mma> to tensor<64x64xbf16, #mma>
    %o1 = tile.dot %p, %tv, %o {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %o1, %kn, %vn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vo[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>

// CHECK-LABEL: func.func @registers
// CHECK: %[[A:.*]] = tile.load
// CHECK-NEXT: tilegpu.mma mma_sync %[[A]], %[[A]], %cst : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #mma>
// CHECK-NOT: tilegpu.async_wait
// Nothing staged: the dot reads its operands from registers.
func.func @registers(%va: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %d = tile.dot %a, %a, %z : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
  tile.store %d, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @helper
// CHECK: tile.dot
// Not a kernel: left alone.
func.func @helper(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-DAG: #[[COPY:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK-LABEL: func.func @tf32_transposed_b
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf32, swizzle = 128>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<2x32x128xf32, swizzle = 128, transposed>
// CHECK: tilegpu.async_copy %arg1{{.*}} : !tile.view<?x?xf32>, !tilegpu.memdesc<32x128xf32, swizzle = 128, transposed> as tensor<32x128xf32, #[[COPY]]>
// CHECK: scf.for
// CHECK-NOT: tilegpu.memdesc_trans
// CHECK: tilegpu.mma wgmma %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc<64x32xf32, swizzle = 128>, !tilegpu.memdesc<32x128xf32, swizzle = 128, transposed>, tensor<64x128xf32, #mma>
// CHECK: tilegpu.async_copy %arg1{{.*}} as tensor<32x128xf32, #[[COPY]]>
// A tf32 wgmma's B ([K][N]) staged transposed: the ring is stored [N][K]
// (K-major) and read as it is, no transpose view; its copies take one
// element per thread and register, lanes 2 rows by 16 columns, the warps
// along K, and never the chained address form.
func.func @tf32_transposed_b(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0, transposed = true>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, transposed = true>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>

// CHECK-LABEL: func.func @tf32_swapped
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf32, swizzle = 128>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<2x32x128xf32, swizzle = 128>
// CHECK: tilegpu.async_copy %arg1{{.*}} : !tile.view<?x?xf32>, !tilegpu.memdesc<32x128xf32, swizzle = 128> as tensor<32x128xf32, #blocked1>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[STAGE:.*]] = %c0_i32{{.*}})
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.mma_wait 1
// CHECK-NEXT: %[[D:.*]] = tilegpu.mma wgmma %{{.*}}, %{{.*}}, %[[ACC]] : !tilegpu.memdesc<64x32xf32, swizzle = 128>, !tilegpu.memdesc<32x128xf32, swizzle = 128>, tensor<64x128xf32, #linear>
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: tilegpu.mma_wait
// CHECK: tilegpu.async_copy %arg0
// CHECK: tilegpu.async_copy %arg1
// CHECK-NOT: tilegpu.mma_wait
// CHECK: scf.yield %[[D]]
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: %[[R:.*]] = tilegpu.mma_wait 0 %{{.*}}#0 : tensor<64x128xf32, #linear>
// CHECK-NEXT: tile.store %[[R]]
// A tf32 wgmma on the transposed product (the accumulator in the swapped
// layout): A and B, as loaded, staged under the swizzle. Its
// groups (two, each half of K) stay in flight into the next iteration, as
// a matmul's group does: the next dot first waits for all but the last
// (the first half's, whose A registers it loads again), and waits for the
// rest itself before its second half; the barrier after it then tells
// every warpgroup that every group is past the stage the copies refill.
func.func @tf32_swapped(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #swapped>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #swapped>
    scf.yield %d, %an, %bn : tensor<64x128xf32, #swapped>, tensor<64x32xf32, #a>, tensor<32x128xf32, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x128xf32, #swapped>, !tile.view<?x?xf32>
  return
}
