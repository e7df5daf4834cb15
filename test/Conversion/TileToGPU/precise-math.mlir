// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// By default f32 exp and exp2 run on the SFU's ex2.approx, and division on
// div.full; with tile.precise_math = 1 they stay math.exp, math.exp2 and
// arith.divf, which libdevice (__nv_expf, __nv_exp2f) and div.rn lower.
// CHECK-LABEL: gpu.func @fast
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"
// CHECK-NOT: math.exp
// CHECK: gpu.return
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @fast(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #l>
  %e = math.exp %t : tensor<32xf32, #l>
  %f = math.exp2 %e : tensor<32xf32, #l>
  %d = arith.divf %f, %t : tensor<32xf32, #l>
  tile.store %d, %x[%c0] : tensor<32xf32, #l>, !tile.view<?xf32>
  return
}

// -----

// CHECK-LABEL: gpu.func @precise
// CHECK-NOT: llvm.nvvm.ex2.approx
// CHECK-NOT: llvm.nvvm.div.full
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.exp2 %{{.*}} : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @precise(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64, tile.precise_math = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #l>
  %e = math.exp %t : tensor<32xf32, #l>
  %f = math.exp2 %e : tensor<32xf32, #l>
  %d = arith.divf %f, %t : tensor<32xf32, #l>
  tile.store %d, %x[%c0] : tensor<32xf32, #l>, !tile.view<?xf32>
  return
}
