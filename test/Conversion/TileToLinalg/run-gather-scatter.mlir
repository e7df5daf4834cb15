// End to end: gather and scatter with masks and out-of-bounds coordinates
// (negative and past the end) on both sides. (See run-vector-add.mlir for
// why the verifier is off while parsing.)
// RUN: tilegym-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=0 \
// RUN:     --tilegym-cpu-pipeline \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// x = 10..15 (a view of 6 in a buffer of 8 holding 16, 17 past it). Gather
// at 7 - i, masked off at i = 3, padding -5:
// CHECK: data =
// CHECK-NEXT: [-5,  -5,  15,  -5,  13,  12,  11,  10]
// Scatter of that at 2i - 3 (-3, -1, 1, 3, 5, 7, 9, 11), masked off at i = 5,
// into a view of 8 in a buffer of 10 of -1: only y[1], y[3], y[5] change.
// CHECK: data =
// CHECK-NEXT: [-1,  15,  -1,  -5,  -1,  13,  -1,  -1,  -1,  -1]

func.func @gather_scatter(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %z: !tile.view<?xf32>)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %i = tile.iota : tensor<8xi32>
  %c7 = arith.constant dense<7> : tensor<8xi32>
  %c3 = arith.constant dense<3> : tensor<8xi32>
  %c5 = arith.constant dense<5> : tensor<8xi32>
  %c2 = arith.constant dense<2> : tensor<8xi32>
  %rev = arith.subi %c7, %i : tensor<8xi32>
  %m = arith.cmpi ne, %i, %c3 : tensor<8xi32>
  %g = tile.gather %x[%rev] mask %m {padding = -5.0 : f32}
      : !tile.view<?xf32>, [tensor<8xi32>], tensor<8xi1> -> tensor<8xf32>
  tile.store %g, %z[%c0] : tensor<8xf32>, !tile.view<?xf32>
  %twice = arith.muli %i, %c2 : tensor<8xi32>
  %at = arith.subi %twice, %c3 : tensor<8xi32>
  %m2 = arith.cmpi ne, %i, %c5 : tensor<8xi32>
  tile.scatter %g, %y[%at] mask %m2
      : tensor<8xf32>, !tile.view<?xf32>, [tensor<8xi32>], tensor<8xi1>
  return
}

!view = memref<?xf32, strided<[?], offset: ?>>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %minus1 = arith.constant -1.0 : f32
  %ten = arith.constant 10.0 : f32
  %x = memref.alloc() : memref<8xf32>
  %y = memref.alloc() : memref<10xf32>
  %z = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %v = arith.addf %f, %ten : f32
    memref.store %v, %x[%i] : memref<8xf32>
  }
  linalg.fill ins(%minus1 : f32) outs(%y : memref<10xf32>)
  %xs = memref.subview %x[0] [6] [1] : memref<8xf32> to memref<6xf32, strided<[1]>>
  %ys = memref.subview %y[0] [8] [1] : memref<10xf32> to memref<8xf32, strided<[1]>>
  %xv = memref.cast %xs : memref<6xf32, strided<[1]>> to !view
  %yv = memref.cast %ys : memref<8xf32, strided<[1]>> to !view
  %zv = memref.cast %z : memref<8xf32> to !view
  func.call @gather_scatter(%xv, %yv, %zv, %c0, %c0, %c0, %c1, %c1, %c1)
      : (!view, !view, !view, index, index, index, index, index, index) -> ()
  %pz = memref.cast %z : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%pz) : (memref<*xf32>) -> ()
  %py = memref.cast %y : memref<10xf32> to memref<*xf32>
  func.call @printMemrefF32(%py) : (memref<*xf32>) -> ()
  return
}
