// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads=max-bytes-per-thread=0 | FileCheck %s --check-prefix=OFF

// The matmul loop: both operand loads go one iteration ahead. The first
// iteration's are loaded before the loop at the lower bound; each iteration
// loads the next ones at iv + step, first thing, and yields them.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[M:.*]] = tile.block_id 1
// CHECK: %[[A0:.*]] = tile.load %arg0[%[[M]], %[[LB:.*]]] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
// CHECK: %[[B0:.*]] = tile.load %arg1[%[[LB]], %{{.*}}] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
// CHECK: %[[R:.*]]:3 = scf.for %[[K:.*]] = %[[LB]] to %{{.*}} step %[[S:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B0]])
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K]], %[[S]] : index
// CHECK-NEXT: %[[AN:.*]] = tile.load %arg0[%[[M]], %[[K1]]]
// CHECK-NEXT: %[[BN:.*]] = tile.load %arg1[%[[K1]], %{{.*}}]
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]], %[[AN]], %[[BN]]
// CHECK: tile.store %[[R]]#0
// OFF-LABEL: func.func @matmul
// OFF: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,]*}}) -> (tensor<128x128xf32>)
func.func @matmul(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %n = tile.block_id 0
  %m = tile.block_id 1
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %a[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%m, %k] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    %tb = tile.load %b[%k, %n] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.store %r, %c[%m, %n] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Index arithmetic on the induction variable inside the body is cloned for
// both the first iteration and the next one.
// CHECK-LABEL: func.func @index_math
// CHECK: %[[F:.*]] = arith.muli %[[LB:.*]], %[[TWO:.*]] : index
// CHECK: tile.load %arg0[%[[F]]]
// CHECK: scf.for %[[I:.*]] = %[[LB]]
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[I]]
// CHECK-NEXT: %[[N:.*]] = arith.muli %[[I1]], %[[TWO]] : index
// CHECK-NEXT: tile.load %arg0[%[[N]]]
func.func @index_math(%x: !tile.view<?xf32>, %n: index) -> tensor<64xf32> attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<64xf32>) {
    %j = arith.muli %i, %c2 : index
    %t = tile.load %x[%j] : !tile.view<?xf32> -> tensor<64xf32>
    %u = arith.addf %s, %t : tensor<64xf32>
    scf.yield %u : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// A loop that stores is left alone: the store could feed a later load.
// CHECK-LABEL: func.func @stores
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
func.func @stores(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %n: index) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<64xf32>
    tile.store %t, %y[%i] : tensor<64xf32>, !tile.view<?xf32>
  }
  return
}

// -----

// Indices that depend on what the loop carries cannot be computed ahead.
// CHECK-LABEL: func.func @carried_index
// CHECK: scf.for {{.*}} iter_args(%[[J:[^ ]*]] = %{{[^)]*}}) -> (index)
// CHECK-NEXT: tile.load %arg0[%[[J]]]
func.func @carried_index(%x: !tile.view<?xf32>, %n: index) -> index attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%j = %c0) -> (index) {
    %t = tile.load %x[%j] : !tile.view<?xf32> -> tensor<64xf32>
    %k = tile.dim %x[0] : !tile.view<?xf32>
    %j1 = arith.addi %j, %k : index
    scf.yield %j1 : index
  }
  return %r : index
}

// -----

// The budget is per thread: 8 KiB tiles on one warp take 256 bytes each, so
// at most 64 bytes ahead pipelines nothing; tile.pipeline_bytes = 256 lets
// one of the two loads go ahead.
// CHECK-LABEL: func.func @budget
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^)]*}}) -> (tensor<2048xf32>) {
// CHECK-LABEL: func.func @budget_raised
// CHECK: scf.for {{.*}} -> (tensor<2048xf32>, tensor<2048xf32>) {
// CHECK-NEXT: arith.addi
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.load
// CHECK-NEXT: arith.addf
func.func @budget(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %n: index) -> tensor<2048xf32> attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<2048xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<2048xf32>) {
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<2048xf32>
    %u = tile.load %y[%i] : !tile.view<?xf32> -> tensor<2048xf32>
    %v = arith.addf %t, %u : tensor<2048xf32>
    %w = arith.addf %s, %v : tensor<2048xf32>
    scf.yield %w : tensor<2048xf32>
  }
  return %r : tensor<2048xf32>
}
func.func @budget_raised(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %n: index) -> tensor<2048xf32> attributes {tile.kernel, tile.num_warps = 1 : i64, tile.pipeline_bytes = 256 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<2048xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (tensor<2048xf32>) {
    %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<2048xf32>
    %u = tile.load %y[%i] : !tile.view<?xf32> -> tensor<2048xf32>
    %v = arith.addf %t, %u : tensor<2048xf32>
    %w = arith.addf %s, %v : tensor<2048xf32>
    scf.yield %w : tensor<2048xf32>
  }
  return %r : tensor<2048xf32>
}

// -----

// 16 KiB dot operands on one warp are 512 bytes per thread each: over the
// budget, unless the GPU backend keeps dot operands in shared memory. There,
// a loop with one dot takes three stages by default (its rings, 3 x 32 KiB,
// fit 160 KiB): each operand goes two iterations ahead, a window of two.
// CHECK-LABEL: func.func @dot_operands
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^)]*}}) -> (tensor<64x64xf32>) {
// SHARED-LABEL: func.func @dot_operands
// SHARED: scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x128xbf16>, tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<128x64xbf16>) {
// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads=dot-operands-in-shared-memory=true | FileCheck %s --check-prefix=SHARED
func.func @dot_operands(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %ta = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %d = tile.dot %ta, %tb, %acc : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Attention's K: a 4-D load reaching the dot through a reshape and a
// transpose is a dot operand too (three stages: the loop has one dot); a
// tile also used elsewhere is not.
// SHARED-LABEL: func.func @through_views
// SHARED: scf.for {{.*}} -> (tensor<64x64xf32>, tensor<1x1x128x64xbf16>, tensor<1x1x128x64xbf16>) {
// SHARED: arith.addi
// SHARED-NEXT: tile.load %arg1
// SHARED-NEXT: tile.load %arg2
func.func @through_views(%q: !tile.view<?x?xbf16>, %k: !tile.view<?x?x?x?xbf16>, %v: !tile.view<?x?x?x?xbf16>, %o: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %z2 = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z2) -> (tensor<64x64xf32>) {
    %k4 = tile.load %k[%c0, %c0, %j, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x128x64xbf16>
    %v4 = tile.load %v[%c0, %c0, %j, %c0] : !tile.view<?x?x?x?xbf16> -> tensor<1x1x64x64xbf16>
    %kt = tile.reshape %k4 : tensor<1x1x128x64xbf16> -> tensor<128x64xbf16>
    %ktt = tile.permute %kt [1, 0] : tensor<128x64xbf16> -> tensor<64x128xbf16>
    %s = tile.dot %qt, %ktt, %z : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32>
    %vt = tile.reshape %v4 : tensor<1x1x64x64xbf16> -> tensor<64x64xbf16>
    %ve = arith.extf %vt : tensor<64x64xbf16> to tensor<64x64xf32>
    %a = arith.addf %acc, %ve : tensor<64x64xf32>
    scf.yield %a : tensor<64x64xf32>
  }
  tile.store %r, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Three stages: dot operands two iterations ahead. Before the loop, the
// tiles of iterations 0 and 1, iteration by iteration (a0 b0 a1 b1: the
// order the GPU backend's cp.async groups complete in); the loop carries a
// window of two per operand, uses the first, loads iteration iv + 2 and
// yields the window shifted.
// STAGES3-LABEL: func.func @matmul
// STAGES3: %[[A0:.*]] = tile.load %arg0[%{{.*}}, %[[LB:[a-z0-9_]+]]]
// STAGES3: %[[B0:.*]] = tile.load %arg1[%[[LB]], %{{.*}}]
// STAGES3: %[[I1:.*]] = arith.addi %[[LB]], %{{.*}} : index
// STAGES3: %[[A1:.*]] = tile.load %arg0[%{{.*}}, %[[I1]]]
// STAGES3: %[[B1:.*]] = tile.load %arg1[%[[I1]], %{{.*}}]
// STAGES3: scf.for %[[K:.*]] = %[[LB]] to %{{.*}} step %[[S:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[WA0:.*]] = %[[A0]], %[[WA1:.*]] = %[[A1]], %[[WB0:.*]] = %[[B0]], %[[WB1:.*]] = %[[B1]])
// STAGES3: %[[K2:.*]] = arith.addi %[[K]], %{{.*}} : index
// STAGES3-NEXT: %[[AN:.*]] = tile.load %arg0[%{{.*}}, %[[K2]]]
// STAGES3-NEXT: %[[BN:.*]] = tile.load %arg1[%[[K2]], %{{.*}}]
// STAGES3-NEXT: %[[D:.*]] = tile.dot %[[WA0]], %[[WB0]], %[[ACC]]
// STAGES3-NEXT: scf.yield %[[D]], %[[WA1]], %[[AN]], %[[WB1]], %[[BN]]
// RUN: tilegym-opt %s --split-input-file --tile-pipeline-loads="dot-operands-in-shared-memory=true shared-memory-stages=3" | FileCheck %s --check-prefix=STAGES3

// -----

// By default a loop with more than one dot (attention's two) takes two
// stages: each staged operand goes one iteration ahead.
// SHARED-LABEL: func.func @two_dots
// SHARED: scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x64xbf16>, tensor<64x64xbf16>) {
func.func @two_dots(%q: !tile.view<?x?xbf16>, %k: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>, %o: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) {
    %kt = tile.load %k[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %vt = tile.load %v[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %ktt = tile.permute %kt [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tile.dot %qt, %ktt, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    %p = arith.truncf %s : tensor<64x64xf32> to tensor<64x64xbf16>
    %d = tile.dot %p, %vt, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.store %r, %o[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// One dot whose three rings would pass 160 KiB (f32 operands of 32 KiB
// each: 3 x 64 KiB) takes two stages.
// SHARED-LABEL: func.func @large_rings
// SHARED: scf.for {{.*}} -> (tensor<128x128xf32>, tensor<128x64xf32>, tensor<64x128xf32>) {
func.func @large_rings(%a: !tile.view<?x?xf32>, %b: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %ta = tile.load %a[%c0, %k] : !tile.view<?x?xf32> -> tensor<128x64xf32>
    %tb = tile.load %b[%k, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
    %d = tile.dot %ta, %tb, %acc : tensor<128x64xf32>, tensor<64x128xf32>, tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.store %r, %c[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
