// RUN: tilegym-opt %s --split-input-file --convert-fp8-to-integer | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --convert-fp8-to-integer --convert-arith-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// Narrowing from f32: integer code on the f32's bits (i32), rounded to
// nearest even by an add and a shift, saturated by a signed min with the
// largest finite code (0x7e = 126 for e4m3), NaN as 0x7f, the sign or-ed
// in, truncated to the byte and cast to the fp8 type (an unrealized cast,
// which cancels against the LLVM conversion's fp8-to-i8 one).
// CHECK-LABEL: func.func @trunc_f32_e4m3
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-DAG: arith.constant 126 : i32
// CHECK-DAG: arith.constant 127 : i32
// CHECK: arith.minsi
// CHECK: %[[BYTE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK: %[[R:.*]] = builtin.unrealized_conversion_cast %[[BYTE]] : i8 to f8E4M3FN
// CHECK: return %[[R]]
// CHECK-NOT: arith.truncf
// LLVM-LABEL: llvm.func @trunc_f32_e4m3
// LLVM-NOT: llvm.fptrunc
// LLVM: %[[B:.*]] = llvm.trunc %{{.*}} : i32 to i8
// LLVM-NEXT: llvm.return %[[B]] : i8
func.func @trunc_f32_e4m3(%x: f32) -> f8E4M3FN {
  %r = arith.truncf %x : f32 to f8E4M3FN
  return %r : f8E4M3FN
}

// -----

// From f64: the same code on i64, rounding once (no f32 in between); e5m2's
// largest finite code is 0x7b = 123.
// CHECK-LABEL: func.func @trunc_f64_e5m2
// CHECK: arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.constant 123 : i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : i8 to f8E5M2
// CHECK-NOT: arith.truncf
func.func @trunc_f64_e5m2(%x: f64) -> f8E5M2 {
  %r = arith.truncf %x : f64 to f8E5M2
  return %r : f8E5M2
}

// -----

// From f16 (and bf16): widened to f32 first, which is exact.
// CHECK-LABEL: func.func @trunc_f16_vector
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK: arith.bitcast %[[W]] : vector<4xf32> to vector<4xi32>
// CHECK: arith.trunci %{{.*}} : vector<4xi32> to vector<4xi8>
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : vector<4xi8> to vector<4xf8E4M3FN>
func.func @trunc_f16_vector(%x: vector<4xf16>) -> vector<4xf8E4M3FN> {
  %r = arith.truncf %x : vector<4xf16> to vector<4xf8E4M3FN>
  return %r : vector<4xf8E4M3FN>
}

// -----

// Widening: the byte's fields rebiased into an f32 (127 - 7 = 120 for
// e4m3), subnormals through a multiply by 2^-9, then to the result type
// (exact for f16, bf16 and f64).
// CHECK-LABEL: func.func @ext_e4m3
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : f8E4M3FN to i8
// CHECK: %[[U:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK: arith.constant 120 : i32
// CHECK: arith.constant 0.001953125 : f32
// CHECK: %[[F:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[F]] : f32 to f16
// CHECK-NOT: f8E4M3FN to f16
func.func @ext_e4m3(%x: f8E4M3FN) -> f16 {
  %r = arith.extf %x : f8E4M3FN to f16
  return %r : f16
}

// -----

// e5m2 has infinities: its top exponent decodes to inf (0x7f800000) or NaN.
// CHECK-LABEL: func.func @ext_e5m2_f64
// CHECK: arith.constant 2139095040 : i32
// CHECK: arith.extf %{{.*}} : f32 to f64
func.func @ext_e5m2_f64(%x: f8E5M2) -> f64 {
  %r = arith.extf %x : f8E5M2 to f64
  return %r : f64
}

// -----

// Constants: the bits as an i8 constant and a cast (1.5 in e4m3 is 0x3c =
// 60; 1.0 in e5m2 is 0x3c too).
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[S:.*]] = arith.constant 60 : i8
// CHECK-DAG: %[[V:.*]] = arith.constant dense<60> : vector<2xi8>
// CHECK-DAG: builtin.unrealized_conversion_cast %[[S]] : i8 to f8E4M3FN
// CHECK-DAG: builtin.unrealized_conversion_cast %[[V]] : vector<2xi8> to vector<2xf8E5M2>
// LLVM-LABEL: llvm.func @constants
// LLVM: llvm.mlir.constant(60 : i8) : i8
func.func @constants() -> (f8E4M3FN, vector<2xf8E5M2>) {
  %a = arith.constant 1.5 : f8E4M3FN
  %b = arith.constant dense<1.0> : vector<2xf8E5M2>
  return %a, %b : f8E4M3FN, vector<2xf8E5M2>
}

// -----

// Other conversions are left alone.
// CHECK-LABEL: func.func @others
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.constant 2.500000e+00 : f16
func.func @others(%x: f32, %y: f16) -> (bf16, f32, f16) {
  %a = arith.truncf %x : f32 to bf16
  %b = arith.extf %y : f16 to f32
  %c = arith.constant 2.5 : f16
  return %a, %b, %c : bf16, f32, f16
}
