// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The placement is a function of the IR: made again, it is the same.
// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --tilegpu-allocate-shared-memory | FileCheck %s
//
// The pass alone, on kernels whose layouts and shared-memory tiles are
// written out (what tilegpu-assign-layouts, tilegpu-accelerate-dots and
// tilegpu-pipeline give them).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#out = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Two rings of two stages, rows padded for ldmatrix: A 64x(32+8) and B
// 32x(64+8) bf16, 10240 and 9216 bytes. They live until the loop that reads
// them ends. After it, the conversion of the accumulator (after a barrier)
// takes the rings' bytes again, offset 0; the reduction across the warps
// along M writes without a barrier, so it gets bytes of its own past the
// rings.
// CHECK-LABEL: func.func @reuse_after_loop
// CHECK-SAME: tilegpu.shared_memory = 20480 : i64
// CHECK: tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 10240>} : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0>
// CHECK: tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 10240, bytes = 9216>} : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0>
// CHECK: scf.for
// CHECK: tilegpu.mma mma_sync
// CHECK-NOT: tilegpu.shared
// CHECK: tile.reduce sum {{.*}} {axis = 0 : i64, keep_dims, tilegpu.shared = #tilegpu.shared<offset = 19456, bytes = 1024>}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 16384>}
// REMARK: remark: shared memory: 10240 bytes at offset 0 for a ring of 2 stages
// REMARK: remark: shared memory: 9216 bytes at offset 10240 for a ring of 2 stages
// REMARK: remark: shared memory: 1024 bytes at offset 19456 for a reduction across warps
// REMARK: remark: shared memory: 16384 bytes at offset 0 for a layout conversion
// REMARK: remark: shared memory per block: 20480 bytes, static
func.func @reuse_after_loop(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>, %vs: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %ra = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0>
  %rb = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tilegpu.memdesc_index %ra[%c0] : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0> -> !tilegpu.memdesc<64x32xbf16, swizzle = 0>
  tilegpu.async_copy %va[%c0, %c0], %a0 : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x32xbf16, swizzle = 0> as tensor<64x32xbf16, #a>
  tilegpu.async_commit_group
  %b0 = tilegpu.memdesc_index %rb[%c0] : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0> -> !tilegpu.memdesc<32x64xbf16, swizzle = 0>
  tilegpu.async_copy %vb[%c0, %c0], %b0 : !tile.view<?x?xbf16>, !tilegpu.memdesc<32x64xbf16, swizzle = 0> as tensor<32x64xbf16, #b>
  tilegpu.async_commit_group
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %stage = %c0_i32) -> (tensor<64x64xf32, #mma>, i32) {
    tilegpu.async_wait 0
    gpu.barrier
    %i = arith.index_cast %stage : i32 to index
    %ta = tilegpu.memdesc_index %ra[%i] : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0> -> !tilegpu.memdesc<64x32xbf16, swizzle = 0>
    %tb = tilegpu.memdesc_index %rb[%i] : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0> -> !tilegpu.memdesc<32x64xbf16, swizzle = 0>
    %d = tilegpu.mma mma_sync %ta, %tb, %acc : !tilegpu.memdesc<64x32xbf16, swizzle = 0>, !tilegpu.memdesc<32x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %s1 = arith.addi %stage, %c1_i32 : i32
    %next = arith.remui %s1, %c2_i32 : i32
    %j = arith.index_cast %next : i32 to index
    %an = tilegpu.memdesc_index %ra[%j] : !tilegpu.memdesc<2x64x32xbf16, swizzle = 0> -> !tilegpu.memdesc<64x32xbf16, swizzle = 0>
    tilegpu.async_copy %va[%c0, %k1], %an : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x32xbf16, swizzle = 0> as tensor<64x32xbf16, #a>
    tilegpu.async_commit_group
    %bn = tilegpu.memdesc_index %rb[%j] : !tilegpu.memdesc<2x32x64xbf16, swizzle = 0> -> !tilegpu.memdesc<32x64xbf16, swizzle = 0>
    tilegpu.async_copy %vb[%k1, %c0], %bn : !tile.view<?x?xbf16>, !tilegpu.memdesc<32x64xbf16, swizzle = 0> as tensor<32x64xbf16, #b>
    tilegpu.async_commit_group
    scf.yield %d, %next : tensor<64x64xf32, #mma>, i32
  }
  tilegpu.async_wait 0
  %s = tile.reduce sum %r#0 {axis = 0 : i64, keep_dims} : tensor<64x64xf32, #mma> -> tensor<1x64xf32, #mma>
  tile.store %s, %vs[%c0, %c0] : tensor<1x64xf32, #mma>, !tile.view<?x?xf32>
  %o = tilegpu.convert_layout %r#0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #out>
  tile.store %o, %vc[%c0, %c0] : tensor<64x64xf32, #out>, !tile.view<?x?xf32>
  return
}

// -----

#row = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerBlock = [1, 4]}>
#col = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerBlock = [4, 1]}>

// Inside a loop a reduction across warps waits at a barrier before it
// writes (the previous iteration's readers): it lives only while it runs,
// and shares bytes with the conversion before the loop. A conversion
// between layouts that place every element alike moves nothing and takes
// none.
// CHECK-LABEL: func.func @reuse_in_loop
// CHECK-SAME: tilegpu.shared_memory = 16384 : i64
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 16384>}
// CHECK: tile.reduce max {{.*}} {axis = 1 : i64, keep_dims, tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 512>}
// CHECK: tilegpu.convert_layout
// CHECK-NOT: tilegpu.shared
// CHECK: return
func.func @reuse_in_loop(%x: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32, #row>
  %u = tilegpu.convert_layout %t : tensor<32x128xf32, #row> -> tensor<32x128xf32, #col>
  tile.store %u, %x[%c0, %c0] : tensor<32x128xf32, #col>, !tile.view<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32, #row>
    %m = tile.reduce max %v {axis = 1 : i64, keep_dims} : tensor<32x128xf32, #row> -> tensor<32x1xf32, #row>
    %same = tilegpu.convert_layout %m : tensor<32x1xf32, #row> -> tensor<32x1xf32, #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [[0, 0], [0, 0]]}>>
    tile.store %same, %x[%i, %c0] : tensor<32x1xf32, #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], lane = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp = [[0, 0], [0, 0]]}>>, !tile.view<?x?xf32>
  }
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>

// No user of shared memory: a buffer of 0 bytes.
// CHECK-LABEL: func.func @none
// CHECK-SAME: tilegpu.shared_memory = 0 : i64
// REMARK: remark: shared memory per block: 0 bytes, static
func.func @none(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32, #blocked>
  tile.store %t, %x[%c0] : tensor<512xf32, #blocked>, !tile.view<?xf32>
  return
}

// -----

// Not a kernel: left alone.
// CHECK-LABEL: func.func @helper
// CHECK-NOT: tilegpu.shared_memory
func.func @helper(%a: index) -> index {
  return %a : index
}

// -----

#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#col = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerBlock = [1, 4]}>

// A shared-memory tile lives until its last use through its views (here in
// a loop: to the loop's end); the conversion after the loop takes its bytes
// again. Swizzled, it starts on a 1024-byte boundary.
// CHECK-LABEL: func.func @tile_then_conversion
// CHECK-SAME: tilegpu.shared_memory = 65536 : i64
// CHECK: tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 32768>}
// CHECK: tilegpu.convert_layout {{.*}} {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 65536>}
// REMARK: remark: shared memory: 32768 bytes at offset 0 for a ring of 2 stages
func.func @tile_then_conversion(%v: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x128x64xbf16, swizzle = 128>
  scf.for %i = %c0 to %n step %c1 {
    %s = tilegpu.memdesc_index %ring[%c0] : !tilegpu.memdesc<2x128x64xbf16, swizzle = 128> -> !tilegpu.memdesc<128x64xbf16, swizzle = 128>
    tilegpu.async_copy %v[%i, %c0], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>>
    tilegpu.async_commit_group
  }
  tilegpu.async_wait 0
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32, #row>
  %u = tilegpu.convert_layout %t : tensor<128x128xf32, #row> -> tensor<128x128xf32, #col>
  tile.store %u, %x[%c0, %c0] : tensor<128x128xf32, #col>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// A TMA store's tile, 8 x 32 f32 (1024 bytes), beside a tile read after it
// (16 x 32 bf16, rows padded to 40: 1280 bytes, placed first): past it, on
// the 128-byte swizzle's 1024-byte atom.
// REMARK: remark: shared memory: 1280 bytes at offset 0 for a shared-memory tile
// REMARK: remark: shared memory: 1024 bytes at offset 2048 for a TMA store's tile
// CHECK-LABEL: func.func @tma_store
// CHECK: tile.store {{.*}} {tilegpu.shared = #tilegpu.shared<offset = 2048, bytes = 1024>, tilegpu.tma = 0 : i64}
func.func @tma_store(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<16x32xbf16, swizzle = 0>
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x32xf32, #a>
  tile.store %t, %c[%c0, %c0] {tilegpu.tma = 0 : i64} : tensor<8x32xf32, #a>, !tile.view<?x?xf32>
  %s = tilegpu.memdesc_trans %buf : !tilegpu.memdesc<16x32xbf16, swizzle = 0> -> !tilegpu.memdesc<32x16xbf16, swizzle = 0, transposed>
  return
}
