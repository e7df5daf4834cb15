// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// 16-bit float tiles cross loops as pairs in 32-bit registers (ptxas gives
// each 16-bit phi a register of its own); f32 tiles as they are. A 256-wide
// bf16 tile on one warp is 8 elements per thread: 4 pairs.
// CHECK-LABEL: gpu.func @loop
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-8: llvm.extractelement
// CHECK: scf.yield {{.*}} : vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, f32, f32, f32, f32, f32, f32, f32, f32
func.func @loop(%x: !tile.view<?xbf16>, %y: !tile.view<?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<256xbf16>
  %z = arith.constant dense<0.0> : tensor<256xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0, %s = %z) -> (tensor<256xbf16>, tensor<256xf32>) {
    %next = tile.load %x[%i] : !tile.view<?xbf16> -> tensor<256xbf16>
    %w = arith.extf %t : tensor<256xbf16> to tensor<256xf32>
    %u = arith.addf %s, %w : tensor<256xf32>
    scf.yield %next, %u : tensor<256xbf16>, tensor<256xf32>
  }
  tile.store %r#1, %y[%c0] : tensor<256xf32>, !tile.view<?xf32>
  return
}

// -----

// Branches carry them the same way.
// CHECK-LABEL: gpu.func @branch
// CHECK: scf.if {{.*}} -> (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)
func.func @branch(%x: !tile.view<?xf16>, %c: i1) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf16> -> tensor<256xf16>
  %r = scf.if %c -> (tensor<256xf16>) {
    %d = arith.addf %t, %t : tensor<256xf16>
    scf.yield %d : tensor<256xf16>
  } else {
    scf.yield %t : tensor<256xf16>
  }
  tile.store %r, %x[%c0] : tensor<256xf16>, !tile.view<?xf16>
  return
}

// -----

// scf.while carries them the same way through both regions: the condition
// forwards the pairs, the body unpacks them first.
// CHECK-LABEL: gpu.func @while_loop
// CHECK: scf.while ({{.*}}) : (index, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>) -> (index, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>)
// CHECK: scf.condition(%{{.*}}) %{{.*}} : index, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: vector<2xbf16>, %{{.*}}: vector<2xbf16>, %{{.*}}: vector<2xbf16>, %{{.*}}: vector<2xbf16>):
// CHECK-COUNT-8: llvm.extractelement
// CHECK: scf.yield {{.*}} : index, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>, vector<2xbf16>
func.func @while_loop(%x: !tile.view<?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = tile.load %x[%c0] : !tile.view<?xbf16> -> tensor<256xbf16>
  %r:2 = scf.while (%i = %c0, %t = %t0) : (index, tensor<256xbf16>) -> (index, tensor<256xbf16>) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %t : index, tensor<256xbf16>
  } do {
  ^bb0(%i: index, %t: tensor<256xbf16>):
    %d = arith.addf %t, %t : tensor<256xbf16>
    %next = arith.addi %i, %c1 : index
    scf.yield %next, %d : index, tensor<256xbf16>
  }
  tile.store %r#1, %x[%c0] : tensor<256xbf16>, !tile.view<?xbf16>
  return
}
