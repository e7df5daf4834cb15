// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// f32 exp through ex2.approx; division through div.full.
// CHECK-LABEL: gpu.func @exp_div
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK-NOT: llvm.nvvm.div.full
// CHECK: gpu.return
func.func @exp_div(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %e = math.exp %t : tensor<128xf32>
  %d = arith.divf %t, %e : tensor<128xf32>
  tile.store %d, %y[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

// Dividing by a broadcast row sum: one div.full for the reciprocal, then a
// multiply per element.
// CHECK-LABEL: gpu.func @div_by_row_sum
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.div.full"(%[[ONE]], %{{.*}})
// CHECK-NOT: llvm.nvvm.div.full
// CHECK-COUNT-4: arith.mulf %{{.*}}, %[[R]]
func.func @div_by_row_sum(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x128xf32>
  %s = tile.reduce sum %t {axis = 1, keep_dims} : tensor<1x128xf32> -> tensor<1x1xf32>
  %b = tile.broadcast %s : tensor<1x1xf32> -> tensor<1x128xf32>
  %d = arith.divf %t, %b : tensor<1x128xf32>
  tile.store %d, %y[%i, %c0] : tensor<1x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// f32 -> bf16 by pairs (cvt.rn.bf16x2.f32 in the PTX): 8 per thread, 4 pairs,
// each an nvvm op (a vector fptrunc would be split again by LLVM where the
// halves are used apart); the first element is the low half, src_lo.
// CHECK-LABEL: gpu.func @narrow
// CHECK: %[[A:.*]] = llvm.extractelement %[[V:.*]][%[[I0:.*]] : i32] : vector<4xf32>
// CHECK: %[[B:.*]] = llvm.extractelement %[[V]][%{{.*}} : i32] : vector<4xf32>
// CHECK: nvvm.convert.f32x2.to.bf16x2 %[[B]], %[[A]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-COUNT-3: nvvm.convert.f32x2.to.bf16x2 %{{.*}}, %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-NOT: nvvm.convert.f32x2
// CHECK-NOT: llvm.fptrunc
// CHECK-NOT: arith.truncf
// CHECK: gpu.return
func.func @narrow(%x: !tile.view<?xf32>, %y: !tile.view<?xbf16>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %n = arith.truncf %t : tensor<256xf32> to tensor<256xbf16>
  tile.store %n, %y[%i] : tensor<256xbf16>, !tile.view<?xbf16>
  return
}

// -----

// Values ready at once (not loaded) combine as a balanced tree.
// CHECK-LABEL: gpu.func @ready_max
// CHECK: %[[A:.*]] = arith.sitofp
// CHECK: %[[B:.*]] = arith.sitofp
// CHECK: %[[C:.*]] = arith.sitofp
// CHECK: %[[D:.*]] = arith.sitofp
// CHECK: %[[AB:.*]] = arith.maximumf %[[A]], %[[B]]
// CHECK: %[[CD:.*]] = arith.maximumf %[[C]], %[[D]]
// CHECK: %[[ALL:.*]] = arith.maximumf %[[AB]], %[[CD]]
// CHECK: gpu.shuffle xor %[[ALL]]
func.func @ready_max(%y: !tile.view<?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %t = tile.iota : tensor<128xi32>
  %f = arith.sitofp %t : tensor<128xi32> to tensor<128xf32>
  %s = tile.reduce max %f {axis = 0, keep_dims} : tensor<128xf32> -> tensor<1xf32>
  tile.store %s, %y[%i] : tensor<1xf32>, !tile.view<?xf32>
  return
}

// -----

// A thread combines its own elements as a chain in load order (so it can
// start on the first run while later ones are in flight), then across lanes.
// CHECK-LABEL: gpu.func @row_max
// CHECK: %[[A:.*]] = llvm.extractelement
// CHECK: %[[B:.*]] = llvm.extractelement
// CHECK: %[[C:.*]] = llvm.extractelement
// CHECK: %[[D:.*]] = llvm.extractelement
// CHECK: %[[AB:.*]] = arith.maximumf %[[A]], %[[B]]
// CHECK: %[[ABC:.*]] = arith.maximumf %[[AB]], %[[C]]
// CHECK: %[[ALL:.*]] = arith.maximumf %[[ABC]], %[[D]]
// CHECK: gpu.shuffle xor %[[ALL]]
func.func @row_max(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x128xf32>
  %s = tile.reduce max %t {axis = 1, keep_dims} : tensor<1x128xf32> -> tensor<1x1xf32>
  tile.store %s, %y[%i, %c0] : tensor<1x1xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A product reduction combines by multiplying, within the thread and
// across lanes (the shuffles), as a sum adds.
// CHECK-LABEL: gpu.func @prod_rows
// CHECK: arith.mulf
// CHECK: gpu.shuffle  xor
// CHECK: arith.mulf
// CHECK-NOT: arith.addf
// CHECK: gpu.return
func.func @prod_rows(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x128xf32>
  %p = tile.reduce prod %t {axis = 1, keep_dims} : tensor<1x128xf32> -> tensor<1x1xf32>
  tile.store %p, %y[%i, %c0] : tensor<1x1xf32>, !tile.view<?x?xf32>
  return
}
