// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots=chip=sm_90 --tilegpu-pipeline=chip=sm_90 --tilegpu-allocate-shared-memory=chip=sm_90 --convert-tile-to-gpu=chip=sm_90 | FileCheck %s

// A layout that covers more than its tile holds each element in several
// threads (here the warp bit: 2 warps of 32 lanes over 32 elements). Only
// the thread with the first copy, its replicating bits 0, writes it to
// shared memory: two threads never write one address.
// CHECK-LABEL: gpu.func @replicated
// CHECK: gpu.barrier
// CHECK: %[[BIT:.*]] = arith.andi %{{.*}}, %c1{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[BIT]], %c0{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
#rep = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
#dst = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @replicated(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #rep>
  %u = tilegpu.convert_layout %t : tensor<32xf32, #rep> -> tensor<32xf32, #dst>
  tile.store %u, %y[%c0] : tensor<32xf32, #dst>, !tile.view<?xf32>
  return
}

// -----

// A source layout that covers its tile once writes from every thread,
// unconditionally.
// CHECK-LABEL: gpu.func @distinct
// CHECK: gpu.barrier
// CHECK-NOT: scf.if
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: gpu.barrier
#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
#two = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @distinct(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<64xf32, #one>
  %u = tilegpu.convert_layout %t : tensor<64xf32, #one> -> tensor<64xf32, #two>
  tile.store %u, %y[%c0] : tensor<64xf32, #two>, !tile.view<?xf32>
  return
}

// -----

// A dot operand copied into its shared-memory stage by cp.async from a
// layout that covers 64 rows of a 16-row tile (8 warps of 8 rows): warps 2
// to 7 hold copies of warps 0 and 1, and do not copy (two copies in flight
// to one address would race and read global memory twice). The rhs covers
// its tile once and is copied by every thread.
// CHECK-LABEL: gpu.func @mm16
// CHECK: %[[BITS:.*]] = arith.andi %{{.*}}, %c6{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[BITS]], %c0{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: scf.if %[[FIRST]]
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [8, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [8, 1]}>
#mma = #tilegpu.mma<warps = [1, 8]>
func.func @mm16(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<16x128xf32, #mma>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<16x32xbf16, #a>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<16x128xf32, #mma>, tensor<16x32xbf16, #a>, tensor<32x128xbf16, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<16x32xbf16, #a>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16, #b>
    %d = tile.dot %ta, %tb, %acc : tensor<16x32xbf16, #a>, tensor<32x128xbf16, #b>, tensor<16x128xf32, #mma>
    scf.yield %d, %an, %bn : tensor<16x128xf32, #mma>, tensor<16x32xbf16, #a>, tensor<32x128xbf16, #b>
  }
  tile.store %r#0, %c[%m, %n] : tensor<16x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// An mma accumulator on fewer warps than the kernel (1 x 2 of 4): warp bit
// 1, which the layout does not have, replicates; only warps 0 and 1 write
// the tile to shared memory.
// CHECK-LABEL: gpu.func @fewer_warps
// CHECK: gpu.barrier
// CHECK: %[[BIT:.*]] = arith.andi %{{.*}}, %c2{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[BIT]], %c0{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
#mma2 = #tilegpu.mma<warps = [1, 2]>
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
func.func @fewer_warps(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<1.0> : tensor<16x16xf32, #mma2>
  %u = tilegpu.convert_layout %z : tensor<16x16xf32, #mma2> -> tensor<16x16xf32, #rows>
  tile.store %u, %y[%c0, %c0] : tensor<16x16xf32, #rows>, !tile.view<?x?xf32>
  return
}

// -----

// A store to global memory from a layout that covers twice its tile (the
// warp bit replicates): only warp 0's threads store, each element once.
// CHECK-LABEL: gpu.func @store_replicated
// CHECK: %[[WARP:.*]] = arith.divui %thread_id_x, %c32
// CHECK-NOT: llvm.store
// CHECK: %[[BIT:.*]] = arith.andi %[[WARP]], %c1{{.*}} : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[BIT]], %c0{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<1>
// CHECK: }
// CHECK-NOT: llvm.store
// CHECK: gpu.return
#rep = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @store_replicated(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #rep>
  tile.store %t, %y[%c0] : tensor<32xf32, #rep>, !tile.view<?xf32>
  return
}

// -----

// A register bit that replicates (2 registers per thread over a one-element
// tile, and every lane bit too): one thread stores its first register once.
// CHECK-LABEL: gpu.func @store_register_replica
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-1: llvm.store {{.*}} : f32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: gpu.return
#regs = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @store_register_replica(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1xf32, #regs>
  tile.store %t, %y[%c0] : tensor<1xf32, #regs>, !tile.view<?xf32>
  return
}

// -----

// A scatter from a replicated layout: warp 0 only, each element once.
// CHECK-LABEL: gpu.func @scatter_replicated
// CHECK: %[[WARP:.*]] = arith.divui %thread_id_x, %c32
// CHECK-NOT: llvm.store
// CHECK: %[[BIT:.*]] = arith.andi %[[WARP]], %c1{{.*}} : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[BIT]], %c0{{.*}} : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
// CHECK: gpu.return
#rep = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @scatter_replicated(%x: !tile.view<?xf32>, %idx: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %i = tile.load %idx[%c0] : !tile.view<?xi32> -> tensor<32xi32, #rep>
  %v = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #rep>
  tile.scatter %v, %x[%i] : tensor<32xf32, #rep>, !tile.view<?xf32>, [tensor<32xi32, #rep>]
  return
}
