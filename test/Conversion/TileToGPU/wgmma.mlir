// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts=chip=sm_90a --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=chip=sm_90a --tilegpu-legalize-dots --tilegpu-pipeline=chip=sm_90a --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | FileCheck %s

// Matmul as tile-pipeline-loads leaves it, on sm_90a: both operands stream
// into shared memory by cp.async and the dot runs as wgmma. The stages are
// unpadded (2 x (128 x 64 + 64 x 128) x 2 = 65536 bytes) in the 128-byte
// swizzle, in a buffer aligned to its 1024-byte pattern. Each iteration
// makes its copies visible to the async proxy before the barrier, then
// every warpgroup runs one m64n128k16 per 16-deep K step (4), A K-major
// (row), B [K][N] N-major (row: transposed). The accumulator only goes round
// the loop, so the group stays in flight: the iteration waits for the last
// one (wait 1), synchronises, and only then copies the next tiles, into the
// stage that group read; an interior tile by 16-byte copies from its
// address, an edge tile with the in-bounds byte count. After the loop, the
// last group is waited for.
// CHECK: llvm.mlir.global external @mm__smem() {{.*}}alignment = 1024
// CHECK-LABEL: gpu.func @mm
// CHECK-SAME: tile.dynamic_shared_bytes = 65536 : i64
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.ldmatrix
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.cp.async
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1; // wait
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.wgmma
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK-NOT: nvvm.mma.sync
func.func @mm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// The warp index is broadcast from lane 0 (uniform for ptxas). The
// swizzled destination of a 16-byte unit: column block * rows + row lines
// of 128 bytes, the unit xor'd with the row mod 8. The descriptors, built
// as two 32-bit words: the low one holds start address >> 4 in bits 0-13
// and LBO (16 bytes for K-major A: 1 << 16; for B N-major, 64 rows x 128
// bytes: 512 << 16); the high one SBO (1024 bytes: 64) and the 128-byte
// swizzle (1 << 30), 1073741888. One warpgroup, 2 x 4 instructions per
// iteration.
// CHECK-LABEL: gpu.func @one_group
// CHECK: gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : i32
// CHECK: arith.xori
// CHECK: arith.constant 65536 : i32
// CHECK: arith.constant 33554432 : i32
// CHECK: arith.constant 1073741888 : i32
// CHECK: llvm.bitcast %{{.+}} : vector<2xi32> to i64
// CHECK-COUNT-8: nvvm.wgmma.mma_async
func.func @one_group(%a: !tile.view<?x?xf16>, %b: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xf16> -> tensor<128x64xf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xf16> -> tensor<64x128xf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x64xf16>, tensor<64x128xf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xf16> -> tensor<128x64xf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xf16> -> tensor<64x128xf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf16>, tensor<64x128xf16>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x64xf16>, tensor<64x128xf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Attention's scores at D = 128: Q copied once, K^T read from K's own
// [N][K] stage as a K-major B (col: not transposed). The second dot takes
// P from registers and stays on mma.sync: its V is loaded in the body, not
// ahead, so it has no stage (@pv below has one). The next K tile is copied
// while the group runs; the scores are read at once, so it is waited for
// (0).
// CHECK-LABEL: gpu.func @scores
// CHECK: scf.for
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: scf.if
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK: nvvm.mma.sync
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NOT: wgmma.wait_group
func.func @scores(%q: !tile.view<?x?x?x?xbf16>, %k: !tile.view<?x?x?x?xbf16>, %v: !tile.view<?x?xbf16>, %o: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %k[2] : !tile.view<?x?x?x?xbf16>
  %q4 = tile.load %q[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
  %qt = tile.reshape %q4 : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
  %k0 = tile.load %k[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zo, %kc = %k0) -> (tensor<64x128xf32>, tensor<1x1x64x128xbf16>) {
    %j1 = arith.addi %j, %c1 : index
    %kn = tile.load %k[%c0, %c0, %j1, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
    %kt = tile.reshape %kc : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
    %ktt = tile.permute %kt [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
    %s = tile.dot %qt, %ktt, %z : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %vt = tile.load %v[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %p, %vt, %acc : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    scf.yield %d, %kn : tensor<64x128xf32>, tensor<1x1x64x128xbf16>
  }
  tile.store %r#0, %o[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// With V loaded ahead too, and P in the accumulator's layout (tied to it
// through the rescale by a row reduction of the scores, as in attention),
// P V runs as wgmma with A from registers (FA3): P's registers are its A
// fragments (four b32 per 16-deep K step), V is an
// N-major B (trans-b 1) read from its swizzled stage. The NVVM op takes A
// by descriptor only, so this one is inline asm, the accumulator tied in
// and out. The scores' group is waited for at once (0), as the softmax
// reads them; P V's result is only yielded, so its group is waited for
// at the end of the body, what comes between running with it. The wait
// reads P's fragments (an empty asm), so that nothing reuses their
// registers while the group may still read them.
// CHECK-LABEL: gpu.func @pv
// CHECK: scf.for
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$128, $129, $130, $131}, $132, p, 1, 1, 1;\0A}\0A", "{{(=f,)+}}0,1,{{.*}},63,r,r,r,r,l"
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: nvvm.wgmma.wait
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK-NEXT: llvm.inline_asm has_side_effects "", "r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r"
// CHECK-NOT: llvm.inline_asm
// CHECK: scf.yield
func.func @pv(%q: !tile.view<?x?x?x?xbf16>, %k: !tile.view<?x?x?x?xbf16>, %v: !tile.view<?x?xbf16>, %o: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %k[2] : !tile.view<?x?x?x?xbf16>
  %q4 = tile.load %q[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
  %qt = tile.reshape %q4 : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
  %k0 = tile.load %k[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
  %v0 = tile.load %v[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %zo = arith.constant dense<0.0> : tensor<64x128xf32>
  %r:3 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zo, %kc = %k0, %vc = %v0) -> (tensor<64x128xf32>, tensor<1x1x64x128xbf16>, tensor<64x128xbf16>) {
    %j1 = arith.addi %j, %c1 : index
    %kn = tile.load %k[%c0, %c0, %j1, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x128xbf16>
    %vn = tile.load %v[%j1, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %kt = tile.reshape %kc : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
    %ktt = tile.permute %kt [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
    %s = tile.dot %qt, %ktt, %z : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %mx = tile.reduce max %s {axis = 1 : i64, keep_dims} : tensor<64x64xf32> -> tensor<64x1xf32>
    %alpha = tile.broadcast %mx : tensor<64x1xf32> -> tensor<64x128xf32>
    %scaled = arith.mulf %acc, %alpha : tensor<64x128xf32>
    %d = tile.dot %p, %vc, %scaled : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    scf.yield %d, %kn, %vn : tensor<64x128xf32>, tensor<1x1x64x128xbf16>, tensor<64x128xbf16>
  }
  tile.store %r#0, %o[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A tf32 matmul whose B is stored [K][N] runs as wgmma on the transposed
// product, C^T = B^T A^T (wgmma reads tf32 only K-major): A [128][32]
// staged K-major under the swizzle, B [32][128] as loaded, under the
// swizzle too, both by 16-byte cp.async (8 runs a thread each, 128
// threads). In the loop the warpgroup first waits for all but the last
// iteration's second group (its first still reads the first half's
// fragment registers), then computes its four swizzled offsets into B's
// stage (rows q and q + 4, columns n and n + 4: one xor each) and per
// 8-deep K step loads its 8 b32 fragments of B^T (4 for each 64-row block
// of N) at those offsets plus constants, fences them and runs one
// m64n128k8 per block with A from registers, A's stage read as wgmma's B;
// after two steps it commits them and waits for all but them before the
// second half.
// CHECK-LABEL: gpu.func @tf32
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: scf.for
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1; // wait
// CHECK-COUNT-4: arith.xori
// CHECK-NOT: arith.xori
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
// CHECK-NOT: wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: scf.yield
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait

// With N = 32 (not a multiple of 64, wgmma's M of the transposed product)
// B is copied transposed instead, into [32][64] K-major stages, one
// element per 4-byte cp.async, and wgmma reads both operands by
// descriptor: 8 K steps of one m64n32k8 per 64-row block of M.
// CHECK-LABEL: gpu.func @tf32_copy
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK: scf.for
// CHECK-COUNT-16: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 32, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned

// What wgmma does not take stays on mma.sync: a K tile of 32 16-bit
// elements (rows of 64 bytes, less than the swizzle's 128), and a product
// smaller than 64x64x64 per warpgroup (64x32x64: 32 columns of K-major B).
// Without wgmma the warp index is not broadcast from lane 0 (nothing to
// keep uniform).
// CHECK-LABEL: gpu.func @narrow_k
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync
// CHECK-LABEL: gpu.func @small
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync
func.func @tf32(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xf32> -> tensor<128x32xf32>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x32xf32>, tensor<32x128xf32>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %d = tile.dot %ta, %tb, %acc {precision = 1 : i32} : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x32xf32>, tensor<32x128xf32>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
func.func @tf32_copy(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<128x32xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xf32> -> tensor<128x64xf32>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x32xf32>, tensor<128x64xf32>, tensor<64x32xf32>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xf32> -> tensor<128x64xf32>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xf32> -> tensor<64x32xf32>
    %d = tile.dot %ta, %tb, %acc {precision = 1 : i32} : tensor<128x64xf32>, tensor<64x32xf32>, tensor<128x32xf32>
    scf.yield %d, %an, %bn : tensor<128x32xf32>, tensor<128x64xf32>, tensor<64x32xf32>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x32xf32>, !tile.view<?x?xf32>
  return
}
func.func @narrow_k(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x32xbf16>, tensor<32x128xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x32xbf16>, tensor<32x128xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
func.func @small(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x32xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %b0 = tile.load %b[%n, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x32xf32>, tensor<128x64xbf16>, tensor<32x64xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bn = tile.load %b[%n, %k1] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
    %bt = tile.permute %tb [1, 0] : tensor<32x64xbf16> -> tensor<64x32xbf16>
    %d = tile.dot %ta, %bt, %acc : tensor<128x64xbf16>, tensor<64x32xbf16>, tensor<128x32xf32>
    scf.yield %d, %an, %bn : tensor<128x32xf32>, tensor<128x64xbf16>, tensor<32x64xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x32xf32>, !tile.view<?x?xf32>
  return
}

// -----

// The accumulator rounded to bf16 (C in bf16): packed conversions, then a
// 4x4 transpose of 32-bit words in each quad (xor 1, then xor 2: 4 shuffles
// per 8 registers; 128 registers here) so that each lane stores 16 bytes of
// one row; the edge path stores element by element.
// CHECK-LABEL: gpu.func @bf16_c
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0; // wait
// CHECK-COUNT-64: nvvm.convert.f32x2.to.bf16x2
// CHECK: gpu.shuffle  xor %{{.+}}, %c1_i32{{[_0-9]*}}, %{{.+}} : i32
// CHECK: gpu.shuffle  xor %{{.+}}, %c1_i32{{[_0-9]*}}, %{{.+}} : i32
// CHECK: gpu.shuffle  xor %{{.+}}, %c2_i32{{[_0-9]*}}, %{{.+}} : i32
// CHECK: gpu.shuffle  xor %{{.+}}, %c2_i32{{[_0-9]*}}, %{{.+}} : i32
// CHECK-COUNT-60: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
// CHECK: scf.if
// CHECK-COUNT-16: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 2 : i64} : bf16, !llvm.ptr<1>
func.func @bf16_c(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x64xbf16>, tensor<64x128xbf16>
  }
  %t = arith.truncf %r#0 : tensor<128x128xf32> to tensor<128x128xbf16>
  tile.store %t, %c[%m, %n] : tensor<128x128xbf16>, !tile.view<?x?xbf16>
  return
}

// -----

// An fp8 matmul as torch._scaled_mm takes it, B stored [N][K]: both
// operands K-major in stages of rows of 128 bytes (8 16-byte cp.async per
// thread and operand), each 32-deep K step one m64n128k32 per 64-row block
// (2 blocks, 4 steps), e5m2 read as it is, accumulating into the f32
// registers as the 16-bit wgmma does. The same dot (e4m3)
// with B stored [K][N] stays on mma.sync, its operands widened to f16.
// CHECK-LABEL: gpu.func @fp8
// CHECK-COUNT-16: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
// CHECK: scf.for
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: gpu.func @fp8_n_major
// CHECK-NOT: nvvm.wgmma
// CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32)
func.func @fp8(%a: !tile.view<?x?xf8E5M2>, %b: !tile.view<?x?xf8E5M2>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xf8E5M2>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2>
  %b0 = tile.load %b[%n, %c0] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x128xf8E5M2>, tensor<128x128xf8E5M2>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2>
    %bn = tile.load %b[%n, %k1] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2>
    %bt = tile.permute %tb [1, 0] : tensor<128x128xf8E5M2> -> tensor<128x128xf8E5M2>
    %d = tile.dot %ta, %bt, %acc : tensor<128x128xf8E5M2>, tensor<128x128xf8E5M2>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x128xf8E5M2>, tensor<128x128xf8E5M2>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
func.func @fp8_n_major(%a: !tile.view<?x?xf8E4M3FN>, %b: !tile.view<?x?xf8E4M3FN>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %d = tile.dot %ta, %tb, %acc : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
