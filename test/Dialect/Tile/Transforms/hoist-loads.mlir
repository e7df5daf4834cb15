// RUN: tilegym-opt %s --split-input-file --tile-hoist-loads | FileCheck %s

// Loads move up past elementwise work, next to their operands, in order.
// CHECK-LABEL: func.func @past_compute
// CHECK: %[[I:.*]] = tile.block_id 0
// CHECK-NEXT: tile.load %{{.*}}[%[[I]]] {{.*}} -> tensor<128xf32>
// CHECK-NEXT: tile.load %{{.*}}[%[[I]]] {{.*}} -> tensor<128xf32>
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.addf
func.func @past_compute(%a: !tile.view<?xf32>, %b: !tile.view<?xf32>,
                        %c: !tile.view<?xf32>) attributes {tile.kernel} {
  %i = tile.block_id 0
  %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %e = math.exp %x : tensor<128xf32>
  %y = tile.load %b[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %s = arith.addf %e, %y : tensor<128xf32>
  tile.store %s, %c[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

// A load stays after the op computing its index.
// CHECK-LABEL: func.func @after_operands
// CHECK: math.exp
// CHECK: %[[J:.*]] = arith.addi
// CHECK-NEXT: tile.load %{{.*}}[%[[J]]]
func.func @after_operands(%a: !tile.view<?xf32>, %c: !tile.view<?xf32>)
    attributes {tile.kernel} {
  %i = tile.block_id 0
  %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %e = math.exp %x : tensor<128xf32>
  %one = arith.constant 1 : index
  %j = arith.addi %i, %one : index
  %y = tile.load %a[%j] : !tile.view<?xf32> -> tensor<128xf32>
  %s = arith.addf %e, %y : tensor<128xf32>
  tile.store %s, %c[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

// Never above a store (it may write what the load reads), nor above a loop
// that stores; a load in a loop body moves within the body only.
// CHECK-LABEL: func.func @not_past_writes
// CHECK: tile.store
// CHECK-NEXT: tile.load
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: arith.negf
// CHECK-NEXT: tile.store
// CHECK: }
// CHECK-NEXT: tile.load
func.func @not_past_writes(%a: !tile.view<?xf32>, %c: !tile.view<?xf32>)
    attributes {tile.kernel} {
  %i = tile.block_id 0
  %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %x, %c[%i] : tensor<128xf32>, !tile.view<?xf32>
  %e = math.exp %x : tensor<128xf32>
  %y = tile.load %c[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %n = arith.negf %e : tensor<128xf32>
    %z = tile.load %a[%k] : !tile.view<?xf32> -> tensor<128xf32>
    tile.store %z, %c[%k] : tensor<128xf32>, !tile.view<?xf32>
  }
  %w = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %s = arith.addf %y, %w : tensor<128xf32>
  tile.store %s, %c[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

// A prefetch keeps its place among the loads (it counts as a write, as
// memref.prefetch): the row's own load written before it is issued before
// it, and a load written after it is not hoisted above it.
// CHECK-LABEL: func.func @prefetch_in_place
// CHECK: tile.load %{{.*}}[%{{.*}}] {{.*}} -> tensor<128xf32>
// CHECK-NEXT: math.exp
// CHECK-NEXT: tile.prefetch
// CHECK-NEXT: tile.load
func.func @prefetch_in_place(%a: !tile.view<?xf32>, %c: !tile.view<?xf32>)
    attributes {tile.kernel} {
  %i = tile.block_id 0
  %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %e = math.exp %x : tensor<128xf32>
  tile.prefetch %a[%i] shape [128] : !tile.view<?xf32>
  %y = tile.load %c[%i] : !tile.view<?xf32> -> tensor<128xf32>
  %s = arith.addf %e, %y : tensor<128xf32>
  tile.store %s, %c[%i] : tensor<128xf32>, !tile.view<?xf32>
  return
}
