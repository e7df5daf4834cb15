// RUN: tilegym-opt %s --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// Each thread holds 8 elements of a 256-element tile, two runs of 4. One
// branch per thread-tile: both runs as 16-byte vectors when all are in
// bounds and aligned, else element by element (after an opaque copy of the
// run's column, so that LLVM cannot hoist the per-element coordinates into
// the fast path). Both loads are issued before either is unpacked, at the
// first use; the store takes the same shape.
// CHECK-LABEL: gpu.func @add
// CHECK: %[[A:.*]]:2 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: } else {
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, $1;", "=r,r"
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, $1;", "=r,r"
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: %[[B:.*]]:2 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NOT: arith.addf
// CHECK: llvm.extractelement %[[A]]#0
// CHECK: llvm.extractelement %[[B]]#0
// CHECK: arith.addf
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: llvm.inline_asm has_side_effects
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
func.func @add(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %z: !tile.view<?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %i = tile.block_id 0
  %a = tile.load %x[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %b = tile.load %y[%i] : !tile.view<?xf32> -> tensor<256xf32>
  %s = arith.addf %a, %b : tensor<256xf32>
  tile.store %s, %z[%i] : tensor<256xf32>, !tile.view<?xf32>
  return
}
