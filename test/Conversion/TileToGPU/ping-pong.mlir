// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a --verify-diagnostics | FileCheck %s
//
// The consumer warpgroups' turns lowered: warpgroup g = warp / 4 waits at
// named barrier 2 + g (256 threads: its own 128 and the 128 passing to
// it); passing arrives at 2 + (g + 1) % n without waiting. `only_last`
// passes from the last warpgroup alone, `only_first` waits in warpgroup 0
// alone. Barriers 0 and 1 stay the block's and the consumers'.

// CHECK-LABEL: gpu.func @turns
// CHECK: } {tilegpu.warp_role = "producer"}
// The start: the last warpgroup (1 of 2) passes to warpgroup 0.
// CHECK: %[[G0:.*]] = arith.divui %{{.*}}, %c4{{.*}} : index
// CHECK: %[[GI0:.*]] = arith.index_cast %[[G0]] : index to i32
// CHECK: %[[LAST0:.*]] = arith.cmpi eq, %[[GI0]], %c1_i32{{.*}} : i32
// CHECK-NEXT: scf.if %[[LAST0]] {
// CHECK: %[[NEXT0:.*]] = arith.select %[[LAST0]], %c0_i32{{.*}}, %{{.*}} : i32
// CHECK: %[[ID0:.*]] = arith.addi %[[NEXT0]], %c2_i32{{.*}} : i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[ID0]] number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK-NEXT: }
// A turn: wait at its own barrier, pass to the next.
// CHECK: %[[GI1:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[ID1:.*]] = arith.addi %[[GI1]], %c2_i32{{.*}} : i32
// CHECK: nvvm.barrier id = %[[ID1]] number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK-NOT: scf.if
// The end: warpgroup 0 takes the last turn passed.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK: } {tilegpu.warp_role = "consumer"}
func.func @turns() attributes {tile.kernel, tile.num_warps = 8 : i64} {
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

// -----

func.func @one_warpgroup() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  tilegpu.warp_specialize producer warps 1 {
    %p = arith.constant 0 : index
  } consumer {
    // expected-error @+1 {{needs two or more whole consumer warpgroups (at most 14), the kernel has 4 consumer warps}}
    tilegpu.turn_wait
  }
  return
}
