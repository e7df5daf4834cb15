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

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>
// An mma.sync dot staging its operands from registers, without their bytes:
// 64 rows of 40 (A) and 32 of 72 (B) bf16, rows padded.
func.func @mma_unplaced(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  // expected-error @+1 {{'tilegpu.mma' op needs 9728 bytes of shared memory but has 0 in its 'tilegpu.shared': run tilegpu-allocate-shared-memory first}}
  %d = tilegpu.mma mma_sync %a, %b, %z : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
  tile.store %d, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>
// A tile.dot the pipeline did not turn into a tilegpu.mma.
func.func @dot_unlowered(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  // expected-error @+1 {{'tile.dot' op has no tensor-core instruction yet: run tilegpu-accelerate-dots and tilegpu-pipeline first}}
  %d = tile.dot %a, %b, %z : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
  tile.store %d, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// A swizzled shared-memory tile placed off a 1024-byte boundary.
func.func @alloc_misaligned() attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 8208 : i64} {
  // expected-error @+1 {{'tilegpu.local_alloc' op is swizzled, so its bytes must start on a 1024-byte boundary, got offset 16}}
  %r = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 16, bytes = 8192>} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  return
}
