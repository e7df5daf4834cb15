// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --tilegpu-allocate-shared-memory --verify-diagnostics
// RUN: not tilegym-opt %s --split-input-file --tilegpu-pipeline=chip=sm_80 --tilegpu-allocate-shared-memory=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: error: the kernel needs 270336 bytes of shared memory per block, more than the 166912 a block can have on sm_80

// Staging two 256x256 bf16 operands of an mma.sync dot from registers takes
// 2 * 256*264*2 bytes, past the 227 KiB a block may have on sm_90a: the
// error names the limit, and a note the op whose bytes they are.
// expected-error @+1 {{the kernel needs 270336 bytes of shared memory per block, more than the 232448 a block can have on sm_90a: use smaller tiles, or fewer stages for the dot operands}}
func.func @too_much(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<256x256xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [8, 1]}>>
  %z = arith.constant dense<0.0> : tensor<256x256xf32, #tilegpu.mma<warps = [4, 2]>>
  // expected-note @+1 {{270336 bytes here: the operands of an mma.sync dot}}
  %d = tile.dot %a, %a, %z : tensor<256x256xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [8, 1]}>>, tensor<256x256xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [8, 1]}>>, tensor<256x256xf32, #tilegpu.mma<warps = [4, 2]>>
  tile.store %d, %x[%c0, %c0] : tensor<256x256xf32, #tilegpu.mma<warps = [4, 2]>>, !tile.view<?x?xf32>
  return
}

// -----

// A ring at the shared-memory tile's bound (2^31 bytes counted with padded
// rows): its bytes are counted exactly, and the error names them.
// expected-error @+1 {{the kernel needs 1082130432 bytes of shared memory per block, more than the 232448 a block can have on sm_90a}}
func.func @huge_ring(%x: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  // expected-note @+1 {{1082130432 bytes here}}
  %r = tilegpu.local_alloc : !tilegpu.memdesc<512x1024x1024xbf16, swizzle = 0>
  return
}
