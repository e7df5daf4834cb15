// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-persistent | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-persistent=remarks=true --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
//
// A warp-specialized kernel asking to be persistent (tile.persistent = 1):
// its grid recomputed from its grid function before the split, the launched
// block's index and count; both sides, and the kernel as it was, loop over
// the tiles from that index by that count, each tile's coordinates walking
// groups of 8 rows column by column, the user's block_id and num_blocks
// replaced by the tile's and the grid's. The producer's fills carry their
// count from tile to tile (from 0), its loop shifted back by the 2
// iterations it filled ahead; the consumers carry their stage and phase
// (from 0), without the fills before their loop and the waits after it,
// release the last stage after the mma_wait 0, and meet at a barrier after
// the epilogue. The kernel gets tilegpu.persistent = its blocks per SM.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @persistent(
// CHECK-SAME: tilegpu.persistent = 2 : i64
// CHECK: %[[OK:.*]] = arith.andi
// CHECK: %[[N:.*]] = tile.dim %arg2[1]
// CHECK: %[[M:.*]] = tile.dim %arg2[0]
// CHECK: %[[GX:.*]] = tile.cdiv %[[N]]
// CHECK: %[[GY:.*]] = tile.cdiv %[[M]]
// CHECK: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[TILES:.*]] = arith.muli %[[XY]], %{{.*}} : index
// CHECK: %[[B:.*]] = tile.block_id 0
// CHECK: %[[NB:.*]] = tile.num_blocks 0
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: tilegpu.warp_specialize producer warps 4 registers 24 {{[{]}}
// CHECK-NEXT: scf.if %[[OK]] {{[{]}}
// CHECK-NEXT: scf.for %[[T:.*]] = %[[B]] to %[[TILES]] step %[[NB]] iter_args(%[[F0:.*]] = %[[ZERO]]) -> (i32) {{[{]}}
// The tile's row: in a group of 8 rows, walked column by column.
// CHECK: %[[PLANE:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK: %[[R:.*]] = arith.remui %[[T]], %[[PLANE]] : index
// CHECK: %[[INGROUP:.*]] = arith.muli %[[GX]], %c8
// CHECK: %[[GROUP:.*]] = arith.divui %[[R]], %[[INGROUP]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %c8
// CHECK: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]] : index
// CHECK: %[[ROWS:.*]] = arith.minui %[[LEFT]], %c8
// CHECK: %[[W:.*]] = arith.remui %[[R]], %[[INGROUP]] : index
// CHECK: %[[WR:.*]] = arith.remui %[[W]], %[[ROWS]] : index
// CHECK: %[[Y:.*]] = arith.addi %[[FIRST]], %[[WR]] : index
// CHECK: %[[X:.*]] = arith.divui %[[W]], %[[ROWS]] : index
// CHECK: %[[KT:.*]] = tile.dim %arg0[1]
// CHECK: %[[AHEAD:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[LO:.*]] = arith.subi %{{.*}}, %[[AHEAD]] : index
// CHECK: %[[HI:.*]] = arith.subi %[[KT]], %[[AHEAD]] : index
// CHECK: %[[FILLS:.*]] = scf.for %[[K:.*]] = %[[LO]] to %[[HI]] step %{{.*}} iter_args(%[[F:.*]] = %[[F0]]) -> (i32) {{[{]}}
// CHECK: tilegpu.mbarrier_wait
// CHECK: %[[K2:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK: tilegpu.async_copy %arg0[%[[Y]], %[[K2]]]
// CHECK: tilegpu.async_copy %arg1[%[[X]], %[[K2]]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[FILLS]] : i32
// CHECK: } consumer registers 232 {{[{]}}
// CHECK-NEXT: scf.if %[[OK]] {{[{]}}
// CHECK-NEXT: scf.for %[[CT:.*]] = %[[B]] to %[[TILES]] step %[[NB]] iter_args(%[[S0:.*]] = %[[ZERO]], %[[P0:.*]] = %[[ZERO]]) -> (i32, i32) {{[{]}}
// CHECK-NOT: tilegpu.async_copy
// CHECK: %[[CY:.*]] = arith.addi
// CHECK: %[[CX:.*]] = arith.divui
// CHECK-NOT: tilegpu.async_copy
// CHECK: %[[CKT:.*]] = tile.dim %arg0[1]
// CHECK-NOT: tilegpu.async_copy
// CHECK: %[[RING:.*]]:3 = scf.for %{{.*}} = %[[CLB:[^ ]*]] to %[[CKT]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[S0]], %{{.*}} = %[[P0]])
// CHECK: tilegpu.mbarrier_arrive
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[ACC:.*]] = tilegpu.mma_wait 0 %[[RING]]#0
// CHECK-NEXT: %[[RAN:.*]] = arith.cmpi slt, %[[CLB]], %[[CKT]] : index
// CHECK-NEXT: scf.if %[[RAN]] {{[{]}}
// CHECK: %[[LAST:.*]] = arith.addi %[[RING]]#1, %{{.*}} : i32
// CHECK: %[[LS:.*]] = arith.remui %[[LAST]], %{{.*}} : i32
// CHECK-NEXT: tilegpu.mbarrier_arrive %{{.*}}[%[[LS]]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %{{.*}}[%[[LS]]]
// CHECK-NEXT: }
// The user's num_blocks(1) is the grid's rows.
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[CY]], %[[GY]] : index
// CHECK-NEXT: tile.store %[[ACC]], %arg2[%[[ROW]], %[[CX]]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield %[[RING]]#1, %[[RING]]#2 : i32, i32
// The kernel as it was: every copy on cp.async, the TMA's waits gone (its
// mbarriers' phases would not restart each tile where some map is active).
// CHECK: } else {{[{]}}
// CHECK-NEXT: scf.for %{{.*}} = %[[B]] to %[[TILES]] step %[[NB]] {{[{]}}
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tilegpu.async_copy %arg0[%{{.*}}, %{{.*}}], %{{.*}} : !tile.view
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tilegpu.async_wait 2
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: tile.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
// CHECK-NOT: tile.block_id 1
// CHECK: return
// REMARK: remark: persistent: 2 block(s) per SM, each running the grid's tiles in turn (groups of 8 rows, column by column); the producer fills the next tile's stages while the consumers store this one's (53248 bytes of shared memory: the epilogue's apart from the rings)

func.func @persistent__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @persistent(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @persistent__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%n, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%n, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%n, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  %gy = tile.num_blocks 1
  %row = arith.addi %m, %gy : index
  tile.store %r#0, %vc[%row, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A tile copied once per tile before the ring loop (attention's Q, a
// one-stage ring): its wait's parity is carried by the tile loop, flipped
// each tile; its copy stays the consumers' (on the TMA: both sides run
// only where every map is active, Q's too, so no cp.async group).
// CHECK-LABEL: func.func @once(
// CHECK-SAME: tilegpu.persistent = 2 : i64
// CHECK: } consumer registers
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[Z:[^,]*]], %{{.*}} = %[[Z]], %[[ONCE:.*]] = %[[Z]]) -> (i32, i32, i32) {{[{]}}
// CHECK: tilegpu.async_copy %arg0
// CHECK-NOT: tilegpu.async_commit_group
// CHECK: tilegpu.mbarrier_wait %{{.*}}[%{{.*}}], %[[ONCE]] tensor_map 0
// CHECK: scf.for
// CHECK: tile.store
// CHECK-NEXT: gpu.barrier
// CHECK: %[[FLIP:.*]] = arith.xori %[[ONCE]], %{{.*}} : i32
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %[[FLIP]] : i32, i32, i32
func.func @once__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[0] : !tile.view<?x?xf32>
  return %n, %c1, %c1 : index, index, index
}
func.func @once(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @once__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = tile.block_id 0
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%i, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Registers for two blocks per SM (tile.min_blocks_per_sm = 2), but rings
// of 192 KiB: the SM's shared memory holds one such block, so a launch
// runs one per SM (a second would wait for the first's whole list of
// tiles).
// CHECK-LABEL: func.func @shared_bound(
// CHECK-SAME: tile.min_blocks_per_sm = 2 : i64
// CHECK-SAME: tilegpu.persistent = 1 : i64
// REMARK: remark: persistent: 1 block(s) per SM
func.func @shared_bound__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[0] : !tile.view<?x?xf32>
  return %n, %c1, %c1 : index, index, index
}
func.func @shared_bound(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @shared_bound__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i = tile.block_id 0
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<256x64xbf16, #a>
  %a1 = tile.load %va[%i, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
  %b1 = tile.load %vb[%c1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<256x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x256xbf16, #a>, tensor<256x64xbf16, #a>, tensor<64x256xbf16, #a>, tensor<256x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%i, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
    %bn = tile.load %vb[%k2, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<256x64xbf16, #a>
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x256xbf16, #a>, tensor<256x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x256xbf16, #a>, tensor<256x64xbf16, #a>, tensor<64x256xbf16, #a>, tensor<256x64xbf16, #a>
  }
  tile.store %r#0, %vc[%i, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Asked for without warp specialization: left alone, the remark says why.
// CHECK-LABEL: func.func @not_specialized(
// CHECK-NOT: tilegpu.persistent
// CHECK: tile.block_id 0
// REMARK: remark: not persistent: it is not warp-specialized (specialize(1)), whose producer runs into the next tile
func.func @not_specialized__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  return %c1, %c1, %c1 : index, index, index
}
func.func @not_specialized(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @not_specialized__grid, tile.num_warps = 4 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = tile.block_id 0
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a = tile.load %va[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%i, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [8, 1]>

// A 128x256 f32 accumulator stored through the TMA: its 128 KiB of
// scratch and the 144 KiB of rings do not fit a block apart, so it stays a
// block per tile (warp-specialized still).
// CHECK-LABEL: func.func @too_large(
// CHECK-NOT: tilegpu.persistent
// CHECK: tilegpu.warp_specialize
// REMARK: remark: not persistent: its rings and its epilogue's scratch, apart, need about 282624 bytes of shared memory, more than the 232448 a block has
func.func @too_large__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  return %c1, %c1, %c1 : index, index, index
}
func.func @too_large(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @too_large__grid, tile.num_warps = 8 : i64, tile.specialize = 1 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [128, 32]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x256xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
  %a1 = tile.load %va[%c0, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
  %b1 = tile.load %vb[%c1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<128x256xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x256xbf16, #a>, tensor<128x64xbf16, #a>, tensor<64x256xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%c0, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<128x64xbf16, #a>
    %bn = tile.load %vb[%k2, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x256xbf16, #a>
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #a>, tensor<64x256xbf16, #a>, tensor<128x256xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<128x256xf32, #mma>, tensor<128x64xbf16, #a>, tensor<64x256xbf16, #a>, tensor<128x64xbf16, #a>, tensor<64x256xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] {tilegpu.tma = 2 : i64} : tensor<128x256xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// A split not of the form tilegpu-warp-specialize builds (written by hand):
// left alone, the remark says why.
// CHECK-LABEL: func.func @hand_split(
// CHECK-NOT: scf.for
// REMARK: remark: not persistent: its warp_specialize is not of the form tilegpu-warp-specialize builds
func.func @hand_split__grid() -> (index, index, index) {
  %c1 = arith.constant 1 : index
  return %c1, %c1, %c1 : index, index, index
}
func.func @hand_split() attributes {tile.kernel, tile.grid = @hand_split__grid, tile.num_warps = 4 : i64, tile.persistent = 1 : i64, tile.min_blocks_per_sm = 1 : i64} {
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 232 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// A kernel that does not ask is left alone, and says nothing.
// CHECK-LABEL: func.func @not_asked(
// CHECK-NOT: scf.for
// REMARK-NOT: remark: {{.*}}persistent
func.func @not_asked__grid() -> (index, index, index) {
  %c1 = arith.constant 1 : index
  return %c1, %c1, %c1 : index, index, index
}
func.func @not_asked() attributes {tile.kernel, tile.grid = @not_asked__grid, tile.num_warps = 4 : i64, tile.min_blocks_per_sm = 1 : i64} {
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 232 {
    %c = arith.constant 0 : index
  }
  return
}
