// RUN: tilegym-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func @fold_static_dims
func.func @fold_static_dims(%x: !tile.view<100x?xf32>) -> (index, index, index) {
  // CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[D:.*]] = tile.dim %{{.*}}[1]
  // CHECK: return %[[C100]], %[[D]], %[[C4]]
  %0 = tile.dim %x[0] : !tile.view<100x?xf32>
  %1 = tile.dim %x[1] : !tile.view<100x?xf32>
  %2 = tile.num_tiles %x[0] by 32 : !tile.view<100x?xf32>
  return %0, %1, %2 : index, index, index
}

// -----

// CHECK-LABEL: func @fold_cdiv
func.func @fold_cdiv() -> (index, i32) {
  // CHECK-DAG: arith.constant 3 : index
  // CHECK-DAG: arith.constant 1 : i32
  // CHECK-NOT: tile.cdiv
  %a = arith.constant 257 : index
  %b = arith.constant 128 : index
  %0 = tile.cdiv %a, %b : index
  %c = arith.constant 5 : i32
  %d = arith.constant 7 : i32
  %1 = tile.cdiv %c, %d : i32
  return %0, %1 : index, i32
}

// -----

// A division by zero is left for run time, not folded.
// CHECK-LABEL: func @no_fold_cdiv_by_zero
func.func @no_fold_cdiv_by_zero(%a: index) -> index {
  // CHECK: tile.cdiv
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %0 = tile.cdiv %c4, %c0 : index
  return %0 : index
}

// -----

// CHECK-LABEL: func @splat_constant
func.func @splat_constant() -> tensor<4x4xf32> {
  // CHECK: arith.constant dense<2.500000e+00> : tensor<4x4xf32>
  // CHECK-NOT: tile.splat
  %c = arith.constant 2.5 : f32
  %0 = tile.splat %c : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_splat
// CHECK-SAME: (%[[S:.*]]: f32)
func.func @broadcast_of_splat(%s: f32) -> tensor<8x4xf32> {
  // CHECK: %[[R:.*]] = tile.splat %[[S]] : tensor<8x4xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = tile.splat %s : tensor<1x4xf32>
  %1 = tile.broadcast %0 : tensor<1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func @broadcast_chain
// CHECK-SAME: (%[[T:.*]]: tensor<1x1xf32>)
func.func @broadcast_chain(%t: tensor<1x1xf32>) -> tensor<8x4xf32> {
  // CHECK: %[[R:.*]] = tile.broadcast %[[T]] : tensor<1x1xf32> -> tensor<8x4xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = tile.broadcast %t : tensor<1x1xf32> -> tensor<1x4xf32>
  %1 = tile.broadcast %0 : tensor<1x4xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func @identities
// CHECK-SAME: (%[[T:.*]]: tensor<2x4xf32>)
func.func @identities(%t: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK-NOT: tile.
  // CHECK: return %[[T]], %[[T]], %[[T]]
  %0 = tile.broadcast %t : tensor<2x4xf32> -> tensor<2x4xf32>
  %1 = tile.reshape %t : tensor<2x4xf32> -> tensor<2x4xf32>
  %2 = tile.permute %t [0, 1] : tensor<2x4xf32> -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func @chains
// CHECK-SAME: (%[[T:.*]]: tensor<2x4x8xf32>)
func.func @chains(%t: tensor<2x4x8xf32>) -> (tensor<8x8xf32>, tensor<2x4x8xf32>, tensor<8x2x4xf32>) {
  // CHECK-DAG: tile.reshape %[[T]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %0 = tile.reshape %t : tensor<2x4x8xf32> -> tensor<64xf32>
  %1 = tile.reshape %0 : tensor<64xf32> -> tensor<8x8xf32>
  // Two transposes cancel.
  %2 = tile.permute %t [1, 0, 2] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %3 = tile.permute %2 [1, 0, 2] : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  // CHECK-DAG: tile.permute %[[T]] [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %4 = tile.permute %t [0, 2, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  %5 = tile.permute %4 [1, 0, 2] : tensor<2x8x4xf32> -> tensor<8x2x4xf32>
  // CHECK: return %{{.*}}, %[[T]], %{{.*}}
  return %1, %3, %5 : tensor<8x8xf32>, tensor<2x4x8xf32>, tensor<8x2x4xf32>
}

// -----

// CHECK-LABEL: func @constant_shapes
func.func @constant_shapes() -> (tensor<4x4xf32>, tensor<4x2xi32>, tensor<2x2xi32>) {
  // CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<4x4xf32>
  // CHECK-DAG: arith.constant dense<{{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi32>
  // CHECK-DAG: arith.constant dense<7> : tensor<2x2xi32>
  %c = arith.constant dense<1.0> : tensor<1x4xf32>
  %0 = tile.broadcast %c : tensor<1x4xf32> -> tensor<4x4xf32>
  %d = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
  %1 = tile.reshape %d : tensor<8xi32> -> tensor<4x2xi32>
  %e = arith.constant dense<7> : tensor<2x2xi32>
  %2 = tile.permute %e [1, 0] : tensor<2x2xi32> -> tensor<2x2xi32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<4x2xi32>, tensor<2x2xi32>
}

// -----

// A prefetch has no result but is a write to the canonicalizer (as
// memref.prefetch), so it stays.
// CHECK-LABEL: func @prefetch_kept
// CHECK: tile.prefetch
func.func @prefetch_kept(%x: !tile.view<?x?xf32>, %i: index) {
  tile.prefetch %x[%i, %i] shape [1, 64] : !tile.view<?x?xf32>
  return
}

// -----

// Folds near the top of the 64-bit range do not wrap: ceil(a / b) is
// computed as a / b + (a % b != 0), never as (a + b - 1) / b.
// CHECK-LABEL: func @fold_without_overflow
func.func @fold_without_overflow(%x: !tile.view<10xf32>) -> (index, index) {
  // CHECK-DAG: %[[HALF:.+]] = arith.constant 4611686018427387904 : index
  // CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
  // CHECK: return %[[HALF]], %[[ONE]]
  %big = arith.constant 9223372036854775807 : index
  %two = arith.constant 2 : index
  %0 = tile.cdiv %big, %two : index
  %1 = tile.num_tiles %x[0] by 9223372036854775807 : !tile.view<10xf32>
  return %0, %1 : index, index
}
