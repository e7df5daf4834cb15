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
// CHECK: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK: %[[O2:[0-9]+]] = arith.index_cast %[[C4096]] : index to i64
// CHECK: %[[D2:[0-9]+]] = llvm.getelementptr %[[D0]][%[[O2]]]
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

// -----

// Padded rows (swizzle = 0, f32): 32 columns are 8 16-byte units, padded to
// 9, so a row is 36 elements. A thread of #b holds 2 runs of the 32x32 tile,
// 16 rows apart: chained, the second destination is the first's plus
// 16 * 36 * 4 = 2304 bytes, and its source the first's plus 16 rows of the
// view.
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// CHECK-LABEL: gpu.func @padded
// CHECK: %[[D0:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: %[[C2304:.*]] = arith.constant 2304 : index
// CHECK: %[[O:[0-9]+]] = arith.index_cast %[[C2304]] : index to i64
// CHECK: %[[D1:[0-9]+]] = llvm.getelementptr %[[D0]][%[[O]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK: %[[TILE:[0-9]+]] = llvm.getelementptr {{.*}} -> !llvm.ptr<1>, f32
// CHECK: arith.muli %{{[0-9]+}}, %[[ROWSTRIDE:[0-9]+]] : index
// CHECK: %[[S0:[0-9]+]] = llvm.getelementptr %[[TILE]][%{{[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: nvvm.cp.async.shared.global %[[D0]], %[[S0]], 16, cache =  cg :
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[STEP:[0-9]+]] = arith.muli %[[ROWSTRIDE]], %[[C16]] : index
// CHECK: %[[STEP64:[0-9]+]] = arith.index_cast %[[STEP]] : index to i64
// CHECK: %[[S1:[0-9]+]] = llvm.getelementptr %[[S0]][%[[STEP64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: nvvm.cp.async.shared.global %[[D1]], %[[S1]], 16, cache =  cg :
func.func @padded(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<32x32xf32, swizzle = 0>
  tilegpu.async_copy %x[%c0, %c0], %buf chained : !tile.view<?x?xf32>, !tilegpu.memdesc<32x32xf32, swizzle = 0> as tensor<32x32xf32, #b>
  tilegpu.async_commit_group
  tilegpu.async_wait 0
  gpu.barrier
  %t = tilegpu.local_load %buf : !tilegpu.memdesc<32x32xf32, swizzle = 0> -> tensor<32x32xf32, #b>
  tile.store %t, %y[%c0, %c0] : tensor<32x32xf32, #b>, !tile.view<?x?xf32>
  return
}
