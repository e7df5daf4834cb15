// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize=chip=sm_90 | FileCheck %s --check-prefix=SM90
//
// A kernel asking for warp specialization (tile.specialize = 1), after
// tilegpu-pipeline: one empty mbarrier array per ring (every consumer
// thread arrives), both sides under the test that the launch encoded both
// tensor maps; the producer's one thread runs the loop's iterations from
// fill S - 1 = 2, waiting for each stage's release (parity ((f / 3) & 1) ^
// 1) before issuing its copy into that stage; the consumers' loop keeps
// its waits for full stages and its mma, each fill replaced by the release
// of the stage it would refill from the second iteration on, without the
// cp.async waits, fence and barriers; the kernel as it was where a map is
// not encoded.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @specialized
// CHECK-SAME: tile.min_blocks_per_sm = 2 : i64
// CHECK-SAME: tilegpu.producer_warps = 4 : i64
// CHECK: %[[BA:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK: %[[BB:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK: %[[EA:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.mbarrier_init %[[EA]] count 128 : !tilegpu.mbarriers<3>
// CHECK-NEXT: %[[EB:.*]] = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.mbarrier_init %[[EB]] count 128 : !tilegpu.mbarriers<3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[A0:.*]] = tilegpu.tensor_map_active 0
// CHECK-NEXT: %[[A1:.*]] = tilegpu.tensor_map_active 1
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[A0]], %[[A1]] : i1
// 8 warps, 2 blocks per SM (the dots' 72 registers fit the 128 a thread
// has at the entry): 24 for each producer thread leaves 232 for each
// consumer thread.
// CHECK-NEXT: tilegpu.warp_specialize producer warps 4 registers 24 {{[{]}}
// CHECK-NEXT: scf.if %[[OK]] {{[{]}}
// CHECK: %[[KT:.*]] = tile.dim %arg0[1]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[KT]] step %{{.*}} iter_args(%[[F:.*]] = %c2_i32) -> (i32) {{[{]}}
// CHECK: %[[SLOT:.*]] = arith.remui %[[F]], %[[S:.*]] : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[F]], %[[S]] : i32
// CHECK-NEXT: %[[ODD:.*]] = arith.andi %[[ROUND]], %{{.*}} : i32
// CHECK-NEXT: %[[PARITY:.*]] = arith.xori %[[ODD]], %{{.*}} : i32
// CHECK: tilegpu.mbarrier_wait %[[EA]][%[[SLOT]]], %[[PARITY]] : !tilegpu.mbarriers<3>
// CHECK: %[[K2:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: tilegpu.async_copy %arg0[%{{.*}}, %[[K2]]], %{{.*}} tma(%[[BA]][%[[SLOT]]], 0)
// CHECK: tilegpu.mbarrier_wait %[[EB]][%[[SLOT]]], %[[PARITY]] : !tilegpu.mbarriers<3>
// CHECK: tilegpu.async_copy %arg1[%{{.*}}, %{{.*}}], %{{.*}} tma(%[[BB]][%[[SLOT]]], 1)
// CHECK: scf.yield
// CHECK: } consumer registers 232 {{[{]}}
// CHECK-NEXT: scf.if %[[OK]] {{[{]}}
// The fills before the loop stay the consumers'.
// CHECK: tilegpu.async_copy %arg0[%c0, %c0]
// CHECK: tilegpu.async_copy %arg1[%c0, %c1]
// CHECK: scf.for %[[CK:[^ ]*]] = %[[LB:[^ ]*]] to
// CHECK-NOT: tilegpu.async_wait
// CHECK-NOT: gpu.barrier
// CHECK: tilegpu.mbarrier_wait %[[BA]][%{{.*}}], %{{.*}} tensor_map 0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BB]][%{{.*}}], %{{.*}} tensor_map 1
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK-NOT: gpu.barrier
// CHECK: tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.mma_wait 1
// CHECK: %[[R:.*]] = arith.addi
// CHECK-NEXT: %[[RS:.*]] = arith.remui %[[R]]
// CHECK-NEXT: %[[NF:.*]] = arith.cmpi ne, %[[CK]], %[[LB]] : index
// CHECK-NEXT: scf.if %[[NF]] {{[{]}}
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[EA]][%[[RS]]] : !tilegpu.mbarriers<3>
// CHECK: tilegpu.mbarrier_arrive %[[EB]]
// CHECK-NOT: tilegpu.async_copy
// CHECK: scf.yield
// The fills ahead of the last iteration, which the producer issued too.
// CHECK: tilegpu.mbarrier_wait %[[BA]]
// CHECK: tile.store
// CHECK: } else {{[{]}}
// CHECK: scf.for
// CHECK: tilegpu.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: tilegpu.async_copy %arg0
// CHECK: tile.store
// CHECK-NOT: return
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// REMARK: remark: warp-specialized: 4 producer warp(s) issue the TMA's fills of 2 ring(s) (3 stages), the 4 consumer warps release each stage after its mma; registers 232 per consumer thread (its dots need about 72), 24 per producer thread, 2 block(s) per SM
// SM90-LABEL: func.func @specialized
// SM90-NOT: tilegpu.warp_specialize
func.func @specialized(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
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

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A kernel that does not ask is left alone, and says nothing.
// CHECK-LABEL: func.func @not_asked
// CHECK-NOT: tilegpu.warp_specialize
// CHECK-NOT: tilegpu.producer_warps
func.func @not_asked(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
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

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A ring on cp.async: its copies need every thread.
// CHECK-LABEL: func.func @cp_async
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: a ring of its loop is copied by cp.async, not the TMA
func.func @cp_async(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// Asked for where nothing can be given to producers: no loop of rings, 2
// warps (not a warpgroup), 32 warps (no room for one more). Each says why.
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2]}>
// CHECK-LABEL: func.func @no_rings
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: no loop refills rings of staged dot operands
func.func @no_rings(%v: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<256xf32, #b>
  tile.store %z, %v[%c0] : tensor<256xf32, #b>, !tile.view<?xf32>
  return
}
// REMARK: remark: not warp-specialized: its 2 warps are not whole warpgroups, which setmaxnreg resizes
func.func @two_warps(%v: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64, tile.specialize = 1 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<256xf32, #b>
  tile.store %z, %v[%c0] : tensor<256xf32, #b>, !tile.view<?xf32>
  return
}
// REMARK: remark: not warp-specialized: its 32 warps leave no room for a producer warp (32 warps a block)
func.func @full_block(%v: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 32 : i64, tile.specialize = 1 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<256xf32, #b>
  tile.store %z, %v[%c0] : tensor<256xf32, #b>, !tile.view<?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [4]}>
// A loop bound read from memory: the producer would have to read it again.
// CHECK-LABEL: func.func @data_bound
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: the loop's bounds or the copies' indices derive from 'tile.gather', which the producer cannot recompute
func.func @data_bound(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>, %vn: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %at = arith.constant dense<0> : tensor<1xi32, #one>
  %g = tile.gather %vn[%at] : !tile.view<?xi32>, [tensor<1xi32, #one>] -> tensor<1xi32, #one>
  %n = tile.item %g : tensor<1xi32, #one>
  %kt = arith.index_cast %n : i32 to index
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

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// A ring loop inside another loop (a batch of matmuls per block): the
// producer would have to run the outer loop too.
// CHECK-LABEL: func.func @nested_ring_loop
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: its ring loop is inside another loop or branch
func.func @nested_ring_loop(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  scf.for %i = %c0 to %c4 step %c1 {
    %a0 = tile.load %va[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
      %k1 = arith.addi %k, %c1 : index
      %an = tile.load %va[%i, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
      %bn = tile.load %vb[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
      %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
      %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
      scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
    }
    tile.store %r#0, %vc[%i, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// A copy's tile index carried by the loop (a cursor advanced each
// iteration): the producer, which runs the iterations on its own, does not
// carry the consumers' values.
// CHECK-LABEL: func.func @carried_index
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: the tile indices of a copy are carried by the loop
func.func @carried_index(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:4 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %cur = %c1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, index) {
    %an = tile.load %va[%c0, %cur] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c0, %cur] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    %next = arith.addi %cur, %c1 : index
    scf.yield %d, %an, %bn, %next : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, index
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// Two loops in turn, each refilling its rings: one producer serves one
// loop.
// CHECK-LABEL: func.func @two_ring_loops
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: more than one loop refills rings (one producer serves one loop)
func.func @two_ring_loops(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  %a2 = tile.load %va[%c1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b2 = tile.load %vb[%c1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 3, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %s:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %r#0, %ta = %a2, %tb = %b2) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c1, %k1] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 2, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%c1, %k1] {tilegpu.stage = #tilegpu.stage<ring = 3, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %s#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// A tile copied once before the loop by cp.async (no tensor map) beside a
// ring on the TMA: its copy is waited for by the loop's cp.async wait,
// which the consumers' loop would drop.
// CHECK-LABEL: func.func @once_on_cp_async
// CHECK-NOT: tilegpu.warp_specialize
// REMARK: remark: not warp-specialized: a tile it copies before its ring loop is on cp.async, whose wait is the loop's
func.func @once_on_cp_async(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
