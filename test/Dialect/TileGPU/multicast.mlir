// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-multicast | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-multicast=remarks=true --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-multicast --tilegpu-persistent | FileCheck %s --check-prefix=PERSISTENT
//
// A warp-specialized matmul asking for clusters (tile.cluster = 2): A's
// tiles along M follow block_id(1), B's along N do not, so the blocks
// paired along y share B. B's copies (the producer's and the consumers'
// before their loop) multicast, A's do not; B's empty mbarriers count both
// blocks' consumers, whose releases arrive at both; a cluster barrier
// after the entry's barrier and one before the return; tilegpu.cluster = 2.
// The kernel as it was (the else branch) shares nothing. Made persistent
// next, its last release per tile stays one per ring, B's at both blocks.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @pair(
// CHECK-SAME: tilegpu.cluster = 2 : i64
// CHECK: tilegpu.mbarrier_init %[[EA:[^ ]*]] count 128 : !tilegpu.mbarriers<3>
// CHECK: tilegpu.mbarrier_init %[[EB:[^ ]*]] count 4 cluster : !tilegpu.mbarriers<3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tilegpu.cluster_barrier
// CHECK: tilegpu.warp_specialize
// CHECK: tilegpu.mbarrier_wait %[[EA]]
// CHECK: tilegpu.async_copy %arg0{{.*}} tma(%{{.*}}, 0) :
// CHECK: tilegpu.mbarrier_wait %[[EB]]
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.async_copy %arg1{{.*}} tma(%{{.*}}, 1) multicast :
// CHECK: } consumer
// CHECK: tilegpu.async_copy %arg0{{.*}} tma(%{{.*}}, 0) :
// CHECK: tilegpu.async_copy %arg1{{.*}} tma(%{{.*}}, 1) multicast :
// CHECK: tilegpu.mbarrier_arrive %[[EA]][%{{.*}}] :
// CHECK: tilegpu.mbarrier_arrive %[[EB]][%{{.*}}] cluster :
// CHECK: } else {
// CHECK-NOT: multicast
// CHECK-NOT: cluster :
// CHECK: tilegpu.cluster_barrier
// CHECK-NEXT: return
// REMARK: remark: clustered: blocks in pairs along the grid's y (a persistent launch's x), 1 of its 2 ring(s) multicast, each block issuing half their column blocks into both; the consumers of both release those stages
// PERSISTENT-LABEL: func.func @pair(
// PERSISTENT: tilegpu.mma_wait 0
// PERSISTENT: %[[LS:.*]] = arith.remui
// PERSISTENT-NEXT: tilegpu.mbarrier_arrive %{{.*}}[%[[LS]]] :
// PERSISTENT-NEXT: tilegpu.mbarrier_arrive %{{.*}}[%[[LS]]] cluster :
// PERSISTENT-NEXT: }
func.func @pair__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @pair(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @pair__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.persistent = 1 : i64, tile.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%n, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%n, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%n, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// The loop's trip count follows block_id(1) (a causal attention's): the
// pair would fill B's ring a different number of times. Left alone.
// CHECK-LABEL: func.func @bounds(
// CHECK-NOT: tilegpu.cluster
// CHECK-NOT: multicast
// CHECK: return
// REMARK: remark: not clustered: its loops' bounds depend on block_id(1), so the two blocks of a pair would fill their rings a different number of times
func.func @bounds__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @bounds(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @bounds__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = arith.addi %m, %c1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%n, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%n, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%n, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Both rings' tiles follow block_id(1): nothing to share.
// CHECK-LABEL: func.func @none_shared(
// CHECK-NOT: tilegpu.cluster
// CHECK-NOT: multicast
// CHECK: return
// REMARK: remark: not clustered: the tile indices of every ring it fills depend on block_id(1): the blocks of a pair share no tile
func.func @none_shared__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @none_shared(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @none_shared__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Without warp specialization there is no producer to multicast.
// CHECK-LABEL: func.func @not_specialized(
// CHECK-NOT: tilegpu.cluster
// CHECK: return
// REMARK: remark: not clustered: it is not warp-specialized (specialize(1)), whose producer multicasts
func.func @not_specialized__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @not_specialized(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @not_specialized__grid, tile.num_warps = 4 : i64, tile.cluster = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%n, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%n, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%n, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Clusters of 4 are not made (hand-written IR; the source allows 1 or 2).
// CHECK-LABEL: func.func @four(
// CHECK-NOT: tilegpu.cluster
// CHECK: return
// REMARK: remark: not clustered: clusters of 4 blocks are not supported (2)
func.func @four__grid(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) -> (index, index, index) {
  %c64 = arith.constant 64 : index
  %c1 = arith.constant 1 : index
  %n = tile.dim %vc[1] : !tile.view<?x?xf32>
  %m = tile.dim %vc[0] : !tile.view<?x?xf32>
  %gx = tile.cdiv %n, %c64 : index
  %gy = tile.cdiv %m, %c64 : index
  return %gx, %gy, %c1 : index, index, index
}

func.func @four(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.grid = @four__grid, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.cluster = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tile.block_id 0
  %m = tile.block_id 1
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%n, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %a1 = tile.load %va[%m, %c1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b1 = tile.load %vb[%n, %c1] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 1>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:5 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %ta1 = %a1, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>) {
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%m, %k2] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 3, swizzle = 128>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%n, %k2] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 128>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bt = tile.permute %tb [1, 0] : tensor<64x64xbf16, #a> -> tensor<64x64xbf16, #a>
    %d = tile.dot %ta, %bt, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %ta1, %tb1, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%m, %n] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
