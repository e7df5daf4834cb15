// mma.sync targets (sm_80, sm_90); sm_90a runs these dots as wgmma (wgmma.mlir).
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts=chip=sm_90 --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots=chip=sm_90 --tilegpu-pipeline=chip=sm_90 --tilegpu-allocate-shared-memory=chip=sm_90 --convert-tile-to-gpu=chip=sm_90 | FileCheck %s

// Matmul as tile-pipeline-loads leaves it: each operand loaded before the
// loop and one iteration ahead in the body. Both live in the kernel's
// shared memory (two stages each, 2 x (10240 + 8704) bytes: static, under
// 48 KiB), filled by cp.async: the
// first stage before the loop, one commit group per load; the loop carries
// only the accumulator and the stage index; each iteration waits for its
// stage and synchronises once, then copies the next tiles into the other
// stage and runs the dot on this one without staging registers.
// CHECK: llvm.mlir.global internal @mm__smem() {{.*}}addr_space = 3 : i32{{.*}} : !llvm.array<37888 x i8>
// CHECK-LABEL: gpu.func @mm
// CHECK-NOT: tile.dynamic_shared_bytes
// CHECK-COUNT-2: nvvm.cp.async.shared.global {{.*}}, 16, cache =  cg, {{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} -> ({{(f32, )+}}i32) {
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: arith.remui
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-2: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.ldmatrix
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
func.func @mm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
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

// -----

// Padding other than zero cannot come from cp.async's zero fill, and a
// carried tile also used outside a dot needs its registers: both stay in
// registers and are staged by the dot.
// CHECK-LABEL: gpu.func @registers
// CHECK-NOT: nvvm.cp.async
// CHECK: scf.for {{.*}} -> ({{.*}}vector<2xbf16>
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: nvvm.ldmatrix
func.func @registers(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %s: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] {padding = 1.0 : bf16} : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x32xbf16>, tensor<32x128xbf16>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %a[%m, %k1] {padding = 1.0 : bf16} : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    %bn = tile.load %b[%k1, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    tile.store %tb, %s[%k, %n] : tensor<32x128xbf16>, !tile.view<?x?xbf16>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x32xbf16>, tensor<32x128xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Attention's pattern: Q [64, 64] loaded before the loop (4-D, reshaped)
// and K loaded one iteration ahead, reaching the dot as K^T through a
// reshape and a transpose. Both live in shared memory: Q in one stage,
// copied once before the loop; K in two, each stage holding K as [N][K],
// which the dot reads with non-transposed ldmatrix (no permute through
// shared memory, no staging stores). Q's stage: 64 * 72 * 2 = 9216 bytes,
// K's two: 18432, static shared memory.
// CHECK: llvm.mlir.global internal @scores__smem() {{.*}} : !llvm.array<27648 x i8>
// CHECK-LABEL: gpu.func @scores
// CHECK-NOT: tile.dynamic_shared_bytes
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-NOT: mma_layout<col>
// CHECK: nvvm.mma.sync
func.func @scores(%q: !tile.view<?x?x?x?xbf16>, %k: !tile.view<?x?x?x?xbf16>, %o: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %k[2] : !tile.view<?x?x?x?xbf16>
  %q4 = tile.load %q[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x64xbf16>
  %qt = tile.reshape %q4 : tensor<1x1x64x64xbf16> -> tensor<64x64xbf16>
  %k0 = tile.load %k[%c0, %c0, %c0, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z, %kc = %k0) -> (tensor<64x64xf32>, tensor<1x1x64x64xbf16>) {
    %j1 = arith.addi %j, %c1 : index
    %kn = tile.load %k[%c0, %c0, %j1, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x64xbf16>
    %kt = tile.reshape %kc : tensor<1x1x64x64xbf16> -> tensor<64x64xbf16>
    %ktt = tile.permute %kt [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tile.dot %qt, %ktt, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %s, %kn : tensor<64x64xf32>, tensor<1x1x64x64xbf16>
  }
  tile.store %r#0, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Three stages (tile-pipeline-loads shared-memory-stages=3): windows of two
// carried tiles per operand. Stages 0 and 1 are filled before the loop,
// iteration by iteration; each iteration waits until at most the 2 groups
// of the next iteration (A and B) are in flight, then fills the stage two
// ahead ((s + 2) mod 3).
// CHECK-LABEL: gpu.func @three_stages
// CHECK-SAME: tile.dynamic_shared_bytes = 56832 : i64
// CHECK-COUNT-4: nvvm.cp.async.commit.group
// CHECK: scf.for {{.*}} -> ({{(f32, )+}}i32) {
// CHECK: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[P:.*]] = arith.addi %{{.*}}, %[[C2]] : i32
// CHECK: arith.remui %[[P]], %c3_i32{{.*}} : i32
// CHECK: nvvm.ldmatrix
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.wait.group 0
func.func @three_stages(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %a[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %b0 = tile.load %b[%c0, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %a1 = tile.load %a[%m, %c1] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %b1 = tile.load %b[%c1, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %wa0 = %a0, %wa1 = %a1, %wb0 = %b0, %wb1 = %b1) -> (tensor<128x128xf32>, tensor<128x32xbf16>, tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<32x128xbf16>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %a[%m, %k2] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    %bn = tile.load %b[%k2, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %d = tile.dot %wa0, %wb0, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %d, %wa1, %an, %wb1, %bn : tensor<128x128xf32>, tensor<128x32xbf16>, tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<32x128xbf16>
  }
  tile.store %r#0, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
