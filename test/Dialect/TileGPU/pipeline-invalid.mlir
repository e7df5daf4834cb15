// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline --verify-diagnostics
//
// tilegpu.stage and tilegpu.dot (tilegpu-accelerate-dots) that tilegpu-pipeline
// cannot honour, as IR written by hand may carry them: each is an error on
// the op, not a miscompile.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @not_a_window(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{is staged in a ring of 2 stages but is not part of a window of loads ahead through a loop (tile-pipeline-loads)}}
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %b = tile.load %vb[%k, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    %d = tile.dot %a, %b, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @window_unmarked(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<32x64xbf16, #b>) {
    %k1 = arith.addi %k, %c1 : index
    // expected-error @+1 {{a window of 1 loads ahead through its loop is one ring of 2 stages: each load needs #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>}}
    %bn = tile.load %vb[%k1, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    %d = tile.dot %a, %tb, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<32x64xbf16, #b>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @one_ring_twice(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  // expected-error @+1 {{ring 0 is staged by more than one tile}}
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %d = tile.dot %a, %b, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @one_stage_no_loop(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{is staged in a one-stage ring but does not reach a dot in a loop after it through views}}
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %d = tile.dot %a, %b, %z : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @padded_with_ones(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  // expected-error @+1 {{is staged but cp.async cannot copy it: it must pad with zeros and its layout must give each thread 16-byte runs}}
  %b = tile.load %vb[%c0, %c0] {padding = 1.0 : bf16, tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %d = tile.dot %a, %b, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @wgmma_unstaged(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but wgmma needs its rhs staged with swizzle = 128, and its lhs staged so too or in the accumulator's layout}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

func.func @swizzle_without_wgmma(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  // expected-error @+1 {{is staged with swizzle = 128, the layout only wgmma reads, but its dot does not run as wgmma}}
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}
