// RUN: tilegym-opt %s --convert-tile-to-linalg --allow-unregistered-dialect | FileCheck %s

// The maps of iota and broadcast, printed ahead of the module.
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// Views become memrefs with dynamic strides and offset; a kernel gets six
// trailing index arguments that replace block_id (x, y, z) and num_blocks.
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME: %{{[^:]*}}: memref<?x128xbf16, strided<[?, ?], offset: ?>>, %{{[^:]*}}: i32,
// CHECK-SAME: %[[BX:[^:]*]]: index, %{{[^:]*}}: index, %[[BZ:[^:]*]]: index,
// CHECK-SAME: %{{[^:]*}}: index, %[[GY:[^:]*]]: index, %{{[^:]*}}: index)
// CHECK-SAME: attributes {tile.grid = @kernel__grid, tile.grid_args, tile.kernel}
// CHECK-NEXT: "test.use"(%[[BX]], %[[BZ]], %[[GY]])
func.func @kernel(%x: !tile.view<?x128xbf16>, %n: i32)
    attributes {tile.kernel, tile.grid = @kernel__grid} {
  %b0 = tile.block_id 0
  %b2 = tile.block_id 2
  %g1 = tile.num_blocks 1
  "test.use"(%b0, %b2, %g1) : (index, index, index) -> ()
  return
}

// A grid function keeps its arguments, views converted.
// CHECK-LABEL: func.func @kernel__grid(
// CHECK-SAME: %[[X:.*]]: memref<?x128xbf16, strided<[?, ?], offset: ?>>, %{{.*}}: i32) -> (index, index, index)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[CD:.*]] = arith.ceildivsi %[[D]], %[[C1]] : index
// CHECK: %[[D2:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[NT:.*]] = arith.ceildivsi %[[D2]], %[[C64]] : index
// CHECK: return %[[CD]], %[[NT]], %[[C1]]
func.func @kernel__grid(%x: !tile.view<?x128xbf16>, %n: i32) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %d = tile.dim %x[0] : !tile.view<?x128xbf16>
  %c = tile.cdiv %d, %c1 : index
  %t = tile.num_tiles %x[0] by 64 : !tile.view<?x128xbf16>
  return %c, %t, %c1 : index, index, index
}

// Argument attributes get an entry for each grid argument.
// CHECK-LABEL: func.func @arg_attrs(
// CHECK-SAME: {test.note}, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %{{[^:]*}}: index)
// CHECK-SAME: attributes {tile.grid_args, tile.kernel}
func.func @arg_attrs(%x: !tile.view<?xf32> {test.note}) attributes {tile.kernel} {
  return
}

// A load fills the tile with the padding and copies the in-bounds window of
// the view into it; the window is [idx * size, idx * size + size) clamped to
// [0, dim] per dim. A store copies the in-bounds part of the tile back.
// CHECK-LABEL: func.func @load_store(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[Y:.*]]: memref<?x64xf32, strided<[?, ?], offset: ?>>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[B0:.*]] = arith.muli %[[I]], %[[C16]] : index
// CHECK: %[[E0:.*]] = arith.addi %[[B0]], %[[C16]] : index
// CHECK: %[[LO0:.*]] = arith.maxsi %[[B0]], %[[C0]] : index
// CHECK: %[[S0:.*]] = arith.minsi %[[LO0]], %[[D0]] : index
// CHECK: %[[HI0:.*]] = arith.maxsi %[[E0]], %[[C0]] : index
// CHECK: %[[T0:.*]] = arith.minsi %[[HI0]], %[[D0]] : index
// CHECK: %[[O0:.*]] = arith.subi %[[S0]], %[[B0]] : index
// CHECK: %[[N0:.*]] = arith.subi %[[T0]], %[[S0]] : index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: arith.muli %[[J]], %[[C32]] : index
// CHECK: %[[O1:.*]] = arith.subi
// CHECK: %[[N1:.*]] = arith.subi
// CHECK: %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<16x32xf32>
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[PAD]] : f32) outs(%[[NEW]] : tensor<16x32xf32>)
// CHECK: %[[WIN:.*]] = memref.subview %[[X]][%[[S0]], %{{.*}}] [%[[N0]], %[[N1]]] [1, 1]
// CHECK: %[[SRC:.*]] = bufferization.to_tensor %[[WIN]] restrict : memref<?x?xf32, strided<[?, ?], offset: ?>> to tensor<?x?xf32>
// CHECK: %[[DST:.*]] = tensor.extract_slice %[[FILL]][%[[O0]], %[[O1]]] [%[[N0]], %[[N1]]] [1, 1]
// CHECK: %[[CP:.*]] = linalg.copy ins(%[[SRC]] : tensor<?x?xf32>) outs(%[[DST]] : tensor<?x?xf32>)
// CHECK: %[[T:.*]] = tensor.insert_slice %[[CP]] into %[[FILL]][%[[O0]], %[[O1]]] [%[[N0]], %[[N1]]] [1, 1]
// Without padding, zero:
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: memref.subview %[[Y]]
// The store:
// CHECK: %[[SO0:.*]] = arith.subi
// CHECK: %[[SN0:.*]] = arith.subi
// CHECK: %[[SO1:.*]] = arith.subi
// CHECK: %[[SN1:.*]] = arith.subi
// CHECK: %[[PART:.*]] = tensor.extract_slice %[[T]][%[[SO0]], %[[SO1]]] [%[[SN0]], %[[SN1]]] [1, 1]
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[PART]] read_only : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[YWIN:.*]] = memref.subview %[[Y]][%{{.*}}, %{{.*}}] [%[[SN0]], %[[SN1]]] [1, 1] : memref<?x64xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: linalg.copy ins(%[[BUF]] : {{.*}}) outs(%[[YWIN]] : {{.*}})
func.func @load_store(%x: !tile.view<?x?xf32>, %y: !tile.view<?x64xf32>, %i: index, %j: index) {
  %t = tile.load %x[%i, %j] {padding = 0xFF800000 : f32} : !tile.view<?x?xf32> -> tensor<16x32xf32>
  %u = tile.load %y[%i, %j] : !tile.view<?x64xf32> -> tensor<16x32xf32>
  tile.store %t, %y[%i, %j] : tensor<16x32xf32>, !tile.view<?x64xf32>
  return
}

// The CPU has no use for an L2 hint: the prefetch is dropped, nothing of it
// is left.
// CHECK-LABEL: func.func @prefetch(
// CHECK-NEXT: return
func.func @prefetch(%x: !tile.view<?x?xf32>, %i: index) {
  tile.prefetch %x[%i, %i] shape [1, 1024] : !tile.view<?x?xf32>
  return
}

// Gather and scatter loop over the tile; an element is accessed only when
// unmasked and in bounds (one unsigned compare per dim catches negatives).
// CHECK-LABEL: func.func @gather_scatter(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[R:[^:]*]]: tensor<8xi32>, %[[C:[^:]*]]: tensor<8xi32>, %[[M:[^:]*]]: tensor<8xi1>, %[[V:[^:]*]]: tensor<8xf32>)
// CHECK: %[[D0:.*]] = memref.dim %[[X]]
// CHECK: %[[D1:.*]] = memref.dim %[[X]]
// CHECK: %[[PAD:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK: %[[G:.*]] = scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEW]]) -> (tensor<8xf32>)
// CHECK:   %[[MK:.*]] = tensor.extract %[[M]][%[[E]]] : tensor<8xi1>
// CHECK:   %[[RI:.*]] = tensor.extract %[[R]][%[[E]]] : tensor<8xi32>
// CHECK:   %[[RX:.*]] = arith.index_cast %[[RI]] : i32 to index
// CHECK:   %[[IN0:.*]] = arith.cmpi ult, %[[RX]], %[[D0]] : index
// CHECK:   %[[OK0:.*]] = arith.andi %[[MK]], %[[IN0]] : i1
// CHECK:   %[[CI:.*]] = tensor.extract %[[C]][%[[E]]] : tensor<8xi32>
// CHECK:   %[[CX:.*]] = arith.index_cast %[[CI]] : i32 to index
// CHECK:   %[[IN1:.*]] = arith.cmpi ult, %[[CX]], %[[D1]] : index
// CHECK:   %[[OK:.*]] = arith.andi %[[OK0]], %[[IN1]] : i1
// CHECK:   %[[EL:.*]] = scf.if %[[OK]] -> (f32) {
// CHECK:     %[[LD:.*]] = memref.load %[[X]][%[[RX]], %[[CX]]]
// CHECK:     scf.yield %[[LD]] : f32
// CHECK:   } else {
// CHECK:     scf.yield %[[PAD]] : f32
// CHECK:   }
// CHECK:   %[[INS:.*]] = tensor.insert %[[EL]] into %[[ACC]][%[[E]]] : tensor<8xf32>
// CHECK:   scf.yield %[[INS]] : tensor<8xf32>
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[RX:.*]] = arith.index_cast
// CHECK:   %[[IN0:.*]] = arith.cmpi ult, %[[RX]]
// CHECK:   %[[CX:.*]] = arith.index_cast
// CHECK:   %[[IN1:.*]] = arith.cmpi ult, %[[CX]]
// CHECK:   %[[OK:.*]] = arith.andi %[[IN0]], %[[IN1]] : i1
// CHECK:   scf.if %[[OK]] {
// CHECK:     %[[EL:.*]] = tensor.extract %[[V]][%[[E]]] : tensor<8xf32>
// CHECK:     memref.store %[[EL]], %[[X]][%[[RX]], %[[CX]]]
// CHECK: return %[[G]]
func.func @gather_scatter(%x: !tile.view<?x?xf32>, %r: tensor<8xi32>, %c: tensor<8xi32>,
                          %m: tensor<8xi1>, %v: tensor<8xf32>) -> tensor<8xf32> {
  %g = tile.gather %x[%r, %c] mask %m {padding = 1.0 : f32}
      : !tile.view<?x?xf32>, [tensor<8xi32>, tensor<8xi32>], tensor<8xi1> -> tensor<8xf32>
  tile.scatter %v, %x[%r, %c] : tensor<8xf32>, !tile.view<?x?xf32>, [tensor<8xi32>, tensor<8xi32>]
  return %g : tensor<8xf32>
}

// CHECK-LABEL: func.func @construction(
// CHECK-SAME: %[[S:.*]]: bf16)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xbf16>
// CHECK: %[[SPLAT:.*]] = linalg.fill ins(%[[S]] : bf16) outs(%[[E]] : tensor<4x8xbf16>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<16xi32>
// CHECK: %[[IOTA:.*]] = linalg.generic {indexing_maps = [#[[ID1]]], iterator_types = ["parallel"]} outs(%[[E2]] : tensor<16xi32>)
// CHECK:   %[[IDX:.*]] = linalg.index 0 : index
// CHECK:   %[[I32:.*]] = arith.index_cast %[[IDX]] : index to i32
// CHECK:   linalg.yield %[[I32]] : i32
// CHECK: return %[[SPLAT]], %[[IOTA]]
func.func @construction(%s: bf16) -> (tensor<4x8xbf16>, tensor<16xi32>) {
  %t = tile.splat %s : tensor<4x8xbf16>
  %i = tile.iota : tensor<16xi32>
  return %t, %i : tensor<4x8xbf16>, tensor<16xi32>
}

// CHECK-LABEL: func.func @shapes(
// CHECK-SAME: %[[T:[^:]*]]: tensor<1x128xf32>, %[[Q:[^:]*]]: tensor<2x3x4xbf16>, %[[V:[^:]*]]: tensor<8xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x128xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[BCAST]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[T]] : tensor<1x128xf32>) outs(%[[E]] : tensor<64x128xf32>)
// CHECK:   ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK:   linalg.yield %[[IN]] : f32
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[Q]] {{\[\[}}0, 1, 2]] : tensor<2x3x4xbf16> into tensor<24xbf16>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [4, 6] : tensor<24xbf16> into tensor<4x6xbf16>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<6x4xbf16>
// CHECK: %[[P:.*]] = linalg.transpose ins(%[[R]] : tensor<4x6xbf16>) outs(%[[E2]] : tensor<6x4xbf16>) permutation = [1, 0]
// CHECK: %[[W:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK: return %[[B]], %[[R]], %[[P]], %[[W]]
func.func @shapes(%t: tensor<1x128xf32>, %q: tensor<2x3x4xbf16>, %v: tensor<8xf32>)
    -> (tensor<64x128xf32>, tensor<4x6xbf16>, tensor<6x4xbf16>, tensor<2x4xf32>) {
  %b = tile.broadcast %t : tensor<1x128xf32> -> tensor<64x128xf32>
  %r = tile.reshape %q : tensor<2x3x4xbf16> -> tensor<4x6xbf16>
  %p = tile.permute %r [1, 0] : tensor<4x6xbf16> -> tensor<6x4xbf16>
  %w = tile.reshape %v : tensor<8xf32> -> tensor<2x4xf32>
  return %b, %r, %p, %w : tensor<64x128xf32>, tensor<4x6xbf16>, tensor<6x4xbf16>, tensor<2x4xf32>
}

// Identities: -inf for max, +inf for min, 0 for sum, 1 for prod, the signed
// extremes for i32, false/true for i1 max/min. Float max/min propagate NaN.
// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: %[[T:[^:]*]]: tensor<4x16xf32>, %[[I:[^:]*]]: tensor<4x8xi32>, %[[M:[^:]*]]: tensor<8xi1>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[MX:.*]] = linalg.reduce ins(%[[T]] : tensor<4x16xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
// CHECK:   arith.maximumf
// CHECK: %[[MXK:.*]] = tensor.expand_shape %[[MX]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[S:.*]] = linalg.reduce ins(%[[T]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// CHECK:   arith.addf
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: %[[MN:.*]] = linalg.reduce ins(%[[T]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<16xf32>) dimensions = [0]
// CHECK:   arith.minimumf
// CHECK: %[[MNK:.*]] = tensor.expand_shape %[[MN]] {{\[\[}}0, 1]] output_shape [1, 16] : tensor<16xf32> into tensor<1x16xf32>
// CHECK: arith.constant -2147483648 : i32
// CHECK: %[[IMAX:.*]] = linalg.reduce ins(%[[I]] : tensor<4x8xi32>) outs(%{{.*}} : tensor<8xi32>) dimensions = [0]
// CHECK:   arith.maxsi
// CHECK: arith.constant true
// CHECK: %[[ALL:.*]] = linalg.reduce ins(%[[M]] : tensor<8xi1>) outs(%{{.*}} : tensor<i1>) dimensions = [0]
// CHECK:   arith.minui
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[P:.*]] = linalg.reduce ins(%[[T]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// CHECK:   arith.mulf
// CHECK: arith.constant 1 : i32
// CHECK: %[[IP:.*]] = linalg.reduce ins(%[[I]] : tensor<4x8xi32>) outs(%{{.*}} : tensor<8xi32>) dimensions = [0]
// CHECK:   arith.muli
// CHECK: return %[[MXK]], %[[S]], %[[MNK]], %[[IMAX]], %[[ALL]], %[[P]], %[[IP]]
func.func @reductions(%t: tensor<4x16xf32>, %i: tensor<4x8xi32>, %m: tensor<8xi1>)
    -> (tensor<4x1xf32>, tensor<4xf32>, tensor<1x16xf32>, tensor<8xi32>, tensor<i1>, tensor<4xf32>, tensor<8xi32>) {
  %mx = tile.reduce max %t {axis = 1 : i64, keep_dims} : tensor<4x16xf32> -> tensor<4x1xf32>
  %s = tile.reduce sum %t {axis = 1 : i64} : tensor<4x16xf32> -> tensor<4xf32>
  %mn = tile.reduce min %t {axis = 0 : i64, keep_dims} : tensor<4x16xf32> -> tensor<1x16xf32>
  %imax = tile.reduce max %i {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  %all = tile.reduce min %m {axis = 0 : i64} : tensor<8xi1> -> tensor<i1>
  %p = tile.reduce prod %t {axis = 1 : i64} : tensor<4x16xf32> -> tensor<4xf32>
  %ip = tile.reduce prod %i {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  return %mx, %s, %mn, %imax, %all, %p, %ip
      : tensor<4x1xf32>, tensor<4xf32>, tensor<1x16xf32>, tensor<8xi32>, tensor<i1>, tensor<4xf32>, tensor<8xi32>
}

// bf16 inputs go to linalg.matmul as they are (it extends them to f32); f32
// inputs at tf32 precision (the default) are rounded first.
// CHECK-LABEL: func.func @dots(
// CHECK-SAME: %[[A:[^:]*]]: tensor<16x8xbf16>, %[[B:[^:]*]]: tensor<8x4xbf16>, %[[ACC:[^:]*]]: tensor<16x4xf32>, %[[X:[^:]*]]: tensor<16x8xf32>, %[[Y:[^:]*]]: tensor<8x4xf32>)
// CHECK: %[[D0:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x8xbf16>, tensor<8x4xbf16>) outs(%[[ACC]] : tensor<16x4xf32>)
// CHECK: %[[D1:.*]] = linalg.matmul ins(%[[X]], %[[Y]] : tensor<16x8xf32>, tensor<8x4xf32>) outs(%[[ACC]] : tensor<16x4xf32>)
// CHECK: %[[RX:.*]] = linalg.map ins(%[[X]] : tensor<16x8xf32>)
// CHECK:   (%[[IN:.*]]: f32, %{{.*}}: f32) {
// CHECK:     %[[BITS:.*]] = arith.bitcast %[[IN]] : f32 to i32
// CHECK:     %[[HALF:.*]] = arith.constant 4096 : i32
// CHECK:     %[[KEEP:.*]] = arith.constant -8192 : i32
// CHECK:     %[[UP:.*]] = arith.addi %[[BITS]], %[[HALF]] : i32
// CHECK:     %[[RND:.*]] = arith.andi %[[UP]], %[[KEEP]] : i32
// CHECK:     %[[F:.*]] = arith.bitcast %[[RND]] : i32 to f32
// CHECK:     %[[NAN:.*]] = arith.cmpf uno, %[[IN]], %[[IN]] : f32
// CHECK:     %[[SEL:.*]] = arith.select %[[NAN]], %[[IN]], %[[F]] : f32
// CHECK:     linalg.yield %[[SEL]] : f32
// CHECK: %[[RY:.*]] = linalg.map ins(%[[Y]] : tensor<8x4xf32>)
// CHECK: %[[D2:.*]] = linalg.matmul ins(%[[RX]], %[[RY]] : tensor<16x8xf32>, tensor<8x4xf32>) outs(%[[ACC]] : tensor<16x4xf32>)
// CHECK: return %[[D0]], %[[D1]], %[[D2]]
func.func @dots(%a: tensor<16x8xbf16>, %b: tensor<8x4xbf16>, %acc: tensor<16x4xf32>,
                %x: tensor<16x8xf32>, %y: tensor<8x4xf32>)
    -> (tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x4xf32>) {
  %0 = tile.dot %a, %b, %acc : tensor<16x8xbf16>, tensor<8x4xbf16>, tensor<16x4xf32>
  %1 = tile.dot %x, %y, %acc {precision = 0 : i32} : tensor<16x8xf32>, tensor<8x4xf32>, tensor<16x4xf32>
  %2 = tile.dot %x, %y, %acc : tensor<16x8xf32>, tensor<8x4xf32>, tensor<16x4xf32>
  return %0, %1, %2 : tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x4xf32>
}

// An item is the tile's one element.
// CHECK-LABEL: func.func @item(
// CHECK-SAME: %[[T:.*]]: tensor<1x1xi32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[X:.*]] = tensor.extract %[[T]][%[[C0]], %[[C0]]] : tensor<1x1xi32>
// CHECK: return %[[X]] : i32
func.func @item(%t: tensor<1x1xi32>) -> i32 {
  %x = tile.item %t : tensor<1x1xi32>
  return %x : i32
}

// A scan: a loop over the lines, and along each an scf.for carrying the
// running value (f32 for bf16) and the tile; exclusive stores the value
// before the element's.
// CHECK-LABEL: func.func @scan(
// CHECK-SAME: %[[T:.*]]: tensor<4x8xbf16>)
// CHECK: %[[ID:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[NEW:.*]] = bufferization.alloc_tensor() : tensor<4x8xbf16>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[NEW]])
// CHECK:   %[[LINE:.*]]:2 = scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PART:.*]] = %[[ID]], %[[TILE:.*]] = %[[ACC]])
// CHECK:     %[[X:.*]] = tensor.extract %[[T]][%[[R]], %[[E]]] : tensor<4x8xbf16>
// CHECK:     %[[W:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:     %[[NEXT:.*]] = arith.addf %[[PART]], %[[W]] : f32
// CHECK:     %[[OUT:.*]] = arith.truncf %[[PART]] : f32 to bf16
// CHECK:     %[[INS:.*]] = tensor.insert %[[OUT]] into %[[TILE]][%[[R]], %[[E]]]
// CHECK:     scf.yield %[[NEXT]], %[[INS]]
// CHECK:   scf.yield %[[LINE]]#1
func.func @scan(%t: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %x = tile.scan sum %t {axis = 1 : i64, exclusive} : tensor<4x8xbf16>
  return %x : tensor<4x8xbf16>
}

// A sort: the bitonic network's stages as two loops (blocks of 2^kk, then
// partners 2^(kk-1-t) apart) around a loop nest over the tile whose pairs
// compare (NaN above numbers) and swap; top-k then slices the first k.
// CHECK-LABEL: func.func @topk(
// CHECK: scf.for %[[KK:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   scf.for %[[T:.*]] = %{{.*}} to %[[KK]] step %{{.*}} iter_args
// CHECK:     arith.xori
// CHECK:     arith.cmpi ugt
// CHECK:     scf.if
// CHECK:       arith.cmpi ne
// CHECK:       arith.cmpf ogt
// CHECK:       arith.cmpf uno
// CHECK:       tensor.insert
// CHECK:       tensor.insert
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 4] [1, 1] : tensor<2x16xf32> to tensor<2x4xf32>
func.func @topk(%t: tensor<2x16xf32>) -> tensor<2x4xf32> {
  %x = tile.sort %t {descending} : tensor<2x16xf32> -> tensor<2x4xf32>
  return %x : tensor<2x4xf32>
}
