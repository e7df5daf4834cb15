// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-persistent --tilegpu-stream-k | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-persistent --tilegpu-stream-k=remarks=true --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
//
// A persistent kernel asking for stream-K (tile.persistent = 2): both sides
// of the split loop over the block's units of work instead of its tiles.
// The schedule, from the launched blocks G, the tiles T and the ring's
// iterations I (hoisted out of the tile loop): cut only where T mod G != 0,
// T > G, I >= 2, G <= the slots (144 SMs x 2 blocks per SM here) and the
// launch is along x alone; then the last T mod G + G tiles are cut, the
// rest run whole (the block's ceil((T - cut - b) / G) of them first). Each
// unit is a tile and a range [kb, ke) of its iterations: the producer's
// fills and the consumers' ring run those (the ring's first-iteration
// tests and its test that it ran follow the new bounds). A cut tile's
// first block (kb = 0) adds the parts of the blocks after it up to the one
// holding its last iteration and alone runs the epilogue; the others store
// their part into their slot.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// CHECK-LABEL: func.func @stream_k(
// CHECK: %[[XY:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.muli %[[XY]], %{{.*}} : index
// CHECK: %[[B:.*]] = tile.block_id 0
// CHECK: %[[G:.*]] = tile.num_blocks 0
// CHECK: tilegpu.warp_specialize
// The producer: the ring's iterations, hoisted.
// CHECK: %[[KT:.*]] = tile.dim %arg0[1]
// CHECK: %[[I:.*]] = arith.ceildivui
// CHECK: %[[REM:.*]] = arith.remui %[[TILES]], %[[G]] : index
// CHECK: tile.num_blocks 2
// CHECK: tile.num_blocks 1
// CHECK: %[[SLOTS:.*]] = arith.cmpi ule, %[[G]], %c288
// CHECK: %[[TWO:.*]] = arith.cmpi uge, %[[I]], %c2
// CHECK: %[[MORE:.*]] = arith.cmpi ugt, %[[TILES]], %[[G]] : index
// CHECK: %[[PARTIAL:.*]] = arith.cmpi ne, %[[REM]], %{{.*}} : index
// CHECK: %[[BOTH:.*]] = arith.andi %[[PARTIAL]], %[[MORE]] : i1
// CHECK-NEXT: %[[SPLIT:.*]] = arith.andi %[[BOTH]], %{{.*}} : i1
// CHECK: %[[WAVE2:.*]] = arith.addi %[[REM]], %[[G]] : index
// CHECK: %[[CUT:.*]] = arith.select %[[SPLIT]], %[[WAVE2]], %{{.*}} : index
// CHECK: %[[DP:.*]] = arith.subi %[[TILES]], %[[CUT]] : index
// CHECK: %[[DPU:.*]] = arith.ceildivui %{{.*}}, %[[G]] : index
// The groups: the most, up to 8, whose fullest (ceil(cut / g) tiles on
// floor(G / g) blocks) gives its blocks no more iterations than one group.
// CHECK: %[[ALL:.*]] = arith.muli %[[CUT]], %[[I]] : index
// CHECK: %[[LEVEL:.*]] = arith.ceildivui %[[ALL]], %{{.*}} : index
// CHECK: %[[FULLEST:.*]] = arith.ceildivui %[[CUT]], %c2{{.*}} : index
// CHECK: %[[FEW:.*]] = arith.divui %[[G]], %c2{{.*}} : index
// CHECK: %[[SOME:.*]] = arith.maxui %[[FEW]], %c1{{.*}} : index
// CHECK-NEXT: %[[FULLI:.*]] = arith.muli %[[FULLEST]], %[[I]] : index
// CHECK-NEXT: %[[LOAD:.*]] = arith.ceildivui %[[FULLI]], %[[SOME]] : index
// CHECK: %[[ENOUGH:.*]] = arith.cmpi uge, %[[G]], %c2{{.*}} : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.cmpi ule, %[[LOAD]], %[[LEVEL]] : index
// CHECK-NEXT: %[[FITS:.*]] = arith.andi %[[ENOUGH]], %[[EVEN]] : i1
// CHECK: arith.select %[[FITS]], %c2{{.*}}, %{{.*}} : index
// CHECK-COUNT-6: arith.andi
// CHECK: %[[GROUPS:.*]] = arith.select %{{.*}}, %c8{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[GROUP:.*]] = arith.remui %[[B]], %[[GROUPS]] : index
// CHECK-NEXT: %[[POS:.*]] = arith.divui %[[B]], %[[GROUPS]] : index
// The group's blocks and cut tiles: those congruent to it.
// CHECK: arith.cmpi ugt, %[[G]], %[[GROUP]] : index
// CHECK: arith.subi %[[G]], %[[GROUP]] : index
// CHECK: arith.cmpi ugt, %[[CUT]], %[[GROUP]] : index
// CHECK: arith.subi %[[CUT]], %[[GROUP]] : index
// CHECK: %[[UNITS:.*]] = arith.addi %[[DPU]], %{{.*}} : index
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %[[UNITS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32) {{[{]}}
// CHECK: %[[PT:.*]] = arith.select %[[PW:.*]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[PKB:.*]] = arith.select %[[PW]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[PKE:.*]] = arith.select %[[PW]], %[[I]], %{{.*}} : index
// CHECK: %[[KBS:.*]] = arith.muli %[[PKB]], %{{.*}} : index
// CHECK-NEXT: %[[FROM:.*]] = arith.addi %[[LO:.*]], %[[KBS]] : index
// CHECK-NEXT: %[[KES:.*]] = arith.muli %[[PKE]], %{{.*}} : index
// CHECK-NEXT: %[[TO:.*]] = arith.addi %[[LO]], %[[KES]] : index
// CHECK: scf.for %{{.*}} = %[[FROM]] to %[[TO]] step
// CHECK: tilegpu.async_copy
// The consumers.
// CHECK: } consumer registers
// CHECK: scf.for %[[CU:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32) {{[{]}}
// CHECK: %[[WHOLE:.*]] = arith.cmpi ult, %[[CU]], %{{.*}} : index
// CHECK: %[[CT:.*]] = arith.select %[[WHOLE]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[KB:.*]] = arith.select %[[WHOLE]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[KE:.*]] = arith.select %[[WHOLE]], %[[CI:.*]], %{{.*}} : index
// CHECK: %[[CKBS:.*]] = arith.muli %[[KB]], %{{.*}} : index
// CHECK-NEXT: %[[CFROM:.*]] = arith.addi %[[CLB:.*]], %[[CKBS]] : index
// CHECK-NEXT: %[[CKES:.*]] = arith.muli %[[KE]], %{{.*}} : index
// CHECK-NEXT: %[[CTO:.*]] = arith.addi %[[CLB]], %[[CKES]] : index
// CHECK: %[[RING:.*]]:3 = scf.for %[[K:.*]] = %[[CFROM]] to %[[CTO]] step
// CHECK: arith.cmpi ne, %[[K]], %[[CFROM]] : index
// CHECK: %[[ACC:.*]] = tilegpu.mma_wait 0 %[[RING]]#0
// CHECK-NEXT: %[[RAN:.*]] = arith.cmpi slt, %[[CFROM]], %[[CTO]] : index
// CHECK-NEXT: scf.if %[[RAN]] {{[{]}}
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[KB]], %{{.*}} : index
// CHECK: %[[KEI:.*]] = arith.cmpi ne, %[[KE]], %[[CI]] : index
// CHECK: %[[KBN:.*]] = arith.cmpi ne, %[[KB]], %{{.*}} : index
// CHECK: %[[ISCUT:.*]] = arith.ori %[[KBN]], %[[KEI]] : i1
// CHECK: %[[SUM:.*]] = scf.if %[[ISCUT]] -> (tensor<64x64xf32, #mma>) {{[{]}}
// CHECK: scf.if %[[OWNER]] -> (tensor<64x64xf32, #mma>) {{[{]}}
// CHECK: %[[PARTS:.*]] = scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[CGROUPS:.*]], %[[P]] : index
// CHECK-NEXT: %[[WRITER:.*]] = arith.addi %[[CGROUP:.*]], %[[STRIDE]] : index
// CHECK-NEXT: tilegpu.partial_accumulate %[[A]], slot %[[WRITER]] of 288
// CHECK: } else {{[{]}}
// CHECK-NEXT: tilegpu.partial_store %[[ACC]], slot %[[B]] of 288
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK: } else {{[{]}}
// CHECK-NEXT: scf.yield %[[ACC]]
// CHECK: scf.if %[[OWNER]] {{[{]}}
// CHECK: tile.store %[[SUM]], %arg2
// CHECK: }
// CHECK-NEXT: gpu.barrier
// The kernel as it was: every tile whole.
// CHECK: } else {{[{]}}
// CHECK-NEXT: scf.for %{{.*}} = %[[B]] to %[[TILES]] step %[[G]] {{[{]}}
// CHECK-NOT: tilegpu.partial
// CHECK: return
// REMARK: remark: stream-K: where the tiles are not a whole number of waves, the last two waves' tiles are cut along K into one equal range of iterations per block, in up to 8 groups of blocks running the same iterations together; a cut tile's first block sums the others' parts (partials of 288 slots, one per block of a launch on up to 144 SMs)

func.func @stream_k__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @stream_k(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @stream_k__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
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
// An accumulator from 1: the sum of the parts would count it once per part.
// CHECK-LABEL: func.func @from_one(
// CHECK-NOT: tilegpu.partial
// CHECK: return
// REMARK: remark: not stream-K: its ring loop carries tiles other than one accumulator from zero that only mmas add to
func.func @from_one__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @from_one(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @from_one__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
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
// Iterations that depend on the tile (a causal mask's): no schedule can be
// computed before the tile loop.
// CHECK-LABEL: func.func @tile_dependent(
// CHECK-NOT: tilegpu.partial
// CHECK: return
// REMARK: remark: not stream-K: its ring loop's iterations depend on the tile
func.func @tile_dependent__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @tile_dependent(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @tile_dependent__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = arith.addi %m, %c1 : index
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
// Not split, so not persistent: nothing to cut.
// CHECK-LABEL: func.func @not_specialized(
// CHECK-NOT: tilegpu.partial
// CHECK: return
// REMARK: remark: not stream-K: it is not persistent (tilegpu-persistent says why)
func.func @not_specialized__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @not_specialized(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @not_specialized__grid, tile.num_warps = 4 : i64, tile.persistent = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
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
// A cluster's blocks share the tiles both load: they must run the same
// iterations.
// CHECK-LABEL: func.func @clustered(
// CHECK-NOT: tilegpu.partial
// CHECK: return
// REMARK: remark: not stream-K: its blocks share tiles in clusters, which must run the same iterations
func.func @clustered__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @clustered(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @clustered__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 2 : i64, tilegpu.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
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


