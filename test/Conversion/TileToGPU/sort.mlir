// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | FileCheck %s

// A sort runs a bitonic network in shared memory: the tile stored (each
// element once), then one compare-and-swap stage per barrier, 10 stages for
// lines of 16 (log2 16 (log2 16 + 1) / 2), the 32 pairs of each stage one
// per thread; then the first k of each line read in the result's layout.
// CHECK-LABEL: gpu.func @topk
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-10: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1]}>
#r = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerBlock = [1, 1]}>
func.func @topk(%x: !tile.view<?x?xf16>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf16> -> tensor<4x16xf16, #l>
  %s = tile.sort %t {descending} : tensor<4x16xf16, #l> -> tensor<4x4xf16, #r>
  tile.store %s, %x[%c0, %c0] : tensor<4x4xf16, #r>, !tile.view<?x?xf16>
  return
}

// -----

// With indices, each element's index along the line (an i32) is stored
// beside it, in a second array after the values' (64 f32 = 256 bytes in),
// moved with it by each stage, and read out instead of the values. Ties
// compare by index: the stage compares both ways, values then indices.
// CHECK-LABEL: gpu.func @argtopk
// CHECK: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK: %[[IDX:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: llvm.store %[[IDX]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: %[[IX:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[IY:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: arith.cmpi slt, %[[IX]], %[[IY]] : i32
// CHECK: arith.select %{{.*}}, %[[IY]], %[[IX]] : i32
// CHECK: arith.select %{{.*}}, %[[IX]], %[[IY]] : i32
// CHECK-COUNT-10: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK: gpu.return
#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerBlock = [1, 1]}>
#r = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerBlock = [1, 1]}>
func.func @argtopk(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xi32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x16xf32, #l>
  %s = tile.sort %t {descending, indices} : tensor<4x16xf32, #l> -> tensor<4x4xi32, #r>
  tile.store %s, %y[%c0, %c0] : tensor<4x4xi32, #r>, !tile.view<?x?xi32>
  return
}
