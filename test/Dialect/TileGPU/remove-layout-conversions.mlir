// RUN: tilegym-opt %s --split-input-file --tilegpu-remove-layout-conversions | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-remove-layout-conversions --tilegpu-remove-layout-conversions | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-remove-layout-conversions=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A batched matmul's accumulator reshaped for its store: the region after
// the conversion (a multiply by a splat constant, a narrowing) runs in the
// reshaped mma layout, whose rows a warp stores in runs of 8 bf16 (16
// bytes), and the conversion goes. The constant follows.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerBlock = [1, 4, 1]}>
#linear = #tilegpu.linear<{register = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [0, 32, 0]]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// CHECK-LABEL: func.func @store_reshaped
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[R:.*]] = tile.reshape {{.*}} -> tensor<1x64x64xf32, #linear>
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<1x64x64xf32, #linear>
// CHECK: %[[S:.*]] = arith.mulf %[[R]], %[[TWO]] : tensor<1x64x64xf32, #linear>
// CHECK: %[[H:.*]] = arith.truncf %[[S]] : tensor<1x64x64xf32, #linear> to tensor<1x64x64xbf16, #linear>
// CHECK: tile.store %[[H]], {{.*}} : tensor<1x64x64xbf16, #linear>
// REMARK: remove-layout-conversions.mlir:[[# @LINE + 7]]:8: remark: layout conversion removed: the ops after it run in #tilegpu.linear<{{.*}}> and the stores and dots take it
func.func @store_reshaped(%arg0: !tile.view<?x?xbf16>, %arg1: !tile.view<?x?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %arg0[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %1 = tile.dot %0, %0, %cst : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xf32, #mma>
  %2 = tile.reshape %1 : tensor<64x64xf32, #mma> -> tensor<1x64x64xf32, #linear>
  %3 = tilegpu.convert_layout %2 : tensor<1x64x64xf32, #linear> -> tensor<1x64x64xf32, #blocked1>
  %cst_0 = arith.constant dense<2.000000e+00> : tensor<1x64x64xf32, #blocked1>
  %4 = arith.mulf %3, %cst_0 : tensor<1x64x64xf32, #blocked1>
  %5 = arith.truncf %4 : tensor<1x64x64xf32, #blocked1> to tensor<1x64x64xbf16, #blocked1>
  tile.store %5, %arg1[%c0, %c0, %c0] : tensor<1x64x64xbf16, #blocked1>, !tile.view<?x?x?xbf16>
  return
}

// -----

// A transposition stored: in the permuted layout a thread's neighbours along
// the stored rows are lanes 16 rows apart (runs of one element), so the
// conversion through shared memory stays.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [0, 8], [0, 16], [0, 32]], lane = [[4, 0], [8, 0], [16, 0], [32, 0], [0, 1]], warp = [[0, 2], [0, 4]]}>
// CHECK-LABEL: func.func @transpose
// CHECK: %[[T:.*]] = tile.permute
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x64xf32, #linear> -> tensor<64x64xf32, #blocked>
// CHECK: tile.store %[[C]]
// REMARK-NOT: remove-layout-conversions.mlir:[[# @LINE + 5]]:{{.*}}remark
func.func @transpose(%arg0: !tile.view<?x?xf32>, %arg1: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %arg0[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #blocked>
  %1 = tile.permute %0 [1, 0] : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #linear>
  %2 = tilegpu.convert_layout %1 : tensor<64x64xf32, #linear> -> tensor<64x64xf32, #blocked>
  tile.store %2, %arg1[%c0, %c0] : tensor<64x64xf32, #blocked>, !tile.view<?x?xf32>
  return
}

// -----

// B stored [N, K] and transposed for a dot: the dot stages its operand from
// the transposed registers, no conversion first.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#linear = #tilegpu.linear<{register = [[1, 0], [2, 0], [4, 0], [0, 32]], lane = [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 8], [0, 16]]}>
#mma = #tilegpu.mma<warps = [2, 2]>
// CHECK-LABEL: func.func @dot_nt
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[T:.*]] = tile.permute {{.*}} -> tensor<32x64xbf16, #linear>
// CHECK: tile.dot %{{.*}}, %[[T]], %{{.*}} : tensor<64x32xbf16, #blocked>, tensor<32x64xbf16, #linear>, tensor<64x64xf32, #mma>
func.func @dot_nt(%arg0: !tile.view<?x?xbf16>, %arg1: !tile.view<?x?xbf16>, %arg2: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %arg0[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #blocked>
  %1 = tile.load %arg1[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #blocked>
  %2 = tile.permute %1 [1, 0] : tensor<64x32xbf16, #blocked> -> tensor<32x64xbf16, #linear>
  %3 = tilegpu.convert_layout %2 : tensor<32x64xbf16, #linear> -> tensor<32x64xbf16, #blocked1>
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %4 = tile.dot %0, %3, %cst : tensor<64x32xbf16, #blocked>, tensor<32x64xbf16, #blocked1>, tensor<64x64xf32, #mma>
  tile.store %4, %arg2[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// Added to a loaded tile, the reshaped accumulator meets a value in the
// conversion's target layout that is not a splat, a constant or another
// conversion: the conversion stays.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 2, 16], warpsPerBlock = [1, 4, 1]}>
#linear = #tilegpu.linear<{register = [[0, 0, 1], [0, 8, 0], [0, 0, 16], [0, 0, 32], [0, 32, 0]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 0, 8], [0, 16, 0]]}>
#mma = #tilegpu.mma<warps = [2, 2]>
// CHECK-LABEL: func.func @update
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<1x64x64xf32, #blocked1>
// CHECK: arith.addf {{.*}} : tensor<1x64x64xf32, #blocked1>
func.func @update(%arg0: !tile.view<?x?xf32>, %arg1: !tile.view<?x?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %arg0[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #blocked>
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %1 = tile.dot %0, %0, %cst {precision = 1 : i32} : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>
  %2 = tile.reshape %1 : tensor<64x64xf32, #mma> -> tensor<1x64x64xf32, #linear>
  %3 = tilegpu.convert_layout %2 : tensor<1x64x64xf32, #linear> -> tensor<1x64x64xf32, #blocked1>
  %4 = tile.load %arg1[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<1x64x64xf32, #blocked1>
  %5 = arith.addf %3, %4 : tensor<1x64x64xf32, #blocked1>
  tile.store %5, %arg1[%c0, %c0, %c0] : tensor<1x64x64xf32, #blocked1>, !tile.view<?x?x?xf32>
  return
}

// -----

// Two conversions of one source meet in an add: both go. A constant also
// used outside the region is copied for it; the original keeps its layout.
#a = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [4]}>
// CHECK-DAG: #[[A:.*]] = #tilegpu.blocked<{sizePerThread = [4]
// CHECK-DAG: #[[B:.*]] = #tilegpu.blocked<{sizePerThread = [2]
// CHECK-LABEL: func.func @two_entries
// CHECK-NOT: tilegpu.convert_layout
// CHECK-DAG: %[[ONE_A:.*]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[A]]>
// CHECK-DAG: %[[ONE_B:.*]] = arith.constant dense<1.000000e+00> : tensor<512xf32, #[[B]]>
// CHECK: %[[E:.*]] = math.exp %{{.*}} : tensor<512xf32, #[[A]]>
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[E]] : tensor<512xf32, #[[A]]>
// CHECK: arith.addf %[[S]], %[[ONE_A]] : tensor<512xf32, #[[A]]>
// CHECK: tile.store %[[ONE_B]]
func.func @two_entries(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %z: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32, #a>
  %one = arith.constant dense<1.0> : tensor<512xf32, #b>
  %1 = tilegpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %e = math.exp %0 : tensor<512xf32, #a>
  %2 = tilegpu.convert_layout %e : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %3 = arith.addf %1, %2 : tensor<512xf32, #b>
  %4 = arith.addf %3, %one : tensor<512xf32, #b>
  tile.store %4, %y[%c0] : tensor<512xf32, #b>, !tile.view<?xf32>
  tile.store %one, %z[%c0] : tensor<512xf32, #b>, !tile.view<?xf32>
  return
}

// -----

// A conversion of a conversion converts the first source; one back to the
// source's own type goes, and so does one nothing uses.
#a = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [4]}>
#c = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [4]}>
// CHECK-LABEL: func.func @chains
// CHECK: %[[X:.*]] = tile.load
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : tensor<512xf32, #[[A:.*]]>
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[E]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[C_:.*]]>
// CHECK-NEXT: %[[P:.*]] = tile.permute %[[C]]
// CHECK-NEXT: tile.store %[[P]]
// CHECK-NEXT: tile.store %[[X]]
// CHECK-NEXT: return
func.func @chains(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %0 = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32, #a>
  %e = math.exp %0 : tensor<512xf32, #a>
  %1 = tilegpu.convert_layout %e : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %2 = tilegpu.convert_layout %1 : tensor<512xf32, #b> -> tensor<512xf32, #c>
  %3 = tile.permute %2 [0] : tensor<512xf32, #c> -> tensor<512xf32, #c>
  tile.store %3, %y[%c0] : tensor<512xf32, #c>, !tile.view<?xf32>
  %4 = tilegpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %5 = tilegpu.convert_layout %4 : tensor<512xf32, #b> -> tensor<512xf32, #a>
  tile.store %5, %y[%c0] : tensor<512xf32, #a>, !tile.view<?xf32>
  %6 = tilegpu.convert_layout %0 : tensor<512xf32, #a> -> tensor<512xf32, #c>
  return
}

// -----

// A conversion in a loop of a tile loaded before it moves before the
// outermost loop it does not depend on. An mma-layout lhs of a dot keeps
// its conversion (wgmma may read an lhs in the accumulator's registers).
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// CHECK-LABEL: func.func @hoist
// CHECK: %[[X:.*]] = tile.load
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[X]] : tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #mma>
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.dot %[[C]]
// REMARK: remove-layout-conversions.mlir:[[# @LINE + 8]]:12: remark: layout conversion hoisted out of the loop: its source is the same every iteration
func.func @hoist(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tile.load %x[%c0, %c0] : !tile.view<?x?xf16> -> tensor<64x64xf16, #a>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (tensor<64x64xf32, #mma>) {
      %1 = tilegpu.convert_layout %0 : tensor<64x64xf16, #a> -> tensor<64x64xf16, #mma>
      %2 = tile.dot %1, %0, %acc2 : tensor<64x64xf16, #mma>, tensor<64x64xf16, #a>, tensor<64x64xf32, #mma>
      scf.yield %2 : tensor<64x64xf32, #mma>
    }
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  tile.store %r, %y[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// Functions that are not kernels are left as they are.
#a = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [4]}>
// CHECK-LABEL: func.func @not_a_kernel
// CHECK-NEXT: tilegpu.convert_layout
func.func @not_a_kernel(%t: tensor<512xf32, #a>) -> tensor<512xf32, #b> {
  %0 = tilegpu.convert_layout %t : tensor<512xf32, #a> -> tensor<512xf32, #b>
  return %0 : tensor<512xf32, #b>
}
