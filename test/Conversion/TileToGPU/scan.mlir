// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | FileCheck %s

// A scan goes through shared memory: the tile row-major (each element
// written once), a barrier, each thread's segment of a line scanned in a
// loop, a barrier, the segments' totals before each combined into it (a
// loop over them, a loop over the segment), a barrier, the elements read
// back. One line of 4096 on 128 threads: 128 segments of 32.
// CHECK-LABEL: gpu.func @row
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[TOTAL:.*]] = scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step %{{.*}} iter_args(%[[PART:.*]] = %{{.*}}) -> (f32) {
// CHECK:   llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:   arith.addf %[[PART]]
// CHECK: llvm.store %[[TOTAL]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
#l = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [1, 4]}>
func.func @row(%x: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<1x4096xbf16, #l>
  %s = tile.scan sum %t {axis = 1 : i64} : tensor<1x4096xbf16, #l>
  tile.store %s, %x[%c0, %c0] : tensor<1x4096xbf16, #l>, !tile.view<?x?xbf16>
  return
}

// -----

// 256 lines on 128 threads: one segment per line, two lines per thread, no
// totals to combine (two barriers only).
// CHECK-LABEL: gpu.func @columns
// CHECK-COUNT-2: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: arith.maxsi
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
#l = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
func.func @columns(%x: !tile.view<?x?xi32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xi32> -> tensor<16x256xi32, #l>
  %s = tile.scan max %t {axis = 0 : i64, exclusive} : tensor<16x256xi32, #l>
  tile.store %s, %x[%c0, %c0] : tensor<16x256xi32, #l>, !tile.view<?x?xi32>
  return
}
