// RUN: tilegym-opt %s --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-allocate-shared-memory --convert-tile-to-gpu=chip=sm_90a | FileCheck %s
//
// A warp-specialized kernel lowered: the block has the producers' warpgroup
// too (256 threads); thread 0 initializes the full mbarriers for one
// arrival and the empty ones for the 128 consumer threads; warps from 4 on
// give registers back (setmaxnreg.dec 24) and only their first thread
// (128) runs the producer's loop, its TMA copies without the cp.async
// fallback; the other warps take 232 registers; their barriers count only
// them (barrier 1 of 128 threads), and each releases a stage with
// mbarrier.arrive.

// CHECK-LABEL: gpu.func @specialized
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME: tilegpu.producer_warps = 4 : i64
// CHECK: mbarrier.init.shared::cta.b64 [$0], 1;
// CHECK: mbarrier.init.shared::cta.b64 [$0], 128;
// CHECK: gpu.barrier
// CHECK: %[[P:.*]] = arith.cmpi uge, %{{.*}}, %c4{{.*}} : index
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: nvvm.setmaxregister {{ *}}decrease 24
// CHECK: arith.cmpi eq, %thread_id_x, %c128{{.*}} : index
// CHECK: scf.for
// CHECK: mbarrier.try_wait.parity
// CHECK: mbarrier.arrive.expect_tx
// CHECK: cp.async.bulk.tensor.2d
// CHECK-NOT: cp.async.cg
// CHECK: } {tilegpu.warp_role = "producer"}
// CHECK: nvvm.setmaxregister {{ *}}increase 232
// CHECK-NOT: gpu.barrier
// CHECK: mbarrier.arrive.shared::cta.b64 _, [$0];
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: } {tilegpu.warp_role = "consumer"}
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

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
