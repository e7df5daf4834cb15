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
#mma = #tilegpu.mma<warps = [4, 1]>
// A ring of staged operands without its bytes.
func.func @ring_unplaced(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 0 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{'tile.load' op is staged in a ring of 10240 bytes, which needs its 'tilegpu.shared' (1024-byte aligned under the swizzle): run tilegpu-allocate-shared-memory first}}
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
// The loads of one ring placed apart.
func.func @ring_split(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 40960 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 10240>, tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.shared = #tilegpu.shared<offset = 10240, bytes = 9216>, tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    // expected-error @+1 {{'tile.load' op is a load of ring 0, whose loads share one 'tilegpu.shared'}}
    %an = tile.load %va[%c0, %k1] {tilegpu.shared = #tilegpu.shared<offset = 20480, bytes = 10240>, tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.shared = #tilegpu.shared<offset = 10240, bytes = 9216>, tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// A swizzled shared-memory tile placed off a 1024-byte boundary.
func.func @alloc_misaligned() attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.shared_memory = 8208 : i64} {
  // expected-error @+1 {{'tilegpu.local_alloc' op is swizzled, so its bytes must start on a 1024-byte boundary, got offset 16}}
  %r = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 16, bytes = 8192>} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  return
}
