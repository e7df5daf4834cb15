// RUN: tilegym-opt %s --tilegpu-legalize-dots --verify-diagnostics

// The tensor-core paths take no f64: a GPU kernel's f64 dot is an error
// naming the operand types that have a path.
func.func @f64_dot(%a: tensor<16x16xf64>, %c: tensor<16x16xf64>) -> tensor<16x16xf64> {
  // expected-error @+1 {{f64 dot has no GPU path: the tensor cores take f16, bf16, fp8 and f32 (as tf32) operands}}
  %d = tile.dot %a, %a, %c {precision = 0 : i32} : tensor<16x16xf64>, tensor<16x16xf64>, tensor<16x16xf64>
  return %d : tensor<16x16xf64>
}
