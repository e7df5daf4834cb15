// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu --verify-diagnostics
//
// convert-tile-to-gpu places nothing in shared memory itself: an op that
// needs some without tilegpu-allocate-shared-memory's bytes is an error.

#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#col = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerBlock = [1, 4]}>
func.func @conversion(%x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32, #row>
  // expected-error @+1 {{'tilegpu.convert_layout' op needs 65536 bytes of shared memory but has 0 in its 'tilegpu.shared': run tilegpu-allocate-shared-memory first}}
  %u = tilegpu.convert_layout %t : tensor<128x128xf32, #row> -> tensor<128x128xf32, #col>
  tile.store %u, %x[%c0, %c0] : tensor<128x128xf32, #col>, !tile.view<?x?xf32>
  return
}

// -----

#row = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#col = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerBlock = [1, 4]}>
// Fewer bytes than the op needs.
func.func @too_few(%x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 1024 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32, #row>
  // expected-error @+1 {{'tilegpu.convert_layout' op needs 65536 bytes of shared memory but has 1024 in its 'tilegpu.shared': run tilegpu-allocate-shared-memory first}}
  %u = tilegpu.convert_layout %t {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 1024>} : tensor<128x128xf32, #row> -> tensor<128x128xf32, #col>
  tile.store %u, %x[%c0, %c0] : tensor<128x128xf32, #col>, !tile.view<?x?xf32>
  return
}

// -----

// More than the chip gives a block.
// expected-error @+1 {{'func.func' op has 300000 bytes of shared memory per block, more than the 232448 a block can have on sm_90a}}
func.func @over_limit(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 300000 : i64} {
  return
}
