// RUN: tilegym-opt %s | FileCheck %s
// Round trip through the generic form too: the printer's output must parse
// back to the same IR.
// RUN: tilegym-opt %s --mlir-print-op-generic | tilegym-opt | FileCheck %s

// CHECK-LABEL: func @grid_queries
func.func @grid_queries(%x: !tile.view<?x?xf32>) -> (index, index, index, index, index) {
  // CHECK: tile.block_id 0
  %b = tile.block_id 0
  // CHECK: tile.num_blocks 2
  %n = tile.num_blocks 2
  // CHECK: tile.dim %{{.*}}[1] : !tile.view<?x?xf32>
  %d = tile.dim %x[1] : !tile.view<?x?xf32>
  // CHECK: tile.cdiv %{{.*}}, %{{.*}} : index
  %c = tile.cdiv %d, %b : index
  // CHECK: tile.num_tiles %{{.*}}[0] by 128 : !tile.view<?x?xf32>
  %t = tile.num_tiles %x[0] by 128 : !tile.view<?x?xf32>
  return %b, %n, %d, %c, %t : index, index, index, index, index
}

// CHECK-LABEL: func @construction
func.func @construction(%s: f32) -> (tensor<4x8xf32>, tensor<16xi32>) {
  // CHECK: tile.splat %{{.*}} : tensor<4x8xf32>
  %t = tile.splat %s : tensor<4x8xf32>
  // CHECK: tile.iota : tensor<16xi32>
  %i = tile.iota : tensor<16xi32>
  return %t, %i : tensor<4x8xf32>, tensor<16xi32>
}

// CHECK-LABEL: func @memory
func.func @memory(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %i: index, %j: index) {
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x?xbf16> -> tensor<16x32xbf16>
  %t = tile.load %x[%i, %j] : !tile.view<?x?xbf16> -> tensor<16x32xbf16>
  // CHECK: tile.load %{{.*}} {padding = 0xFF80 : bf16} : !tile.view<?x?xbf16> -> tensor<1x64xbf16>
  %u = tile.load %x[%i, %j] {padding = 0xFF80 : bf16} : !tile.view<?x?xbf16> -> tensor<1x64xbf16>
  // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<16x32xbf16>, !tile.view<?x?xbf16>
  tile.store %t, %y[%i, %j] : tensor<16x32xbf16>, !tile.view<?x?xbf16>
  // CHECK: tile.prefetch %{{.*}}[%{{.*}}, %{{.*}}] shape [1, 4096] : !tile.view<?x?xbf16>
  tile.prefetch %x[%i, %j] shape [1, 4096] : !tile.view<?x?xbf16>
  return
}

// CHECK-LABEL: func @element_access
func.func @element_access(%x: !tile.view<?x?xf32>, %r: tensor<8x8xi32>, %c: tensor<8x8xi32>, %m: tensor<8x8xi1>) {
  // CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} {padding = 1.000000e+00 : f32} : !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1> -> tensor<8x8xf32>
  %g = tile.gather %x[%r, %c] mask %m {padding = 1.0 : f32} : !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1> -> tensor<8x8xf32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] : !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>] -> tensor<8x8xf32>
  %h = tile.gather %x[%r, %c] : !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>] -> tensor<8x8xf32>
  // CHECK: tile.scatter %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1>
  tile.scatter %g, %x[%r, %c] mask %m : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1>
  // CHECK: tile.scatter %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>]
  tile.scatter %h, %x[%r, %c] : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>]
  return
}

// CHECK-LABEL: func @atomics
func.func @atomics(%x: !tile.view<?x?xf32>, %l: !tile.view<?xi32>, %r: tensor<8x8xi32>, %c: tensor<8x8xi32>, %m: tensor<8x8xi1>, %v: tensor<8x8xf32>, %i: tensor<4xi32>, %k: tensor<4xi32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<4xi32>) {
  // CHECK: tile.atomic_rmw add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1>
  %a = tile.atomic_rmw add %v, %x[%r, %c] mask %m : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>], tensor<8x8xi1>
  // CHECK: tile.atomic_rmw max
  %b = tile.atomic_rmw max %a, %x[%r, %c] : tensor<8x8xf32>, !tile.view<?x?xf32>, [tensor<8x8xi32>, tensor<8x8xi32>]
  // CHECK: tile.atomic_rmw min
  %d = tile.atomic_rmw min %i, %l[%i] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  // CHECK: tile.atomic_rmw xchg
  %e = tile.atomic_rmw xchg %d, %l[%i] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  // CHECK: tile.atomic_cas %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  %f = tile.atomic_cas %e, %k, %l[%i] : tensor<4xi32>, !tile.view<?xi32>, [tensor<4xi32>]
  return %a, %b, %f : tensor<8x8xf32>, tensor<8x8xf32>, tensor<4xi32>
}

// CHECK-LABEL: func @scan
func.func @scan(%t: tensor<4x256xf32>, %u: tensor<8xi32>) -> (tensor<4x256xf32>, tensor<8xi32>) {
  // CHECK: tile.scan sum %{{.*}} {axis = 1 : i64, exclusive} : tensor<4x256xf32>
  %a = tile.scan sum %t {axis = 1 : i64, exclusive} : tensor<4x256xf32>
  // CHECK: tile.scan max %{{.*}} {axis = 0 : i64} : tensor<8xi32>
  %b = tile.scan max %u {axis = 0 : i64} : tensor<8xi32>
  return %a, %b : tensor<4x256xf32>, tensor<8xi32>
}

// CHECK-LABEL: func @sort
func.func @sort(%t: tensor<4x256xf32>) -> (tensor<4x256xf32>, tensor<4x8xf32>) {
  // CHECK: tile.sort %{{.*}} : tensor<4x256xf32> -> tensor<4x256xf32>
  %a = tile.sort %t : tensor<4x256xf32> -> tensor<4x256xf32>
  // CHECK: tile.sort %{{.*}} {descending} : tensor<4x256xf32> -> tensor<4x8xf32>
  %b = tile.sort %t {descending} : tensor<4x256xf32> -> tensor<4x8xf32>
  // CHECK: tile.sort %{{.*}} {descending, indices} : tensor<4x256xf32> -> tensor<4x8xi32>
  %c = tile.sort %t {descending, indices} : tensor<4x256xf32> -> tensor<4x8xi32>
  return %a, %b : tensor<4x256xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func @item
func.func @item(%t: tensor<1x1xi32>, %u: tensor<f32>) -> (i32, f32) {
  // CHECK: tile.item %{{.*}} : tensor<1x1xi32>
  %a = tile.item %t : tensor<1x1xi32>
  // CHECK: tile.item %{{.*}} : tensor<f32>
  %b = tile.item %u : tensor<f32>
  return %a, %b : i32, f32
}

// CHECK-LABEL: func @shapes
func.func @shapes(%t: tensor<1x128xf32>, %q: tensor<1x1x64x128xbf16>) -> (tensor<64x128xf32>, tensor<128x64xbf16>) {
  // CHECK: tile.broadcast %{{.*}} : tensor<1x128xf32> -> tensor<64x128xf32>
  %b = tile.broadcast %t : tensor<1x128xf32> -> tensor<64x128xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
  %r = tile.reshape %q : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
  // CHECK: tile.permute %{{.*}} [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
  %p = tile.permute %r [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
  return %b, %p : tensor<64x128xf32>, tensor<128x64xbf16>
}

// CHECK-LABEL: func @reductions
func.func @reductions(%t: tensor<4x1024xf32>, %i: tensor<4x8xi32>) -> (tensor<4x1xf32>, tensor<4xf32>, tensor<8xi32>) {
  // CHECK: tile.reduce max %{{.*}} {axis = 1 : i64, keep_dims} : tensor<4x1024xf32> -> tensor<4x1xf32>
  %m = tile.reduce max %t {axis = 1 : i64, keep_dims} : tensor<4x1024xf32> -> tensor<4x1xf32>
  // CHECK: tile.reduce sum %{{.*}} {axis = 1 : i64} : tensor<4x1024xf32> -> tensor<4xf32>
  %s = tile.reduce sum %t {axis = 1 : i64} : tensor<4x1024xf32> -> tensor<4xf32>
  // CHECK: tile.reduce min %{{.*}} {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  %n = tile.reduce min %i {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  // CHECK: tile.reduce prod %{{.*}} {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  %pr = tile.reduce prod %i {axis = 0 : i64} : tensor<4x8xi32> -> tensor<8xi32>
  return %m, %s, %n : tensor<4x1xf32>, tensor<4xf32>, tensor<8xi32>
}

// CHECK-LABEL: func @dots
func.func @dots(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %acc: tensor<64x16xf32>,
                %h: tensor<64x32xf16>, %g: tensor<32x16xf16>,
                %x: tensor<64x32xf32>, %y: tensor<32x16xf32>) -> (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
  %0 = tile.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16>, tensor<32x16xf16>, tensor<64x16xf32>
  %1 = tile.dot %h, %g, %acc : tensor<64x32xf16>, tensor<32x16xf16>, tensor<64x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
  %2 = tile.dot %x, %y, %acc : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {precision = 0 : i32} : tensor<64x32xf32>
  %3 = tile.dot %x, %y, %acc {precision = 0 : i32} : tensor<64x32xf32>, tensor<32x16xf32>, tensor<64x16xf32>
  return %0, %1, %2, %3 : tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>
}

// Elementwise math is upstream arith/math on tiles, and loops are scf.
// CHECK-LABEL: func @elementwise_and_loops
func.func @elementwise_and_loops(%a: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<8x8xf32> {
    // CHECK: math.exp %{{.*}} : tensor<8x8xf32>
    %e = math.exp %acc : tensor<8x8xf32>
    %s = arith.addf %e, %a : tensor<8x8xf32>
    %c = arith.cmpf olt, %s, %a : tensor<8x8xf32>
    // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x8xi1>, tensor<8x8xf32>
    %w = arith.select %c, %s, %a : tensor<8x8xi1>, tensor<8x8xf32>
    scf.yield %w : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// The element types beyond the 16- and 32-bit ones: fp8 (e4m3fn, e5m2),
// i8, i64 and f64 in views and tiles, an fp8 dot accumulating in f32.
// CHECK-LABEL: func.func @wide_and_narrow_types
// CHECK-SAME: !tile.view<?x?xf8E4M3FN>, %{{.*}}: !tile.view<?xf8E5M2>, %{{.*}}: !tile.view<?xi8>, %{{.*}}: !tile.view<?xi64>, %{{.*}}: !tile.view<?xf64>
func.func @wide_and_narrow_types(%a: !tile.view<?x?xf8E4M3FN>, %b: !tile.view<?xf8E5M2>,
                                 %c: !tile.view<?xi8>, %d: !tile.view<?xi64>,
                                 %e: !tile.view<?xf64>) {
  %c0 = arith.constant 0 : index
  // CHECK: tile.load %{{.*}} : !tile.view<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN>
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<16x32xf8E4M3FN>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %tt = tile.permute %t [1, 0] : tensor<16x32xf8E4M3FN> -> tensor<32x16xf8E4M3FN>
  // CHECK: tile.dot %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>, tensor<16x16xf32>
  %p = tile.dot %t, %tt, %acc : tensor<16x32xf8E4M3FN>, tensor<32x16xf8E4M3FN>, tensor<16x16xf32>
  // CHECK: tile.load %{{.*}} {padding = 1.000000e+00 : f8E5M2} : !tile.view<?xf8E5M2> -> tensor<64xf8E5M2>
  %u = tile.load %b[%c0] {padding = 1.0 : f8E5M2} : !tile.view<?xf8E5M2> -> tensor<64xf8E5M2>
  // CHECK: tile.reduce sum %{{.*}} {axis = 0 : i64} : tensor<64xi8> -> tensor<i8>
  %v = tile.load %c[%c0] {padding = -128 : i8} : !tile.view<?xi8> -> tensor<64xi8>
  %vs = tile.reduce sum %v {axis = 0 : i64} : tensor<64xi8> -> tensor<i8>
  // CHECK: tile.store %{{.*}} : tensor<64xi64>, !tile.view<?xi64>
  %w = tile.load %d[%c0] : !tile.view<?xi64> -> tensor<64xi64>
  tile.store %w, %d[%c0] : tensor<64xi64>, !tile.view<?xi64>
  // CHECK: tile.store %{{.*}} : tensor<64xf64>, !tile.view<?xf64>
  %x = tile.load %e[%c0] : !tile.view<?xf64> -> tensor<64xf64>
  tile.store %x, %e[%c0] : tensor<64xf64>, !tile.view<?xf64>
  return
}
