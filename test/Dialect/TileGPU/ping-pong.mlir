// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-overlap-dots --tilegpu-ping-pong | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-warp-specialize --tilegpu-overlap-dots --tilegpu-ping-pong=remarks=true --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
//
// Attention's loop, reduced (as in overlap-dots.mlir), on 8 consumer warps
// with overlap(2): after the overlap, each run of wgmma issues in the
// consumers' branch on the mbarriers is a turn. The last warpgroup passes
// the first turn at the branch's start; the peeled Q K^T, the loop's Q K^T
// with the deferred P V, and the last P V each sit between a turn_wait
// and a turn_pass, with no mma_wait inside; warpgroup 0 takes the last
// turn at the branch's end. The cp.async branch has no turns.

// CHECK-LABEL: func.func @ping_pong(
// CHECK: } consumer
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.turn_pass only_last
// CHECK-NOT: tilegpu.turn
// CHECK: tilegpu.mbarrier_wait
// CHECK: tilegpu.turn_wait
// CHECK-NEXT: %[[S0:.*]] = tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK-NOT: tilegpu.turn
// CHECK: tilegpu.mma_wait 0 %[[S0]]
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK: tilegpu.turn_wait
// CHECK-NEXT: %[[S:.*]] = tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.memdesc_index
// CHECK-NEXT: %[[O:.*]] = tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK-NOT: tilegpu.turn
// CHECK: tilegpu.mma_wait 1 %[[S]]
// CHECK-NOT: tilegpu.turn
// CHECK: tilegpu.mma_wait 0 %[[O]]
// CHECK-NOT: tilegpu.turn
// CHECK: scf.yield
// CHECK: tilegpu.memdesc_index
// CHECK-NEXT: tilegpu.turn_wait
// CHECK-NEXT: %[[LO:.*]] = tilegpu.mma wgmma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK-NEXT: tilegpu.mma_wait 0 %[[LO]]
// CHECK: } else {
// CHECK-NOT: tilegpu.turn
// CHECK: tile.store
// CHECK-NEXT: tilegpu.turn_wait only_first
// CHECK-NEXT: } else {
// CHECK-NOT: tilegpu.turn
// CHECK: return
// REMARK: remark: consumer warpgroups take turns issuing wgmma dots (ping-pong): 2 warpgroups, 3 turn(s) in the code, each covering issues only, so one warpgroup's dots run under the others' work on their results

#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8], [0, 16]]}>
#mma = #tilegpu.mma<warps = [8, 1]>
func.func @ping_pong(%q: !tile.view<128x64xbf16>, %k: !tile.view<?x64xbf16>, %v: !tile.view<?x64xbf16>, %o: !tile.view<128x64xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64, tile.specialize = 1 : i64, tile.overlap = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [64, 64]>, #tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %0 = tile.load %q[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 2 : i64} : !tile.view<128x64xbf16> -> tensor<128x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %half = arith.constant dense<5.000000e-01> : tensor<128x64xf32, #mma>
  %1 = tile.dim %k[0] : !tile.view<?x64xbf16>
  %2 = tile.cdiv %1, %c64 : index
  %3 = tile.load %k[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %4 = tile.load %v[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %l0 = arith.constant dense<0.000000e+00> : tensor<128x1xf32, #mma>
  %5:4 = scf.for %j = %c0 to %2 step %c1 iter_args(%acc = %cst, %l = %l0, %kt = %3, %vt = %4) -> (tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
    %6 = arith.addi %j, %c1 : index
    %7 = tile.load %k[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %8 = tile.load %v[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %9 = tile.permute %kt [1, 0] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #linear>
    %10 = tile.dot %0, %9, %cst {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #blocked>, tensor<64x64xbf16, #linear>, tensor<128x64xf32, #mma>
    %11 = tile.reduce max %10 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %12 = tile.broadcast %11 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %13 = arith.subf %10, %12 : tensor<128x64xf32, #mma>
    %14 = math.exp2 %13 : tensor<128x64xf32, #mma>
    %15 = arith.truncf %14 : tensor<128x64xf32, #mma> to tensor<128x64xbf16, #mma>
    %17 = arith.mulf %acc, %half : tensor<128x64xf32, #mma>
    %18 = tile.dot %15, %vt, %17 {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #mma>, tensor<64x64xbf16, #blocked>, tensor<128x64xf32, #mma>
    %sum = tile.reduce sum %14 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %lnext = arith.addf %l, %sum : tensor<128x1xf32, #mma>
    scf.yield %18, %lnext, %7, %8 : tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>
  }
  %lb = tile.broadcast %5#1 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %out = arith.divf %5#0, %lb : tensor<128x64xf32, #mma>
  tile.store %out, %o[%c0, %c0] : tensor<128x64xf32, #mma>, !tile.view<128x64xf32>
  return
}

// -----

// overlap(1): the overlap alone, no turns.
// CHECK-LABEL: func.func @overlap_only(
// CHECK-NOT: tilegpu.turn
// CHECK: return
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8], [0, 16]]}>
#mma = #tilegpu.mma<warps = [8, 1]>
func.func @overlap_only(%q: !tile.view<128x64xbf16>, %k: !tile.view<?x64xbf16>, %v: !tile.view<?x64xbf16>, %o: !tile.view<128x64xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64, tile.specialize = 1 : i64, tile.overlap = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [64, 64]>, #tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %0 = tile.load %q[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 2 : i64} : !tile.view<128x64xbf16> -> tensor<128x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %half = arith.constant dense<5.000000e-01> : tensor<128x64xf32, #mma>
  %1 = tile.dim %k[0] : !tile.view<?x64xbf16>
  %2 = tile.cdiv %1, %c64 : index
  %3 = tile.load %k[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %4 = tile.load %v[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %l0 = arith.constant dense<0.000000e+00> : tensor<128x1xf32, #mma>
  %5:4 = scf.for %j = %c0 to %2 step %c1 iter_args(%acc = %cst, %l = %l0, %kt = %3, %vt = %4) -> (tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
    %6 = arith.addi %j, %c1 : index
    %7 = tile.load %k[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %8 = tile.load %v[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %9 = tile.permute %kt [1, 0] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #linear>
    %10 = tile.dot %0, %9, %cst {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #blocked>, tensor<64x64xbf16, #linear>, tensor<128x64xf32, #mma>
    %11 = tile.reduce max %10 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %12 = tile.broadcast %11 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %13 = arith.subf %10, %12 : tensor<128x64xf32, #mma>
    %14 = math.exp2 %13 : tensor<128x64xf32, #mma>
    %15 = arith.truncf %14 : tensor<128x64xf32, #mma> to tensor<128x64xbf16, #mma>
    %17 = arith.mulf %acc, %half : tensor<128x64xf32, #mma>
    %18 = tile.dot %15, %vt, %17 {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #mma>, tensor<64x64xbf16, #blocked>, tensor<128x64xf32, #mma>
    %sum = tile.reduce sum %14 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %lnext = arith.addf %l, %sum : tensor<128x1xf32, #mma>
    scf.yield %18, %lnext, %7, %8 : tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>
  }
  %lb = tile.broadcast %5#1 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %out = arith.divf %5#0, %lb : tensor<128x64xf32, #mma>
  tile.store %out, %o[%c0, %c0] : tensor<128x64xf32, #mma>, !tile.view<128x64xf32>
  return
}

// -----

// One consumer warpgroup: nobody to take turns with.
// CHECK-LABEL: func.func @one_warpgroup(
// CHECK-NOT: tilegpu.turn
// CHECK: return
// REMARK: remark: consumer warpgroups do not take turns: its consumers are 4 warps, not 2 to 14 whole warpgroups
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]], lane = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8]]}>
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @one_warpgroup(%q: !tile.view<64x64xbf16>, %k: !tile.view<?x64xbf16>, %v: !tile.view<?x64xbf16>, %o: !tile.view<64x64xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.specialize = 1 : i64, tile.overlap = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [64, 64]>, #tilegpu.tensor_map<view = 0, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %0 = tile.load %q[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 2 : i64} : !tile.view<64x64xbf16> -> tensor<64x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32, #mma>
  %1 = tile.dim %k[0] : !tile.view<?x64xbf16>
  %2 = tile.cdiv %1, %c64 : index
  %3 = tile.load %k[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %4 = tile.load %v[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %l0 = arith.constant dense<0.000000e+00> : tensor<64x1xf32, #mma>
  %5:4 = scf.for %j = %c0 to %2 step %c1 iter_args(%acc = %cst, %l = %l0, %kt = %3, %vt = %4) -> (tensor<64x64xf32, #mma>, tensor<64x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
    %6 = arith.addi %j, %c1 : index
    %7 = tile.load %k[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %8 = tile.load %v[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %9 = tile.permute %kt [1, 0] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #linear>
    %10 = tile.dot %0, %9, %cst {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #linear>, tensor<64x64xf32, #mma>
    %11 = tile.reduce max %10 {axis = 1 : i64, keep_dims} : tensor<64x64xf32, #mma> -> tensor<64x1xf32, #mma>
    %12 = tile.broadcast %11 : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %13 = arith.subf %10, %12 : tensor<64x64xf32, #mma>
    %14 = math.exp2 %13 : tensor<64x64xf32, #mma>
    %15 = arith.truncf %14 : tensor<64x64xf32, #mma> to tensor<64x64xbf16, #mma>
    %17 = arith.mulf %acc, %half : tensor<64x64xf32, #mma>
    %18 = tile.dot %15, %vt, %17 {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #mma>
    %sum = tile.reduce sum %14 {axis = 1 : i64, keep_dims} : tensor<64x64xf32, #mma> -> tensor<64x1xf32, #mma>
    %lnext = arith.addf %l, %sum : tensor<64x1xf32, #mma>
    scf.yield %18, %lnext, %7, %8 : tensor<64x64xf32, #mma>, tensor<64x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>
  }
  %lb = tile.broadcast %5#1 : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
  %out = arith.divf %5#0, %lb : tensor<64x64xf32, #mma>
  tile.store %out, %o[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<64x64xf32>
  return
}

// -----

// Not warp-specialized: no consumer warpgroups.
// CHECK-LABEL: func.func @not_specialized(
// CHECK-NOT: tilegpu.turn
// CHECK: return
// REMARK: remark: consumer warpgroups do not take turns: it is not warp-specialized (specialize(1))
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8], [0, 16]]}>
#mma = #tilegpu.mma<warps = [8, 1]>
func.func @not_specialized(%q: !tile.view<128x64xbf16>, %k: !tile.view<?x64xbf16>, %v: !tile.view<?x64xbf16>, %o: !tile.view<128x64xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64, tile.overlap = 2 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [64, 64]>, #tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %0 = tile.load %q[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 2 : i64} : !tile.view<128x64xbf16> -> tensor<128x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %half = arith.constant dense<5.000000e-01> : tensor<128x64xf32, #mma>
  %1 = tile.dim %k[0] : !tile.view<?x64xbf16>
  %2 = tile.cdiv %1, %c64 : index
  %3 = tile.load %k[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %4 = tile.load %v[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %l0 = arith.constant dense<0.000000e+00> : tensor<128x1xf32, #mma>
  %5:4 = scf.for %j = %c0 to %2 step %c1 iter_args(%acc = %cst, %l = %l0, %kt = %3, %vt = %4) -> (tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
    %6 = arith.addi %j, %c1 : index
    %7 = tile.load %k[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %8 = tile.load %v[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %9 = tile.permute %kt [1, 0] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #linear>
    %10 = tile.dot %0, %9, %cst {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #blocked>, tensor<64x64xbf16, #linear>, tensor<128x64xf32, #mma>
    %11 = tile.reduce max %10 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %12 = tile.broadcast %11 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %13 = arith.subf %10, %12 : tensor<128x64xf32, #mma>
    %14 = math.exp2 %13 : tensor<128x64xf32, #mma>
    %15 = arith.truncf %14 : tensor<128x64xf32, #mma> to tensor<128x64xbf16, #mma>
    %17 = arith.mulf %acc, %half : tensor<128x64xf32, #mma>
    %18 = tile.dot %15, %vt, %17 {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #mma>, tensor<64x64xbf16, #blocked>, tensor<128x64xf32, #mma>
    %sum = tile.reduce sum %14 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %lnext = arith.addf %l, %sum : tensor<128x1xf32, #mma>
    scf.yield %18, %lnext, %7, %8 : tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>
  }
  %lb = tile.broadcast %5#1 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %out = arith.divf %5#0, %lb : tensor<128x64xf32, #mma>
  tile.store %out, %o[%c0, %c0] : tensor<128x64xf32, #mma>, !tile.view<128x64xf32>
  return
}

// -----

// Persistent: tilegpu-overlap-dots defers no dot, so no loop issues two
// dots back to back, and a turn would hold a wait for its dot.
// CHECK-LABEL: func.func @not_overlapped(
// CHECK-NOT: tilegpu.turn
// CHECK: return
// REMARK: remark: consumer warpgroups do not take turns: no loop of its consumers issues two wgmma dots with no wait between (tilegpu-overlap-dots deferred none)
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8], [0, 16]]}>
#mma = #tilegpu.mma<warps = [8, 1]>
func.func @not_overlapped(%q: !tile.view<128x64xbf16>, %k: !tile.view<?x64xbf16>, %v: !tile.view<?x64xbf16>, %o: !tile.view<128x64xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64, tile.specialize = 1 : i64, tile.overlap = 2 : i64, tile.persistent = 1 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 64]>, #tilegpu.tensor_map<view = 2, box = [64, 64]>, #tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %0 = tile.load %q[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 2 : i64} : !tile.view<128x64xbf16> -> tensor<128x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %half = arith.constant dense<5.000000e-01> : tensor<128x64xf32, #mma>
  %1 = tile.dim %k[0] : !tile.view<?x64xbf16>
  %2 = tile.cdiv %1, %c64 : index
  %3 = tile.load %k[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %4 = tile.load %v[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
  %l0 = arith.constant dense<0.000000e+00> : tensor<128x1xf32, #mma>
  %5:4 = scf.for %j = %c0 to %2 step %c1 iter_args(%acc = %cst, %l = %l0, %kt = %3, %vt = %4) -> (tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>) {
    %6 = arith.addi %j, %c1 : index
    %7 = tile.load %k[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>, tilegpu.tma = 0 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %8 = tile.load %v[%6, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>, tilegpu.tma = 1 : i64} : !tile.view<?x64xbf16> -> tensor<64x64xbf16, #blocked>
    %9 = tile.permute %kt [1, 0] : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #linear>
    %10 = tile.dot %0, %9, %cst {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #blocked>, tensor<64x64xbf16, #linear>, tensor<128x64xf32, #mma>
    %11 = tile.reduce max %10 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %12 = tile.broadcast %11 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %13 = arith.subf %10, %12 : tensor<128x64xf32, #mma>
    %14 = math.exp2 %13 : tensor<128x64xf32, #mma>
    %15 = arith.truncf %14 : tensor<128x64xf32, #mma> to tensor<128x64xbf16, #mma>
    %17 = arith.mulf %acc, %half : tensor<128x64xf32, #mma>
    %18 = tile.dot %15, %vt, %17 {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<128x64xbf16, #mma>, tensor<64x64xbf16, #blocked>, tensor<128x64xf32, #mma>
    %sum = tile.reduce sum %14 {axis = 1 : i64, keep_dims} : tensor<128x64xf32, #mma> -> tensor<128x1xf32, #mma>
    %lnext = arith.addf %l, %sum : tensor<128x1xf32, #mma>
    scf.yield %18, %lnext, %7, %8 : tensor<128x64xf32, #mma>, tensor<128x1xf32, #mma>, tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>
  }
  %lb = tile.broadcast %5#1 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %out = arith.divf %5#0, %lb : tensor<128x64xf32, #mma>
  tile.store %out, %o[%c0, %c0] : tensor<128x64xf32, #mma>, !tile.view<128x64xf32>
  return
}
