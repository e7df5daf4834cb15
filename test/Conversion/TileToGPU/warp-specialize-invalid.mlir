// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a --verify-diagnostics
// RUN: not tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90 2>&1 | FileCheck %s --check-prefix=SM90
//
// Warp-specialized kernels the lowering refuses: registers setmaxnreg
// cannot move (no fixed blocks per SM, budgets past the entry's), a
// producer copy by cp.async, two splits, too many warps; and setmaxnreg on
// a chip without it.

// SM90: error: 'tilegpu.warp_specialize' op resizes registers with setmaxnreg, which needs sm_90a; the target is sm_90
func.func @no_blocks_per_sm() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  // expected-error @+1 {{needs the kernel's blocks per SM (tile.min_blocks_per_sm), which fix the registers setmaxnreg moves}}
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 232 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// 8 + 4 warps, 2 blocks per SM: 80 registers a thread at the entry, 30720
// a block; 24 x 128 + 232 x 256 asks more.
func.func @over_budget() attributes {tile.kernel, tile.num_warps = 8 : i64, tile.min_blocks_per_sm = 2 : i64} {
  // expected-error @+1 {{asks 232 registers for each of 256 consumer threads and 24 for each of 128 producer threads, more than the 80 each has at the entry with 2 blocks per SM}}
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 232 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
func.func @producer_cp_async(%va: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.min_blocks_per_sm = 1 : i64, tilegpu.shared_memory = 8192 : i64} {
  %c0 = arith.constant 0 : index
  %ra = tilegpu.local_alloc {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 8192>} : !tilegpu.memdesc<64x64xbf16, swizzle = 128>
  tilegpu.warp_specialize producer warps 4 registers 24 {
    // expected-error @+1 {{is in a producer region, where one thread issues copies: it must be the TMA's (tma(...))}}
    tilegpu.async_copy %va[%c0, %c0], %ra : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #b>
  } consumer registers 240 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// expected-error @+1 {{has 2 tilegpu.warp_specialize ops; a kernel splits its warps once}}
func.func @twice() attributes {tile.kernel, tile.num_warps = 4 : i64, tile.min_blocks_per_sm = 1 : i64} {
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 240 {
    %c = arith.constant 0 : index
  }
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 240 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

// expected-error @+1 {{has 32 warps and 4 producer warps, more than the 32 a block may have}}
func.func @too_many_warps() attributes {tile.kernel, tile.num_warps = 32 : i64, tile.min_blocks_per_sm = 1 : i64} {
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 24 {
    %c = arith.constant 0 : index
  }
  return
}
