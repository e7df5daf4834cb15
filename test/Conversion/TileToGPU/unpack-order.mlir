// RUN: tilegym-opt %s --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// A loaded tile stays its runs (vectors) until its first user, where it is
// unpacked; two tiles unpacked before one op go in the order of its
// operands, not of their loads.
// CHECK-LABEL: gpu.func @operand_order
// CHECK: %[[A:.*]]:2 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK: %[[B:.*]]:2 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NOT: llvm.extractelement %[[A]]
// CHECK: llvm.extractelement %[[B]]#0
// CHECK-NOT: llvm.extractelement %[[A]]
// CHECK: llvm.extractelement %[[B]]#1
// CHECK: llvm.extractelement %[[A]]#0
// CHECK: llvm.extractelement %[[A]]#1
// CHECK: arith.subf
func.func @operand_order(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %z: !tile.view<?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %b = tile.load %y[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %s = arith.subf %b, %a : tensor<256xf32>
  tile.store %s, %z[%i] : tensor<256xf32>, !tile.view<?xf32>
  return
}

// A tile first used in a loop is unpacked once, before the loop; the ops
// between the load and the loop come first.
// CHECK-LABEL: gpu.func @before_loop
// CHECK: %[[A:.*]]:2 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK: arith.muli
// CHECK: llvm.extractelement %[[A]]#0
// CHECK: scf.for
// CHECK-NOT: llvm.extractelement %[[A]]
// CHECK: gpu.return
func.func @before_loop(%x: !tile.view<?xf32>, %z: !tile.view<?xf32>, %n: index)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %m = arith.muli %i, %n : index
  scf.for %k = %c0 to %m step %c1 {
    tile.store %a, %z[%k] : tensor<256xf32>, !tile.view<?xf32>
  }
  return
}

// A tile never used is never unpacked.
// CHECK-LABEL: gpu.func @unused
// CHECK: scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NOT: llvm.extractelement
// CHECK: gpu.return
func.func @unused(%x: !tile.view<?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  return
}
