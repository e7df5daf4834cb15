// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
//
// How a copy addresses its runs. A thread of #a holds 4 runs of the 64x64
// tile, at static offsets (0, 0), (0, 32), (32, 0) and (32, 32) from its
// first element. Chained: on the interior path each run's source is the
// previous run's plus a step, and a run whose distance from the first the
// 128-byte swizzle keeps (32 rows, no column: (32, 0)) has the first's
// destination plus a constant; the others' destinations are swizzled from
// the stage's address. Direct: each source is the tile's address plus the
// run's own offset.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>

// CHECK-LABEL: gpu.func @chained
// CHECK: %[[BASE:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[D0:[0-9]+]] = llvm.getelementptr %[[BASE]][
// CHECK: %[[D1:[0-9]+]] = llvm.getelementptr %[[BASE]][
// CHECK: %[[D2:[0-9]+]] = llvm.getelementptr %[[D0]][
// CHECK: %[[D3:[0-9]+]] = llvm.getelementptr %[[BASE]][
// CHECK: %[[TILE:[0-9]+]] = llvm.getelementptr %{{.*}} -> !llvm.ptr<1>, bf16
// CHECK: %[[S0:[0-9]+]] = llvm.getelementptr %[[TILE]][
// CHECK: nvvm.cp.async.shared.global %[[D0]], %[[S0]], 16, cache =  cg :
// CHECK: %[[S1:[0-9]+]] = llvm.getelementptr %[[S0]][
// CHECK: nvvm.cp.async.shared.global %[[D1]], %[[S1]], 16, cache =  cg :
// CHECK: %[[S2:[0-9]+]] = llvm.getelementptr %[[S1]][
// CHECK: nvvm.cp.async.shared.global %[[D2]], %[[S2]], 16, cache =  cg :
// CHECK: %[[S3:[0-9]+]] = llvm.getelementptr %[[S2]][
// CHECK: nvvm.cp.async.shared.global %[[D3]], %[[S3]], 16, cache =  cg :
// The tile's edge path is unchanged: each run from its own coordinates.
// CHECK: } else {
// CHECK: nvvm.cp.async.shared.global %[[D0]], %{{[0-9]+}}, 16, cache =  cg, %{{[0-9]+}} :
func.func @chained(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  tilegpu.async_copy %x[%c0, %c0], %buf chained : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #a>
  tilegpu.async_commit_group
  tilegpu.async_wait 0
  gpu.barrier
  %t = tilegpu.local_load %buf : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> tensor<64x64xbf16, #a>
  tile.store %t, %y[%c0, %c0] : tensor<64x64xbf16, #a>, !tile.view<?x?xbf16>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>

// CHECK-LABEL: gpu.func @direct
// CHECK: %[[BASE:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.getelementptr %[[BASE]][
// CHECK: %[[TILE:[0-9]+]] = llvm.getelementptr %{{.*}} -> !llvm.ptr<1>, bf16
// CHECK-COUNT-4: llvm.getelementptr %[[TILE]][
// CHECK: } else {
func.func @direct(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  tilegpu.async_copy %x[%c0, %c0], %buf : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #a>
  tilegpu.async_commit_group
  tilegpu.async_wait 0
  gpu.barrier
  %t = tilegpu.local_load %buf : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> tensor<64x64xbf16, #a>
  tile.store %t, %y[%c0, %c0] : tensor<64x64xbf16, #a>, !tile.view<?x?xbf16>
  return
}
