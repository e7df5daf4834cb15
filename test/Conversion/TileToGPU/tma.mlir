// RUN: tilegym-opt %s --tilegpu-assign-layouts=chip=sm_90a --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=chip=sm_90a --tilegpu-legalize-dots --tilegpu-assign-tma --tilegpu-pipeline=chip=sm_90a --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | FileCheck %s
// RUN: tilegym-opt %s --tilegpu-assign-layouts=chip=sm_90a --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=chip=sm_90a --tilegpu-legalize-dots --tilegpu-assign-tma --tilegpu-pipeline=chip=sm_90a --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | tilegym-opt --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm,llvm.func(tilegym-mark-tensor-map-params)))' | FileCheck %s --check-prefix=PARAMS
//
// Matmul on sm_90a with both operands on the TMA. The kernel takes one
// tensor map per operand after its views (A: 128 x 64 boxes, B: 64 x 64,
// two a stage), and tests once, as the launch does, whether each view is
// addressable by the TMA: base 16-byte aligned, no empty dimension,
// innermost stride 1, the others positive multiples of 8 bf16 spanning the
// dimension inside. Thread 0
// initializes each ring's mbarriers (one arrival a phase) and fences them
// for the async proxy. A copy, where the map is active, is thread 0's: the
// stage's bytes announced to its mbarrier, then one bulk tensor copy per
// 128-byte column block, at the block's element coordinates innermost
// first; where it is not, the threads' cp.async copies. Each thread waits
// for the phase of the stage it reads, where the map is active. The
// result, a dot's, is the TMA's to store (tensor map 2, 4 column blocks of
// 32 f32): where C's map is active, after a barrier every thread writes its
// accumulator pairs into the 128-byte swizzled scratch (offset 0, reusing
// the rings' bytes: 64 KiB), fences them for the async proxy, and after a
// barrier thread 0 stores each column block with a bulk tensor copy, then
// waits until they have read the scratch; where it is not, the threads
// store from registers.


// CHECK-LABEL: gpu.func @mm(
// CHECK-SAME: %arg21: !llvm.ptr, %arg22: !llvm.ptr, %arg23: !llvm.ptr) kernel
// CHECK-SAME: tile.dynamic_shared_bytes = 65568
// CHECK-SAME: tilegpu.tensor_map_params = array<i32: 21, 22, 23>, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [128, 32]>]
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: %[[EXTENT:.*]] = arith.muli
// CHECK-NEXT: arith.cmpi sge, %{{.*}}, %[[EXTENT]] : index
// CHECK-NEXT: arith.andi
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 8 : index
// CHECK-NEXT: arith.remui
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// CHECK: arith.remui
// CHECK: arith.cmpi sge
// CHECK-NEXT: %[[ACTIVE_B:.*]] = arith.andi
// CHECK: scf.if
// CHECK: "mbarrier.init.shared::cta.b64 [$0], 1;"
// CHECK: "mbarrier.init.shared::cta.b64 [$0], 1;"
// CHECK-NEXT: "fence.mbarrier_init.release.cluster;"
// CHECK: gpu.barrier
// CHECK: "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r" %{{.*}}, %c16384_i32
// CHECK: "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "r,l,r,r,r" %{{.*}}, %arg21,
// CHECK: } else {
// CHECK: nvvm.cp.async.shared.global
// CHECK: "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r" %{{.*}}, %c16384_i32
// CHECK: "cp.async.bulk.tensor.2d.{{.*}}", "r,l,r,r,r" %{{.*}}, %arg22,
// CHECK: %[[SECOND:.*]] = arith.addi %{{.*}}, %c8192_i32 : i32
// CHECK: arith.constant 64 : index
// CHECK: "cp.async.bulk.tensor.2d.{{.*}}", "r,l,r,r,r" %[[SECOND]], %arg22,
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group
// CHECK: scf.if
// CHECK-NEXT: "{\0A.reg .pred done;\0Await_phase:\0Ambarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A@!done bra wait_phase;\0A}", "r,r"
// CHECK: scf.if %[[ACTIVE_B]] {
// CHECK-NEXT: "{\0A.reg .pred done;
// CHECK: nvvm.fence.proxy
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK: llvm.mlir.addressof @mm__smem
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$2, $3}], [$1];", "l,r,r,r" %arg23,
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;"
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.bulk.wait_group.read 0;"
// CHECK: } else {
// CHECK: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr<1>
// PARAMS: llvm.func @mm(
// PARAMS-SAME: %arg21: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg22: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %arg23: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
func.func @mm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

