// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --verify-diagnostics | FileCheck %s
//
// What tilegpu-assign-layouts refuses, each at the op that breaks it.

func.func @odd_tile(%x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op GPU backend needs power-of-two tile sizes, got 'tensor<1000xf32>'}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1000xf32>
  tile.store %t, %x[%c0] : tensor<1000xf32>, !tile.view<?xf32>
  return
}
// -----


// expected-error @+1 {{'func.func' op GPU kernels take views and scalars, not tiles: 'tensor<16xf32>'}}
func.func @tile_argument(%t: tensor<16xf32>, %x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  tile.store %t, %x[%c0] : tensor<16xf32>, !tile.view<?xf32>
  return
}
// -----

// Every element of a tile is a register of some thread: 65536 f32 over 128
// threads would be 512 each, past the register file.
func.func @tile_past_registers(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op 'tensor<65536xf32>' needs 512 registers per thread over 4 warps; the GPU limit is 256 elements per thread per tile: use a smaller tile or more warps}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<65536xf32>
  tile.store %t, %x[%c0] : tensor<65536xf32>, !tile.view<?xf32>
  return
}
// -----

// At the limit it compiles: 32768 over 128 threads is 256 each.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>
// CHECK: tile.load {{.*}} -> tensor<32768xf32, #blocked>
func.func @tile_at_register_limit(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32768xf32>
  tile.store %t, %x[%c0] : tensor<32768xf32>, !tile.view<?xf32>
  return
}
