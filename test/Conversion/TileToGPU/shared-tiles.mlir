// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
//
// Tiles in shared memory as ops: a ring of two swizzled stages in the
// kernel's buffer, a cp.async copy into each (one commit group each), a
// wait for the first, a barrier, and each stage read back into registers:
// the first by 16-byte runs, the second through its transposed view,
// element by element.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>

// CHECK: llvm.mlir.global internal @ring__smem() {{.*}} : !llvm.array<16384 x i8>
// CHECK-LABEL: gpu.func @ring
// CHECK-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-4: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-NOT: vector<8xbf16>, !llvm.ptr<3>
// CHECK-COUNT-32: llvm.load {{.*}} : !llvm.ptr<3> -> bf16
func.func @ring(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128>
  %s0 = tilegpu.memdesc_index %ring[%c0] : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  %s1 = tilegpu.memdesc_index %ring[%c1] : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  tilegpu.async_copy %x[%c0, %c0], %s0 : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #a>
  tilegpu.async_commit_group
  tilegpu.async_copy %x[%c0, %c1], %s1 : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #a>
  tilegpu.async_commit_group
  tilegpu.async_wait 1
  gpu.barrier
  %t = tilegpu.local_load %s0 : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> tensor<64x64xbf16, #a>
  tile.store %t, %y[%c0, %c0] : tensor<64x64xbf16, #a>, !tile.view<?x?xbf16>
  tilegpu.async_wait 0
  gpu.barrier
  %st = tilegpu.memdesc_trans %s1 : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>
  %u = tilegpu.local_load %st : !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed> -> tensor<64x64xbf16, #a>
  tile.store %u, %y[%c0, %c1] : tensor<64x64xbf16, #a>, !tile.view<?x?xbf16>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// Padded rows (swizzle = 0): 32 f32 columns are 8 16-byte units, padded to
// 9, so a stage of 16 rows takes 16 * 36 * 4 bytes.
// CHECK: llvm.mlir.global internal @padded__smem() {{.*}} : !llvm.array<2304 x i8>
// CHECK-LABEL: gpu.func @padded
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xf32>
func.func @padded(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<16x32xf32, swizzle = 0>
  tilegpu.async_copy %x[%c0, %c0], %buf : !tile.view<?x?xf32>, !tilegpu.memdesc<16x32xf32, swizzle = 0> as tensor<16x32xf32, #b>
  tilegpu.async_commit_group
  tilegpu.async_wait 0
  gpu.barrier
  %t = tilegpu.local_load %buf : !tilegpu.memdesc<16x32xf32, swizzle = 0> -> tensor<16x32xf32, #b>
  tile.store %t, %y[%c0, %c0] : tensor<16x32xf32, #b>, !tile.view<?x?xf32>
  return
}
