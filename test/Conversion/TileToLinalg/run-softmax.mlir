// End to end: row softmax of rows shorter than the tile, then the same rows
// with an online softmax over tiles narrower than the rows (loops carrying
// tiles). The loads pad with -inf, so padded columns add exp(-inf) = 0 to the
// row sums; the stores leave the columns and rows past the view untouched.
// (See run-vector-add.mlir for why the verifier is off while parsing.)
// RUN: tilegym-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=0 \
// RUN:     --tilegym-cpu-pipeline \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// Row 0 is all 0; row 1 is 0, 0, 0, -inf, -inf; row 2 is all 1000 (it
// overflows unless the row max is subtracted). Row 3 and column 5 are
// outside the view.
// One tile per row:
// CHECK: data =
// CHECK-NEXT: [0.2,   0.2,   0.2,   0.2,   0.2,   -1],
// CHECK-NEXT: [0.333333,   0.333333,   0.333333,   0,   0,   -1],
// CHECK-NEXT: [0.2,   0.2,   0.2,   0.2,   0.2,   -1],
// CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1]]
// Online:
// CHECK: data =
// CHECK-NEXT: [0.2,   0.2,   0.2,   0.2,   0.2,   -1],
// CHECK-NEXT: [0.333333,   0.333333,   0.333333,   0,   0,   -1],
// CHECK-NEXT: [0.2,   0.2,   0.2,   0.2,   0.2,   -1],
// CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1]]

func.func @softmax(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    attributes {tile.kernel, tile.grid = @softmax__grid} {
  %row = tile.block_id 0
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] {padding = 0xFF800000 : f32}
      : !tile.view<?x?xf32> -> tensor<1x8xf32>
  %m = tile.reduce max %t {axis = 1 : i64, keep_dims}
      : tensor<1x8xf32> -> tensor<1x1xf32>
  %mb = tile.broadcast %m : tensor<1x1xf32> -> tensor<1x8xf32>
  %d = arith.subf %t, %mb : tensor<1x8xf32>
  %e = math.exp %d : tensor<1x8xf32>
  %s = tile.reduce sum %e {axis = 1 : i64} : tensor<1x8xf32> -> tensor<1xf32>
  %s2 = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s2 : tensor<1x1xf32> -> tensor<1x8xf32>
  %r = arith.divf %e, %sb : tensor<1x8xf32>
  tile.store %r, %y[%row, %c0] : tensor<1x8xf32>, !tile.view<?x?xf32>
  return
}

func.func @softmax__grid(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %rows = tile.dim %x[0] : !tile.view<?x?xf32>
  return %rows, %c1, %c1 : index, index, index
}

// Online softmax over 1x2 tiles: the first loop carries the running max and
// the rescaled running sum, the second writes exp(x - max) / sum.
func.func @softmax_online(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>)
    attributes {tile.kernel} {
  %row = tile.block_id 0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m0 = tile.splat %ninf : tensor<1x1xf32>
  %l0 = tile.splat %zero : tensor<1x1xf32>
  %n = tile.num_tiles %x[1] by 2 : !tile.view<?x?xf32>
  %m, %l = scf.for %k = %c0 to %n step %c1 iter_args(%m_i = %m0, %l_i = %l0)
      -> (tensor<1x1xf32>, tensor<1x1xf32>) {
    %t = tile.load %x[%row, %k] {padding = 0xFF800000 : f32}
        : !tile.view<?x?xf32> -> tensor<1x2xf32>
    %tm = tile.reduce max %t {axis = 1 : i64, keep_dims} : tensor<1x2xf32> -> tensor<1x1xf32>
    %m_new = arith.maximumf %m_i, %tm : tensor<1x1xf32>
    %mb = tile.broadcast %m_new : tensor<1x1xf32> -> tensor<1x2xf32>
    %d = arith.subf %t, %mb : tensor<1x2xf32>
    %e = math.exp %d : tensor<1x2xf32>
    %s = tile.reduce sum %e {axis = 1 : i64, keep_dims} : tensor<1x2xf32> -> tensor<1x1xf32>
    // A row of -inf so far keeps scale exp(-inf - -inf) = NaN away: l is 0.
    %dm = arith.subf %m_i, %m_new : tensor<1x1xf32>
    %scale = math.exp %dm : tensor<1x1xf32>
    %nan = arith.cmpf uno, %scale, %scale : tensor<1x1xf32>
    %zeros = tile.splat %zero : tensor<1x1xf32>
    %safe = arith.select %nan, %zeros, %scale : tensor<1x1xi1>, tensor<1x1xf32>
    %ls = arith.mulf %l_i, %safe : tensor<1x1xf32>
    %l_new = arith.addf %ls, %s : tensor<1x1xf32>
    scf.yield %m_new, %l_new : tensor<1x1xf32>, tensor<1x1xf32>
  }
  %mb = tile.broadcast %m : tensor<1x1xf32> -> tensor<1x2xf32>
  %lb = tile.broadcast %l : tensor<1x1xf32> -> tensor<1x2xf32>
  scf.for %k = %c0 to %n step %c1 {
    %t = tile.load %x[%row, %k] {padding = 0xFF800000 : f32}
        : !tile.view<?x?xf32> -> tensor<1x2xf32>
    %d = arith.subf %t, %mb : tensor<1x2xf32>
    %e = math.exp %d : tensor<1x2xf32>
    %r = arith.divf %e, %lb : tensor<1x2xf32>
    tile.store %r, %y[%row, %k] : tensor<1x2xf32>, !tile.view<?x?xf32>
  }
  return
}

!view = memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 1000.0 : f32
  %x = memref.alloc() : memref<4x6xf32>
  %y = memref.alloc() : memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<4x6xf32>)
  linalg.fill ins(%minus1 : f32) outs(%y : memref<4x6xf32>)
  memref.store %ninf, %x[%c1, %c3] : memref<4x6xf32>
  memref.store %ninf, %x[%c1, %c4] : memref<4x6xf32>
  %x2 = memref.subview %x[2, 0] [1, 6] [1, 1] : memref<4x6xf32> to memref<6xf32, strided<[1], offset: 12>>
  linalg.fill ins(%big : f32) outs(%x2 : memref<6xf32, strided<[1], offset: 12>>)
  %xs = memref.subview %x[0, 0] [3, 5] [1, 1] : memref<4x6xf32> to memref<3x5xf32, strided<[6, 1]>>
  %ys = memref.subview %y[0, 0] [3, 5] [1, 1] : memref<4x6xf32> to memref<3x5xf32, strided<[6, 1]>>
  %xv = memref.cast %xs : memref<3x5xf32, strided<[6, 1]>> to !view
  %yv = memref.cast %ys : memref<3x5xf32, strided<[6, 1]>> to !view
  %g:3 = func.call @softmax__grid(%xv, %yv) : (!view, !view) -> (index, index, index)
  scf.for %b = %c0 to %g#0 step %c1 {
    func.call @softmax(%xv, %yv, %b, %c0, %c0, %g#0, %g#1, %g#2)
        : (!view, !view, index, index, index, index, index, index) -> ()
  }
  %p = memref.cast %y : memref<4x6xf32> to memref<*xf32>
  func.call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  linalg.fill ins(%minus1 : f32) outs(%y : memref<4x6xf32>)
  scf.for %b = %c0 to %g#0 step %c1 {
    func.call @softmax_online(%xv, %yv, %b, %c0, %c0, %g#0, %g#1, %g#2)
        : (!view, !view, index, index, index, index, index, index) -> ()
  }
  func.call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  return
}
