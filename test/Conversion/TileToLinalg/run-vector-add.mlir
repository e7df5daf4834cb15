// End to end: a vector add whose length is not a multiple of the tile, over
// a strided view, lowered with the CPU pipeline and run with mlir-runner.
// `main` calls the kernel with its lowered signature (views as memrefs, then
// the six grid arguments), so the input only verifies once the kernel is
// converted: hence the verifier is off while parsing and between passes
// (tile-strip-debug runs before the conversion).
// RUN: tilegym-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=0 \
// RUN:     --tilegym-cpu-pipeline \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// Grid 3 covers n = 10 with tiles of 4: c[j] = a[j] + b[1 + 2j] = j + 50 (1 + 2j)
// for j < 10; the sentinels c[10..13] stay -1.
// CHECK: data =
// CHECK-NEXT: [50, 151, 252, 353, 454, 555, 656, 757, 858, 959, -1, -1, -1, -1]

func.func @vadd(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %c: !tile.view<?xf32>)
    attributes {tile.kernel, tile.grid = @vadd__grid} {
  %i = tile.block_id 0
  %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<4xf32>
  %y = tile.load %b[%i] : !tile.view<?xf32> -> tensor<4xf32>
  %z = arith.addf %x, %y : tensor<4xf32>
  tile.store %z, %c[%i] : tensor<4xf32>, !tile.view<?xf32>
  return
}

func.func @vadd__grid(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>, %c: !tile.view<?xf32>)
    -> (index, index, index) {
  %c1 = arith.constant 1 : index
  %n = tile.num_tiles %a[0] by 4 : !tile.view<?xf32>
  return %n, %c1, %c1 : index, index, index
}

!view = memref<?xf32, strided<[?], offset: ?>>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

// The pipeline's buffer deallocation frees the buffers.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c14 = arith.constant 14 : index
  %c20 = arith.constant 20 : index
  %minus1 = arith.constant -1.0 : f32
  %a = memref.alloc() : memref<14xf32>
  %b = memref.alloc() : memref<20xf32>
  %c = memref.alloc() : memref<14xf32>
  // a[i] = i, b[i] = 50 i, c[i] = -1.
  scf.for %i = %c0 to %c20 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %c50 = arith.constant 50.0 : f32
    %fb = arith.mulf %f, %c50 : f32
    memref.store %fb, %b[%i] : memref<20xf32>
    %small = arith.cmpi ult, %i, %c14 : index
    scf.if %small {
      memref.store %f, %a[%i] : memref<14xf32>
      memref.store %minus1, %c[%i] : memref<14xf32>
    }
  }
  %av = memref.subview %a[0] [10] [1] : memref<14xf32> to memref<10xf32, strided<[1]>>
  %bv = memref.subview %b[1] [10] [2] : memref<20xf32> to memref<10xf32, strided<[2], offset: 1>>
  %cv = memref.subview %c[0] [10] [1] : memref<14xf32> to memref<10xf32, strided<[1]>>
  %a1 = memref.cast %av : memref<10xf32, strided<[1]>> to !view
  %b1 = memref.cast %bv : memref<10xf32, strided<[2], offset: 1>> to !view
  %c1v = memref.cast %cv : memref<10xf32, strided<[1]>> to !view
  %g:3 = func.call @vadd__grid(%a1, %b1, %c1v) : (!view, !view, !view) -> (index, index, index)
  scf.for %x = %c0 to %g#0 step %c1 {
    func.call @vadd(%a1, %b1, %c1v, %x, %c0, %c0, %g#0, %g#1, %g#2)
        : (!view, !view, !view, index, index, index, index, index, index) -> ()
  }
  // Blocks past the grid, or at a negative index, touch nothing.
  %c7 = arith.constant 7 : index
  %cm1 = arith.constant -1 : index
  func.call @vadd(%a1, %b1, %c1v, %c7, %c0, %c0, %g#0, %g#1, %g#2)
      : (!view, !view, !view, index, index, index, index, index, index) -> ()
  func.call @vadd(%a1, %b1, %c1v, %cm1, %c0, %c0, %g#0, %g#1, %g#2)
      : (!view, !view, !view, index, index, index, index, index, index) -> ()
  %p = memref.cast %c : memref<14xf32> to memref<*xf32>
  func.call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  return
}
