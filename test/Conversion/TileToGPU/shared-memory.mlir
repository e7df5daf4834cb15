// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=chip=sm_80 --convert-tile-to-gpu=chip=sm_80 | FileCheck %s --check-prefix=SM80
//
// Layout conversions on hand-written tilegpu IR, and where their buffers go.

#mma = #tilegpu.mma<warps = [2, 2]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// A conversion writes every register to shared memory and reads the new
// layout's back between two barriers; 64x64 f32 fits in static memory.
// CHECK-LABEL: gpu.module @tilegym_kernels
// CHECK: llvm.mlir.global internal @small__smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<16384 x i8>
// CHECK: gpu.func @small
// CHECK-NOT: tile.dynamic_shared_bytes
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
func.func @small(%x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
  %b = tilegpu.convert_layout %z : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
  tile.store %b, %x[%c0, %c0] : tensor<64x64xf32, #blocked>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<warps = [2, 2]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
// 128x128 f32 is 64 KiB, past the 48 KiB of static shared memory: the buffer
// is the dynamic one, which the launch asks for.
// CHECK-LABEL: gpu.module @tilegym_kernels
// CHECK: llvm.mlir.global external @big__smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @big
// CHECK-SAME: tile.dynamic_shared_bytes = 65536 : i64
// CHECK: llvm.mlir.addressof @big__smem
// SM80: tile.dynamic_shared_bytes = 65536 : i64
func.func @big(%x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<1.0> : tensor<128x128xf32, #mma>
  %b = tilegpu.convert_layout %z : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
  tile.store %b, %x[%c0, %c0] : tensor<128x128xf32, #blocked>, !tile.view<?x?xf32>
  return
}

// -----

// A linear layout is lowered as the blocked one it spells: 4 contiguous f32
// per thread, one 16-byte access.
#linear = #tilegpu.linear<{register = [[1], [2]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]]}>
// CHECK-LABEL: gpu.func @linear
// CHECK: llvm.load {{.*}} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.store {{.*}} : vector<4xf32>, !llvm.ptr<1>
func.func @linear(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32, #linear>
  tile.store %t, %x[%c0] : tensor<512xf32, #linear>, !tile.view<?xf32>
  return
}

// -----

// A 16-bit tile in the accumulator's register pattern, reshaped with a unit
// dimension for a batched view, is stored as matmul's C is: the quad's words
// transposed by two rounds of shuffles, one 16-byte store per row run, no
// trip through shared memory.
#mma = #tilegpu.mma<warps = [4, 1]>
#linear = #tilegpu.linear<{register = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [0, 32, 0]]}>
// CHECK-LABEL: gpu.func @batched_store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
func.func @batched_store(%c: !tile.view<?x?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
  %r = tile.reshape %z : tensor<64x64xf32, #mma> -> tensor<1x64x64xf32, #linear>
  %h = arith.truncf %r : tensor<1x64x64xf32, #linear> to tensor<1x64x64xbf16, #linear>
  tile.store %h, %c[%c0, %c0, %c0] : tensor<1x64x64xbf16, #linear>, !tile.view<?x?x?xbf16>
  return
}
