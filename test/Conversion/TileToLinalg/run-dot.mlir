// End to end: tiled matmuls C = A @ B with M, N, K (5, 6, 7) not multiples
// of the 4x4 tiles, f32 accumulation over K tiles in an scf.for; f32 inputs
// at ieee precision, bf16 inputs, and f32 inputs rounded to tf32. (See
// run-vector-add.mlir for why the verifier is off while parsing.)
// RUN: tilegym-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=0 \
// RUN:     --tilegym-cpu-pipeline \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// A[i][k] = i + k, B[k][j] = k - j: exact in bf16 too. C is the top-left
// 5x6 of a 6x7 buffer of -1.
// CHECK-LABEL: f32 ieee
// CHECK: data =
// CHECK-NEXT: [91,   70,   49,   28,   7,   -14,   -1],
// CHECK-NEXT: [112,   84,   56,   28,   0,   -28,   -1],
// CHECK-NEXT: [133,   98,   63,   28,   -7,   -42,   -1],
// CHECK-NEXT: [154,   112,   70,   28,   -14,   -56,   -1],
// CHECK-NEXT: [175,   126,   77,   28,   -21,   -70,   -1],
// CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1,   -1]]
// CHECK-LABEL: bf16
// CHECK: data =
// CHECK-NEXT: [91,   70,   49,   28,   7,   -14,   -1],
// CHECK-NEXT: [112,   84,   56,   28,   0,   -28,   -1],
// CHECK-NEXT: [133,   98,   63,   28,   -7,   -42,   -1],
// CHECK-NEXT: [154,   112,   70,   28,   -14,   -56,   -1],
// CHECK-NEXT: [175,   126,   77,   28,   -21,   -70,   -1],
// CHECK-NEXT: [-1,   -1,   -1,   -1,   -1,   -1,   -1]]

// With A = 1 + 2^-11 + 2^-12 and B = I, ieee keeps A (1.00073) and tf32
// rounds it to nearest, 1 + 2^-10 (1.00098); C = A @ B = A.
// CHECK-LABEL: ieee vs tf32
// CHECK: data =
// CHECK-NEXT: [1.00073,   1.00073,   1.00073,   1.00073],
// CHECK: data =
// CHECK-NEXT: [1.00098,   1.00098,   1.00098,   1.00098],

!fview = memref<?x?xf32, strided<[?, ?], offset: ?>>
!bview = memref<?x?xbf16, strided<[?, ?], offset: ?>>

func.func @mm_f32(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>)
    attributes {tile.kernel} {
  %i = tile.block_id 0
  %j = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<4x4xf32>
  %kt = tile.num_tiles %a[1] by 4 : !tile.view<?x?xf32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %acc0) -> tensor<4x4xf32> {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xf32> -> tensor<4x4xf32>
    %tb = tile.load %b[%k, %j] : !tile.view<?x?xf32> -> tensor<4x4xf32>
    %r = tile.dot %ta, %tb, %acc {precision = 0 : i32}
        : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
    scf.yield %r : tensor<4x4xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<4x4xf32>, !tile.view<?x?xf32>
  return
}

func.func @mm_bf16(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>)
    attributes {tile.kernel} {
  %i = tile.block_id 0
  %j = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.splat %zero : tensor<4x4xf32>
  %kt = tile.num_tiles %a[1] by 4 : !tile.view<?x?xbf16>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %acc0) -> tensor<4x4xf32> {
    %ta = tile.load %a[%i, %k] : !tile.view<?x?xbf16> -> tensor<4x4xbf16>
    %tb = tile.load %b[%k, %j] : !tile.view<?x?xbf16> -> tensor<4x4xbf16>
    %r = tile.dot %ta, %tb, %acc : tensor<4x4xbf16>, tensor<4x4xbf16>, tensor<4x4xf32>
    scf.yield %r : tensor<4x4xf32>
  }
  tile.store %acc, %c[%i, %j] : tensor<4x4xf32>, !tile.view<?x?xf32>
  return
}

// One 4x4 tile, default (tf32) precision.
func.func @mm_tf32(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  %tc = tile.load %c[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  %r = tile.dot %ta, %tb, %tc : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
  tile.store %r, %c[%c0, %c0] : tensor<4x4xf32>, !tile.view<?x?xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printString(!llvm.ptr)
llvm.mlir.global internal constant @ieee("f32 ieee\0A\00")
llvm.mlir.global internal constant @bf16("bf16\0A\00")
llvm.mlir.global internal constant @tf32("ieee vs tf32\0A\00")

// A (5x7), B (7x6) and a 6x7 C of -1, viewed as 5x6.
func.func @operands() -> (memref<5x7xf32>, memref<7x6xf32>, memref<6x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %minus1 = arith.constant -1.0 : f32
  %a = memref.alloc() : memref<5x7xf32>
  %b = memref.alloc() : memref<7x6xf32>
  %c = memref.alloc() : memref<6x7xf32>
  scf.for %r = %c0 to %c7 step %c1 {
    scf.for %s = %c0 to %c7 step %c1 {
      %r32 = arith.index_cast %r : index to i32
      %s32 = arith.index_cast %s : index to i32
      %sum = arith.addi %r32, %s32 : i32
      %diff = arith.subi %r32, %s32 : i32
      %fsum = arith.sitofp %sum : i32 to f32
      %fdiff = arith.sitofp %diff : i32 to f32
      %in_a = arith.cmpi ult, %r, %c5 : index
      scf.if %in_a {
        memref.store %fsum, %a[%r, %s] : memref<5x7xf32>
      }
      %in_b = arith.cmpi ult, %s, %c6 : index
      scf.if %in_b {
        memref.store %fdiff, %b[%r, %s] : memref<7x6xf32>
      }
      %in_c = arith.cmpi ult, %r, %c6 : index
      scf.if %in_c {
        memref.store %minus1, %c[%r, %s] : memref<6x7xf32>
      }
    }
  }
  return %a, %b, %c : memref<5x7xf32>, memref<7x6xf32>, memref<6x7xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a, %b, %c = func.call @operands() : () -> (memref<5x7xf32>, memref<7x6xf32>, memref<6x7xf32>)
  %av = memref.cast %a : memref<5x7xf32> to !fview
  %bv = memref.cast %b : memref<7x6xf32> to !fview
  %cs = memref.subview %c[0, 0] [5, 6] [1, 1] : memref<6x7xf32> to memref<5x6xf32, strided<[7, 1]>>
  %cv = memref.cast %cs : memref<5x6xf32, strided<[7, 1]>> to !fview
  %pc = memref.cast %c : memref<6x7xf32> to memref<*xf32>

  // Grid cdiv(5, 4) x cdiv(6, 4) = 2 x 2.
  scf.for %x = %c0 to %c2 step %c1 {
    scf.for %y = %c0 to %c2 step %c1 {
      func.call @mm_f32(%av, %bv, %cv, %x, %y, %c0, %c2, %c2, %c1)
          : (!fview, !fview, !fview, index, index, index, index, index, index) -> ()
    }
  }
  %s0 = llvm.mlir.addressof @ieee : !llvm.ptr
  func.call @printString(%s0) : (!llvm.ptr) -> ()
  func.call @printMemrefF32(%pc) : (memref<*xf32>) -> ()

  // The same operands in bf16, into a fresh C.
  %a16 = memref.alloc() : memref<5x7xbf16>
  %b16 = memref.alloc() : memref<7x6xbf16>
  linalg.map ins(%a : memref<5x7xf32>) outs(%a16 : memref<5x7xbf16>)
    (%v: f32, %o: bf16) { %t = arith.truncf %v : f32 to bf16
                          linalg.yield %t : bf16 }
  linalg.map ins(%b : memref<7x6xf32>) outs(%b16 : memref<7x6xbf16>)
    (%v: f32, %o: bf16) { %t = arith.truncf %v : f32 to bf16
                          linalg.yield %t : bf16 }
  %minus1 = arith.constant -1.0 : f32
  linalg.fill ins(%minus1 : f32) outs(%c : memref<6x7xf32>)
  %a16v = memref.cast %a16 : memref<5x7xbf16> to !bview
  %b16v = memref.cast %b16 : memref<7x6xbf16> to !bview
  scf.for %x = %c0 to %c2 step %c1 {
    scf.for %y = %c0 to %c2 step %c1 {
      func.call @mm_bf16(%a16v, %b16v, %cv, %x, %y, %c0, %c2, %c2, %c1)
          : (!bview, !bview, !fview, index, index, index, index, index, index) -> ()
    }
  }
  %s1 = llvm.mlir.addressof @bf16 : !llvm.ptr
  func.call @printString(%s1) : (!llvm.ptr) -> ()
  func.call @printMemrefF32(%pc) : (memref<*xf32>) -> ()

  // 4x4: A = 1 + 2^-11 + 2^-12, B = I, C = 0, at ieee then tf32 precision.
  %ta = memref.alloc() : memref<4x4xf32>
  %tb = memref.alloc() : memref<4x4xf32>
  %tc = memref.alloc() : memref<4x4xf32>
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %val = arith.constant 1.000732421875 : f32
  linalg.fill ins(%val : f32) outs(%ta : memref<4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%tb : memref<4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%tc : memref<4x4xf32>)
  %c4 = arith.constant 4 : index
  scf.for %d = %c0 to %c4 step %c1 {
    memref.store %one, %tb[%d, %d] : memref<4x4xf32>
  }
  %tav = memref.cast %ta : memref<4x4xf32> to !fview
  %tbv = memref.cast %tb : memref<4x4xf32> to !fview
  %tcv = memref.cast %tc : memref<4x4xf32> to !fview
  %ptc = memref.cast %tc : memref<4x4xf32> to memref<*xf32>
  %s2 = llvm.mlir.addressof @tf32 : !llvm.ptr
  func.call @printString(%s2) : (!llvm.ptr) -> ()
  func.call @mm_f32(%tav, %tbv, %tcv, %c0, %c0, %c0, %c1, %c1, %c1)
      : (!fview, !fview, !fview, index, index, index, index, index, index) -> ()
  func.call @printMemrefF32(%ptc) : (memref<*xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%tc : memref<4x4xf32>)
  func.call @mm_tf32(%tav, %tbv, %tcv, %c0, %c0, %c0, %c1, %c1, %c1)
      : (!fview, !fview, !fview, index, index, index, index, index, index) -> ()
  func.call @printMemrefF32(%ptc) : (memref<*xf32>) -> ()
  return
}
