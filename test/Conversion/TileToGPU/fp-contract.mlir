// RUN: tilegym-opt %s --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
// RUN: tilegym-opt %s --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu="fp-contract=false" | FileCheck %s --check-prefix=OFF

// Float arith ops are marked `contract` (LLVM may fuse a * b + c into fma),
// unless fp-contract=false.
// CHECK-LABEL: gpu.func @axpy
// CHECK: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK: arith.addf {{.*}} fastmath<contract> : f32
// OFF-LABEL: gpu.func @axpy
// OFF-NOT: fastmath<contract>
// OFF: gpu.return
func.func @axpy(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %a: f32)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %u = tile.load %y[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %s = tile.splat %a : tensor<128xf32>
  %m = arith.mulf %s, %t : tensor<128xf32>
  %r = arith.addf %m, %u : tensor<128xf32>
  tile.store %r, %y[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}
