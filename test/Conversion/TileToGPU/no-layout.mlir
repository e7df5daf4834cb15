// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu --verify-diagnostics
//
// convert-tile-to-gpu lowers the layouts it finds; it chooses none.

func.func @plain(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op tile 'tensor<512xf32>' has no distributed layout; run tilegpu-assign-layouts first}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32>
  tile.store %t, %x[%c0] : tensor<512xf32>, !tile.view<?xf32>
  return
}

// -----

func.func @too_many_warps(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op layout #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}> spreads over more than the kernel's 2 warps}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>>
  tile.store %t, %x[%c0] : tensor<512xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>>, !tile.view<?xf32>
  return
}

// -----

// A layout may not give a thread more of a tile than its registers hold.
func.func @too_many_registers(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op layout #tilegpu.blocked<{sizePerThread = [512], threadsPerWarp = [32], warpsPerBlock = [1]}> gives each thread 2^9 elements of 'tensor<16384xf32, #tilegpu.blocked<{sizePerThread = [512], threadsPerWarp = [32], warpsPerBlock = [1]}>>'; the GPU limit is 256 elements per thread per tile}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<16384xf32, #tilegpu.blocked<{sizePerThread = [512], threadsPerWarp = [32], warpsPerBlock = [1]}>>
  tile.store %t, %x[%c0] : tensor<16384xf32, #tilegpu.blocked<{sizePerThread = [512], threadsPerWarp = [32], warpsPerBlock = [1]}>>, !tile.view<?xf32>
  return
}

// -----

// Kernel arguments are views and scalars: a tile has no registers before
// the kernel starts.
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>
// expected-error @+1 {{'func.func' op GPU kernels take views and scalars, not tiles: 'tensor<32xf32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>>'}}
func.func @tile_argument(%t: tensor<32xf32, #l>, %x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  tile.store %t, %x[%c0] : tensor<32xf32, #l>, !tile.view<?xf32>
  return
}
