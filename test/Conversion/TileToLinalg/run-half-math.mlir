// End to end: bf16 and f16 elementwise math, computed in f32 (upstream
// arith-emulate-unsupported-floats and math-extend-to-supported-types), and an
// extf of a bf16 tile to f32. (See run-vector-add.mlir for why the verifier
// is off while parsing.) The sed drops the `#arith.fastmath` attribute that
// convert-arith-to-llvm leaves on f16 llvm.fpext/fptrunc: mlir-runner does not
// load the arith dialect to parse it (in-process JIT is unaffected).
// RUN: tilegym-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --verify-each=0 \
// RUN:     --tilegym-cpu-pipeline \
// RUN:   | sed 's/ {fastmath = #arith.fastmath<contract>}//' \
// RUN:   | mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// x = 0, 0.5, 1, 1.5, -2, 3, viewed as 6 of a buffer of 8; outputs are
// views of 6 in buffers of 8 of -1.
// exp(x) + x * x in bf16, each op rounded to bf16:
// CHECK: data =
// CHECK-NEXT: [1,  1.89844,  3.71875,  6.71875,  4.125,  29.125,  -1,  -1]
// tanh(x) + erf(x) in bf16, stored as f32. The emulation marks its f32<->bf16
// conversions `contract`, so a fused chain may skip intermediate roundings:
// here tanh and erf stay f32 and only the sum is rounded (per-op rounding
// would give 1.60938 and 2 at x = 1 and 3, ties of the last bf16 bit).
// CHECK: data =
// CHECK-NEXT: [0,  0.984375,  1.60156,  1.875,  -1.96094,  1.99219,  -1,  -1]
// exp(x) + x * x in f16:
// CHECK: data =
// CHECK-NEXT: [1,  1.89844,  3.71875,  6.73047,  4.13672,  29.0781,  -1,  -1]
// rsqrt in f32 of the bf16 exp(x) + x * x (an LLVM intrinsic: libm has no
// rsqrtf):
// CHECK: data =
// CHECK-NEXT: [1,  0.725775,  0.518563,  0.385794,  0.492366,  0.185296,  -1,  -1]

func.func @half_math(%x: !tile.view<?xbf16>, %y: !tile.view<?xbf16>, %z: !tile.view<?xf32>,
                     %xh: !tile.view<?xf16>, %yh: !tile.view<?xf16>,
                     %r: !tile.view<?xf32>)
    attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] {padding = 1.0 : bf16} : !tile.view<?xbf16> -> tensor<8xbf16>
  %e = math.exp %t : tensor<8xbf16>
  %sq = arith.mulf %t, %t : tensor<8xbf16>
  %u = arith.addf %e, %sq : tensor<8xbf16>
  tile.store %u, %y[%c0] : tensor<8xbf16>, !tile.view<?xbf16>
  %uf = arith.extf %u : tensor<8xbf16> to tensor<8xf32>
  %ru = math.rsqrt %uf : tensor<8xf32>
  tile.store %ru, %r[%c0] : tensor<8xf32>, !tile.view<?xf32>
  %th = math.tanh %t : tensor<8xbf16>
  %er = math.erf %t : tensor<8xbf16>
  %w = arith.addf %th, %er : tensor<8xbf16>
  %wf = arith.extf %w : tensor<8xbf16> to tensor<8xf32>
  tile.store %wf, %z[%c0] : tensor<8xf32>, !tile.view<?xf32>
  %th16 = tile.load %xh[%c0] : !tile.view<?xf16> -> tensor<8xf16>
  %e16 = math.exp %th16 : tensor<8xf16>
  %sq16 = arith.mulf %th16, %th16 : tensor<8xf16>
  %u16 = arith.addf %e16, %sq16 : tensor<8xf16>
  tile.store %u16, %yh[%c0] : tensor<8xf16>, !tile.view<?xf16>
  return
}

!bview = memref<?xbf16, strided<[?], offset: ?>>
!hview = memref<?xf16, strided<[?], offset: ?>>
!fview = memref<?xf32, strided<[?], offset: ?>>
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %minus1 = arith.constant -1.0 : f32
  %xf = arith.constant dense<[0.0, 0.5, 1.0, 1.5, -2.0, 3.0, 7.0, 7.0]> : tensor<8xf32>
  %xb = arith.truncf %xf : tensor<8xf32> to tensor<8xbf16>
  %xh = arith.truncf %xf : tensor<8xf32> to tensor<8xf16>
  %x = bufferization.to_buffer %xb : tensor<8xbf16> to memref<8xbf16>
  %x16 = bufferization.to_buffer %xh : tensor<8xf16> to memref<8xf16>
  %y = memref.alloc() : memref<8xbf16>
  %y16 = memref.alloc() : memref<8xf16>
  %z = memref.alloc() : memref<8xf32>
  %mb = arith.truncf %minus1 : f32 to bf16
  %mh = arith.truncf %minus1 : f32 to f16
  linalg.fill ins(%mb : bf16) outs(%y : memref<8xbf16>)
  linalg.fill ins(%mh : f16) outs(%y16 : memref<8xf16>)
  linalg.fill ins(%minus1 : f32) outs(%z : memref<8xf32>)
  %xs = memref.subview %x[0] [6] [1] : memref<8xbf16> to memref<6xbf16, strided<[1]>>
  %ys = memref.subview %y[0] [6] [1] : memref<8xbf16> to memref<6xbf16, strided<[1]>>
  %zs = memref.subview %z[0] [6] [1] : memref<8xf32> to memref<6xf32, strided<[1]>>
  %rz = memref.alloc() : memref<8xf32>
  linalg.fill ins(%minus1 : f32) outs(%rz : memref<8xf32>)
  %rzs = memref.subview %rz[0] [6] [1] : memref<8xf32> to memref<6xf32, strided<[1]>>
  %rzv = memref.cast %rzs : memref<6xf32, strided<[1]>> to !fview
  %x16s = memref.subview %x16[0] [6] [1] : memref<8xf16> to memref<6xf16, strided<[1]>>
  %y16s = memref.subview %y16[0] [6] [1] : memref<8xf16> to memref<6xf16, strided<[1]>>
  %xv = memref.cast %xs : memref<6xbf16, strided<[1]>> to !bview
  %yv = memref.cast %ys : memref<6xbf16, strided<[1]>> to !bview
  %zv = memref.cast %zs : memref<6xf32, strided<[1]>> to !fview
  %x16v = memref.cast %x16s : memref<6xf16, strided<[1]>> to !hview
  %y16v = memref.cast %y16s : memref<6xf16, strided<[1]>> to !hview
  func.call @half_math(%xv, %yv, %zv, %x16v, %y16v, %rzv, %c0, %c0, %c0, %c1, %c1, %c1)
      : (!bview, !bview, !fview, !hview, !hview, !fview, index, index, index, index, index, index) -> ()

  %yf = memref.alloc() : memref<8xf32>
  linalg.map ins(%y : memref<8xbf16>) outs(%yf : memref<8xf32>)
    (%v: bf16, %o: f32) { %e = arith.extf %v : bf16 to f32
                          linalg.yield %e : f32 }
  %pyf = memref.cast %yf : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%pyf) : (memref<*xf32>) -> ()
  %pz = memref.cast %z : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%pz) : (memref<*xf32>) -> ()
  linalg.map ins(%y16 : memref<8xf16>) outs(%yf : memref<8xf32>)
    (%v: f16, %o: f32) { %e = arith.extf %v : f16 to f32
                         linalg.yield %e : f32 }
  func.call @printMemrefF32(%pyf) : (memref<*xf32>) -> ()
  %prz = memref.cast %rz : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%prz) : (memref<*xf32>) -> ()
  return
}
