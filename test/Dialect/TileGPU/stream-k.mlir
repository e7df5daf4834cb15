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
// CHECK-NEXT: %[[GY:.*]] = tile.num_blocks 1
// CHECK-NEXT: %[[GZ:.*]] = tile.num_blocks 2
// CHECK: %[[FY:.*]] = arith.cmpi eq, %[[GY]], %c1{{.*}} : index
// CHECK: %[[FZ:.*]] = arith.cmpi eq, %[[GZ]], %c1{{.*}} : index
// CHECK-NEXT: %[[ALONGX:.*]] = arith.andi %[[FY]], %[[FZ]] : i1
// CHECK: %[[PARTIAL:.*]] = arith.cmpi ne, %[[REM]], %c0{{.*}} : index
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ugt, %[[TILES]], %[[G]] : index
// CHECK: %[[TWO:.*]] = arith.cmpi uge, %[[I]], %c2{{.*}} : index
// CHECK: %[[SLOTS:.*]] = arith.cmpi ule, %[[G]], %c288 : index
// CHECK-NEXT: %[[S1:.*]] = arith.andi %[[PARTIAL]], %[[MORE]] : i1
// CHECK-NEXT: %[[S2:.*]] = arith.andi %[[S1]], %[[TWO]] : i1
// CHECK-NEXT: %[[S3:.*]] = arith.andi %[[S2]], %[[SLOTS]] : i1
// CHECK-NEXT: %[[SPLIT:.*]] = arith.andi %[[S3]], %[[ALONGX]] : i1
// CHECK-NEXT: %[[WAVE2:.*]] = arith.addi %[[REM]], %[[G]] : index
// CHECK: %[[CUT:.*]] = arith.select %[[SPLIT]], %[[WAVE2]], %c0{{.*}} : index
// CHECK-NEXT: %[[DP:.*]] = arith.subi %[[TILES]], %[[CUT]] : index
// CHECK-NEXT: %[[AHEAD:.*]] = arith.subi %[[DP]], %[[B]] : index
// CHECK: %[[LEFT:.*]] = arith.maxsi %[[AHEAD]], %c0{{.*}} : index
// CHECK-NEXT: %[[DPU:.*]] = arith.ceildivui %[[LEFT]], %[[G]] : index
// The groups: the most, up to 8, that divide both the blocks and the cut
// tiles, only where tiles are cut (one group otherwise).
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[BL2:.*]] = arith.remui %[[G]], %c2{{.*}} : index
// CHECK: %[[TL2:.*]] = arith.remui %[[CUT]], %c2{{.*}} : index
// CHECK: %[[BE2:.*]] = arith.cmpi eq, %[[BL2]], %c0{{.*}} : index
// CHECK: %[[TE2:.*]] = arith.cmpi eq, %[[TL2]], %c0{{.*}} : index
// CHECK-NEXT: %[[D2:.*]] = arith.andi %[[BE2]], %[[TE2]] : i1
// CHECK-NEXT: %[[U2:.*]] = arith.andi %[[SPLIT]], %[[D2]] : i1
// CHECK: %[[G2:.*]] = arith.select %[[U2]], %c2{{.*}}, %[[ONE]] : index
// CHECK: %[[BL3:.*]] = arith.remui %[[G]], %c3{{.*}} : index
// CHECK: %[[TL3:.*]] = arith.remui %[[CUT]], %c3{{.*}} : index
// CHECK: %[[U3:.*]] = arith.andi %[[SPLIT]], %{{.*}} : i1
// CHECK: %[[G3:.*]] = arith.select %[[U3]], %c3{{.*}}, %[[G2]] : index
// CHECK: arith.remui %[[CUT]], %c4{{.*}} : index
// CHECK: %[[G4:.*]] = arith.select %{{.*}}, %c4{{.*}}, %[[G3]] : index
// CHECK: arith.remui %[[CUT]], %c5{{.*}} : index
// CHECK: %[[G5:.*]] = arith.select %{{.*}}, %c5{{.*}}, %[[G4]] : index
// CHECK: arith.remui %[[CUT]], %c6{{.*}} : index
// CHECK: %[[G6:.*]] = arith.select %{{.*}}, %c6{{.*}}, %[[G5]] : index
// CHECK: arith.remui %[[CUT]], %c7{{.*}} : index
// CHECK: %[[G7:.*]] = arith.select %{{.*}}, %c7{{.*}}, %[[G6]] : index
// CHECK: %[[BL8:.*]] = arith.remui %[[G]], %c8{{.*}} : index
// CHECK: %[[TL8:.*]] = arith.remui %[[CUT]], %c8{{.*}} : index
// CHECK: %[[BE8:.*]] = arith.cmpi eq, %[[BL8]], %c0{{.*}} : index
// CHECK: %[[TE8:.*]] = arith.cmpi eq, %[[TL8]], %c0{{.*}} : index
// CHECK-NEXT: %[[D8:.*]] = arith.andi %[[BE8]], %[[TE8]] : i1
// CHECK-NEXT: %[[U8:.*]] = arith.andi %[[SPLIT]], %[[D8]] : i1
// CHECK: %[[GROUPS:.*]] = arith.select %[[U8]], %c8{{.*}}, %[[G7]] : index
// CHECK-NEXT: %[[GROUP:.*]] = arith.remui %[[B]], %[[GROUPS]] : index
// CHECK-NEXT: %[[POS:.*]] = arith.divui %[[B]], %[[GROUPS]] : index
// Every group alike: G / g blocks and cut / g tiles, whose iterations are
// cut into one range [lo, hi) per position, base or base + 1 long.
// CHECK-NEXT: %[[GB:.*]] = arith.divui %[[G]], %[[GROUPS]] : index
// CHECK-NEXT: %[[GT:.*]] = arith.divui %[[CUT]], %[[GROUPS]] : index
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[GT]], %[[I]] : index
// CHECK-NEXT: %[[BASE:.*]] = arith.divui %[[TOTAL]], %[[GB]] : index
// CHECK-NEXT: %[[EXTRA:.*]] = arith.remui %[[TOTAL]], %[[GB]] : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.muli %[[POS]], %[[BASE]] : index
// CHECK-NEXT: %[[BEFORE:.*]] = arith.minui %[[POS]], %[[EXTRA]] : index
// CHECK-NEXT: %[[RLO:.*]] = arith.addi %[[EVEN]], %[[BEFORE]] : index
// CHECK-NEXT: %[[GETS:.*]] = arith.cmpi ult, %[[POS]], %[[EXTRA]] : index
// CHECK: %[[EXTRAONE:.*]] = arith.select %[[GETS]], %c1{{.*}}, %c0{{.*}} : index
// CHECK-NEXT: %[[LOBASE:.*]] = arith.addi %[[RLO]], %[[BASE]] : index
// CHECK-NEXT: %[[RHI:.*]] = arith.addi %[[LOBASE]], %[[EXTRAONE]] : index
// The units: the whole tiles, then the tiles the range [lo, hi) meets.
// CHECK: %[[IORONE:.*]] = arith.maxui %[[I]], %c1{{.*}} : index
// CHECK: %[[RLAST:.*]] = arith.subi %[[RHI]], %c1{{.*}} : index
// CHECK-NEXT: %[[LASTT:.*]] = arith.divui %[[RLAST]], %[[IORONE]] : index
// CHECK-NEXT: %[[FIRSTT:.*]] = arith.divui %[[RLO]], %[[IORONE]] : index
// CHECK-NEXT: %[[MET:.*]] = arith.subi %[[LASTT]], %[[FIRSTT]] : index
// CHECK: %[[METALL:.*]] = arith.addi %[[MET]], %c1{{.*}} : index
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi ugt, %[[RHI]], %[[RLO]] : index
// CHECK: %[[SKU:.*]] = arith.select %[[HAS]], %[[METALL]], %c0{{.*}} : index
// CHECK-NEXT: %[[UNITS:.*]] = arith.addi %[[DPU]], %[[SKU]] : index
// CHECK: scf.for %[[U:.*]] = %{{.*}} to %[[UNITS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32) {{[{]}}
// A unit past the whole tiles: the (u - whole units)-th of the group's tiles
// from the first the range meets, at index group + groups x that among the
// cut tiles.
// CHECK: %[[J:.*]] = arith.subi %[[U]], %[[DPU]] : index
// CHECK-NEXT: %[[GTILE:.*]] = arith.addi %[[FIRSTT]], %[[J]] : index
// CHECK-NEXT: %[[GSTRIDE:.*]] = arith.muli %[[GROUPS]], %[[GTILE]] : index
// CHECK-NEXT: %[[CUTIDX:.*]] = arith.addi %[[GROUP]], %[[GSTRIDE]] : index
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
// CHECK: %[[CGROUP:.*]] = arith.remui %[[B]], %[[CGROUPS:.*]] : index
// CHECK-NEXT: %[[CPOS:.*]] = arith.divui %[[B]], %[[CGROUPS]] : index
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
// CHECK-NEXT: %[[KBN:.*]] = arith.cmpi ne, %[[KB]], %{{.*}} : index
// CHECK-NEXT: %[[KEI:.*]] = arith.cmpi ne, %[[KE]], %[[CI]] : index
// CHECK-NEXT: %[[ISCUT:.*]] = arith.ori %[[KBN]], %[[KEI]] : i1
// CHECK: %[[SUM:.*]] = scf.if %[[ISCUT]] -> (tensor<64x64xf32, #mma>) {{[{]}}
// CHECK: scf.if %[[OWNER]] -> (tensor<64x64xf32, #mma>) {{[{]}}
// The parts of the later positions of the block's group, from the next one
// to the one holding the tile's last iteration, each at its writer's slot.
// CHECK: %[[NEXTPOS:.*]] = arith.addi %[[CPOS]], %c1{{.*}} : index
// CHECK-NEXT: %[[PASTLAST:.*]] = arith.addi %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: %[[PARTS:.*]] = scf.for %[[P:.*]] = %[[NEXTPOS]] to %[[PASTLAST]] step %{{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[CGROUPS]], %[[P]] : index
// CHECK-NEXT: %[[WRITER:.*]] = arith.addi %[[CGROUP]], %[[STRIDE]] : index
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
// REMARK: remark: stream-K: where the tiles are not a whole number of waves, the last two waves' tiles are cut along K into one equal range of iterations per block, in the most groups up to 8 dividing both the blocks and the cut tiles, whose blocks run the same iterations together; a cut tile's first block sums the others' parts (partials of 288 slots, one per block of a launch on up to 144 SMs)

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


