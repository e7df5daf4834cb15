// RUN: tilegym-opt %s --pass-pipeline='builtin.module(llvm.func(tilegym-mark-tensor-map-params))' --verify-diagnostics
//
// A kernel listing a parameter that is not a pointer as a tensor map.

// expected-error @+1 {{lists parameter 1 as a tensor map, which must be a pointer parameter}}
llvm.func @not_a_pointer(%p: !llvm.ptr, %n: i32) attributes {nvvm.kernel, tilegpu.tensor_map_params = array<i32: 0, 1>} {
  llvm.return
}
