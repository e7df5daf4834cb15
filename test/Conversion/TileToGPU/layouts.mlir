// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots --tilegpu-pipeline --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegym-gpu-pipeline="chip=sm_80" | FileCheck %s --check-prefix=NVVM

// A row reduction across lanes and warps: shuffles, then a round trip
// through a slice of shared memory of its own (one barrier: no earlier user
// of the slice to wait for); the [1, 1] result is then broadcast back for
// free (register renaming, no shared memory).
// CHECK-LABEL: gpu.module @tilegym_kernels
// CHECK: llvm.mlir.global internal @rowmax__smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16 x i8>
// CHECK: gpu.func @rowmax(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1>
// CHECK-SAME: kernel
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: gpu.shuffle  xor
// CHECK-NOT: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: arith.maximumf
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// NVVM: llvm.func @rowmax
// NVVM: nvvm.shfl.sync bfly
// NVVM: nvvm.barrier0
func.func @rowmax(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %r = tile.block_id 0
  %t = tile.load %x[%r, %c0] {padding = 0xFF800000 : f32} : !tile.view<?x?xf32> -> tensor<1x1024xf32>
  %m = tile.reduce max %t {axis = 1 : i64, keep_dims} : tensor<1x1024xf32> -> tensor<1x1xf32>
  %b = tile.broadcast %m : tensor<1x1xf32> -> tensor<1x1024xf32>
  %d = arith.subf %t, %b : tensor<1x1024xf32>
  tile.store %d, %y[%r, %c0] : tensor<1x1024xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A transpose changes which thread holds which element: it goes through
// shared memory.
// CHECK-LABEL: gpu.func @transpose
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @transpose(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x32xf32>
  %p = tile.permute %t [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  %q = tile.permute %p [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
  tile.store %q, %y[%c0, %c0] : tensor<16x32xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Adding a leading unit dimension keeps every element where it is: a
// renaming, no shared memory.
// CHECK-LABEL: gpu.func @expand
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @expand(%w: !tile.view<?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %w[%c0] : !tile.view<?xf32> -> tensor<1024xf32>
  %r = tile.reshape %t : tensor<1024xf32> -> tensor<1x1024xf32>
  %b = tile.broadcast %r : tensor<1x1024xf32> -> tensor<4x1024xf32>
  tile.store %b, %y[%c0, %c0] : tensor<4x1024xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Loops carry the registers of their tiles.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32)
func.func @loop(%x: !tile.view<?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<1024xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> tensor<1024xf32> {
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1024xf32>
    %a = arith.addf %acc, %t : tensor<1024xf32>
    scf.yield %a : tensor<1024xf32>
  }
  tile.store %s, %x[%c0] : tensor<1024xf32>, !tile.view<?xf32>
  return
}

// -----

// In a loop the next iteration writes the same slice: a barrier first waits
// for the previous iteration's readers.
// CHECK-LABEL: gpu.func @rowmax_loop
// CHECK: scf.for
// CHECK: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK-NOT: llvm.store
// CHECK: llvm.mlir.addressof @rowmax_loop__smem
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
func.func @rowmax_loop(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %r = %c0 to %c4 step %c1 {
    %t = tile.load %x[%r, %c0] : !tile.view<?x?xf32> -> tensor<1x1024xf32>
    %m = tile.reduce max %t {axis = 1 : i64, keep_dims} : tensor<1x1024xf32> -> tensor<1x1xf32>
    tile.store %m, %y[%r, %c0] : tensor<1x1xf32>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A reshaped iota is its coordinate in the result's layout: no conversion
// through shared memory (no i32 stored there), whatever layout the [1, 64]
// tile takes from the dot it meets.
// CHECK-LABEL: gpu.func @iota_columns
// CHECK-NOT: i32, !llvm.ptr<3>
// CHECK: nvvm.mma.sync
func.func @iota_columns(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = tile.iota : tensor<64xi32>
  %cols = tile.reshape %i : tensor<64xi32> -> tensor<1x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %f = arith.sitofp %colsb : tensor<64x64xi32> to tensor<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x16xbf16>
  %tb = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x64xbf16>
  %d = tile.dot %ta, %tb, %f : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>
  tile.store %d, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
