// RUN: tilegym-opt %s --tilegpu-assign-layouts=chip=gfx90a --verify-diagnostics
// RUN: tilegym-opt %s --tilegpu-allocate-shared-memory=chip=gfx90a --verify-diagnostics

// expected-error @+1 {{invalid chip 'gfx90a'; expected sm_<N> or sm_<N>a}}
func.func @k(%x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %x[%c0] : tensor<128xf32>, !tile.view<?xf32>
  return
}
