// RUN: tilegym-opt %s | FileCheck %s
// RUN: tilegym-opt %s | tilegym-opt | FileCheck %s
//
// The shared-memory ops print and parse back as written: a ring of stages
// allocated once, cp.async copies into a stage in a layout's 16-byte runs,
// commit groups and waits, a stage read back into registers, a stage seen
// transposed.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>

// CHECK-LABEL: func.func @ring
// CHECK: %[[RING:.*]] = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 49152>} : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128>
// CHECK: %[[S:.*]] = tilegpu.memdesc_index %[[RING]][%{{.*}}] : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128> -> !tilegpu.memdesc<128x64xbf16, swizzle = 128>
// CHECK: tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[S]] : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #blocked>
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_wait 0
// CHECK: tilegpu.local_load %[[S]] : !tilegpu.memdesc<128x64xbf16, swizzle = 128> -> tensor<128x64xbf16, #blocked>
// CHECK: tilegpu.memdesc_trans %[[S]] : !tilegpu.memdesc<128x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x128xbf16, swizzle = 128, transposed>
func.func @ring(%v: !tile.view<?x?xbf16>, %m: index, %k: index, %i: index) -> tensor<128x64xbf16, #a> {
  %ring = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 49152>} : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128>
  %s = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128> -> !tilegpu.memdesc<128x64xbf16, swizzle = 128>
  tilegpu.async_copy %v[%m, %k], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #a>
  tilegpu.async_commit_group
  tilegpu.async_wait 0
  %t = tilegpu.local_load %s : !tilegpu.memdesc<128x64xbf16, swizzle = 128> -> tensor<128x64xbf16, #a>
  %bt = tilegpu.memdesc_trans %s : !tilegpu.memdesc<128x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x128xbf16, swizzle = 128, transposed>
  return %t : tensor<128x64xbf16, #a>
}

// A 3-D view's tile with a leading unit dimension copies into a 2-D stage
// with padded rows.
// CHECK-LABEL: func.func @batched
// CHECK: tilegpu.async_copy {{.*}} : !tile.view<?x?x?xf32>, !tilegpu.memdesc<64x32xf32, swizzle = 0> as tensor<1x64x32xf32, #blocked1>
func.func @batched(%v: !tile.view<?x?x?xf32>, %b: index, %m: index, %k: index) {
  %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf32, swizzle = 0>
  %s = tilegpu.memdesc_index %ring[%k] : !tilegpu.memdesc<2x64x32xf32, swizzle = 0> -> !tilegpu.memdesc<64x32xf32, swizzle = 0>
  tilegpu.async_copy %v[%b, %m, %k], %s : !tile.view<?x?x?xf32>, !tilegpu.memdesc<64x32xf32, swizzle = 0> as tensor<1x64x32xf32, #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerBlock = [1, 4, 1]}>>
  return
}

// -----

// Dots on the tensor cores, their waits, and the proxy fence.
#mma = #tilegpu.mma<warps = [4, 1]>
// CHECK-LABEL: func.func @dots
// CHECK: %[[D:.*]] = tilegpu.mma wgmma %arg0, %arg1, %arg2 : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>, tensor<64x64xf32, #mma>
// CHECK: %[[W:.*]] = tilegpu.mma_wait 0 %[[D]] : tensor<64x64xf32, #mma>
// CHECK: tilegpu.mma_wait 1{{$}}
// CHECK: tilegpu.fence_async_shared
// CHECK: tilegpu.mma mma_sync %arg3, %arg4, %[[W]] {precision = 0 : i32} : tensor<64x32xf32, #mma>, !tilegpu.memdesc<32x64xf32, swizzle = 0>, tensor<64x64xf32, #mma>
func.func @dots(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 128>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>, %c: tensor<64x64xf32, #mma>, %x: tensor<64x32xf32, #mma>, %y: !tilegpu.memdesc<32x64xf32, swizzle = 0>) -> tensor<64x64xf32, #mma> {
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>, tensor<64x64xf32, #mma>
  %w = tilegpu.mma_wait 0 %d : tensor<64x64xf32, #mma>
  tilegpu.mma_wait 1
  tilegpu.fence_async_shared
  %e = tilegpu.mma mma_sync %x, %y, %w {precision = 0 : i32} : tensor<64x32xf32, #mma>, !tilegpu.memdesc<32x64xf32, swizzle = 0>, tensor<64x64xf32, #mma>
  return %e : tensor<64x64xf32, #mma>
}

// The TMA's: a ring's mbarriers, their initialization, a copy by tensor
// map 0 completing mbarrier %j, a wait for a phase of it.
// CHECK-LABEL: func.func @tma
// CHECK-SAME: tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]
// CHECK: %[[B:.*]] = tilegpu.mbarrier_alloc {tilegpu.shared = #tilegpu.shared<offset = 49152, bytes = 32>} : !tilegpu.mbarriers<3>
// CHECK: tilegpu.mbarrier_init %[[B]] : !tilegpu.mbarriers<3>
// CHECK: tilegpu.async_copy %arg0[%arg1, %arg1], %arg2 chained tma(%[[B]][%arg3], 0) : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #blocked>, !tilegpu.mbarriers<3>
// CHECK: tilegpu.mbarrier_wait %[[B]][%arg3], %arg4 tensor_map 0 : !tilegpu.mbarriers<3>
func.func @tma(%v: !tile.view<?x?xbf16>, %i: index, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 128>, %j: i32, %p: i32) attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %b = tilegpu.mbarrier_alloc {tilegpu.shared = #tilegpu.shared<offset = 49152, bytes = 32>} : !tilegpu.mbarriers<3>
  tilegpu.mbarrier_init %b : !tilegpu.mbarriers<3>
  tilegpu.async_copy %v[%i, %i], %s chained tma(%b[%j], 0) : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #a>, !tilegpu.mbarriers<3>
  tilegpu.mbarrier_wait %b[%j], %p tensor_map 0 : !tilegpu.mbarriers<3>
  return
}

// A cluster's: a copy multicast to the cluster's blocks, mbarriers counting
// every block's arrivals, an arrival at each block's, the cluster barrier.
// CHECK-LABEL: func.func @cluster
// CHECK: tilegpu.mbarrier_init %[[E:.*]] count 8 cluster : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.cluster_barrier
// CHECK-NEXT: tilegpu.async_copy %arg0[%arg1, %arg1], %arg2 tma(%{{.*}}[%arg3], 0) multicast : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #blocked>, !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[E]][%arg3] cluster : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.cluster_barrier
func.func @cluster(%v: !tile.view<?x?xbf16>, %i: index, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 128>, %j: i32) attributes {tilegpu.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %b = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
  %e = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
  tilegpu.mbarrier_init %b : !tilegpu.mbarriers<3>
  tilegpu.mbarrier_init %e count 8 cluster : !tilegpu.mbarriers<3>
  tilegpu.cluster_barrier
  tilegpu.async_copy %v[%i, %i], %s tma(%b[%j], 0) multicast : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #a>, !tilegpu.mbarriers<3>
  tilegpu.mbarrier_arrive %e[%j] cluster : !tilegpu.mbarriers<3>
  tilegpu.cluster_barrier
  return
}

// The consumer warpgroups' turns: the start, a turn, the end.
// CHECK-LABEL: func.func @turns
// CHECK: } consumer {
// CHECK-NEXT: tilegpu.turn_pass only_last
// CHECK-NEXT: tilegpu.turn_wait
// CHECK-NEXT: tilegpu.turn_pass
// CHECK-NEXT: tilegpu.turn_wait only_first
func.func @turns() {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    tilegpu.turn_pass only_last
    tilegpu.turn_wait
    tilegpu.turn_pass
    tilegpu.turn_wait only_first
  }
  return
}
