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

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// Two windows of one loop, two and three stages deep: the wait at the top of
// each iteration can count only one depth of commit groups.
func.func @ring_sizes_differ(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  // expected-error @+1 {{the windows of one loop must share one ring size: the wait at each iteration counts the stages ahead}}
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %b1 = tile.load %vb[%c1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 0, index = 1>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:4 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0, %tb1 = %b1) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<32x64xbf16, #b>) {
    %k1 = arith.addi %k, %c1 : index
    %k2 = arith.addi %k, %c2 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k2, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 3, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    scf.yield %d, %an, %tb1, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<32x64xbf16, #b>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A window whose tile is added, not multiplied: a ring in shared memory only
// serves a tensor-core dot that reads it there.
func.func @window_not_a_dot_operand(%va: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x32xbf16, #a>
  // expected-error @+1 {{is staged but its tile does not reach a dot of its loop's body as an operand of fp8, 16- or 32-bit elements through views (an lhs not transposed)}}
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%sum = %z, %ta = %a0) -> (tensor<64x32xbf16, #a>, tensor<64x32xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %s = arith.addf %sum, %ta : tensor<64x32xbf16, #a>
    scf.yield %s, %an : tensor<64x32xbf16, #a>, tensor<64x32xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x32xbf16, #a>, !tile.view<?x?xbf16>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// 32 rows for four warps: one wgmma covers 64 rows per warpgroup.
func.func @wgmma_rows_short(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<32x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<32x64xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but wgmma needs warpgroups, 16-bit, fp8 or tf32 operands, M a multiple of 64 per warpgroup and N a multiple of 8 up to 256}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<32x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<32x64xf32, #mma>
    scf.yield %d : tensor<32x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>

// Warps split along N: a warpgroup's wgmma owns whole 64-row bands.
func.func @wgmma_warps_along_n(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but wgmma needs the accumulator in #tilegpu.mma with all warps along M}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A B of 32 columns under the 128-byte swizzle: its rows are 64 bytes, half
// the swizzle's 128-byte row.
func.func @swizzle_short_rows(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  // expected-error @+1 {{is staged with swizzle = 128, which needs stored rows of 128 bytes and a multiple of 8 rows}}
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x32xf32, #mma>) {
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x32xbf16, #b>, tensor<64x32xf32, #mma>
    scf.yield %d : tensor<64x32xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A tf32 wgmma whose B is staged as loaded, [K][N]: wgmma reads tf32 only
// K-major, so B must be staged transposed.
func.func @tf32_b_not_k_major(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but a tf32 wgmma reads both operands from shared memory, K-major: its lhs staged and its rhs staged transposed or read through a transpose}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #mma>
    scf.yield %d : tensor<64x128xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>

// The transposed product reads its rhs [K][N] into registers from a stage
// under the swizzle, as any wgmma operand's: not one of padded rows.
func.func @tf32_swapped_padded_b(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #swapped>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xf32> -> tensor<32x128xf32, #b>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #swapped>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but a wgmma on the transposed product (the swapped accumulator layout) needs tf32 operands, N a multiple of 64 per warpgroup, M a multiple of 8 up to 256, K of 32, its lhs and its rhs [K][N] staged with swizzle = 128}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x32xf32, #a>, tensor<32x128xf32, #b>, tensor<64x128xf32, #swapped>
    scf.yield %d : tensor<64x128xf32, #swapped>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// A transposed stage holds a 32-bit rhs: a bf16 one has no 4-byte copy.
func.func @transposed_bf16(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  // expected-error @+1 {{is staged transposed, which holds the rhs of a tf32 dot K-major: it must be a 32-bit rhs read as loaded, not through a transpose}}
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0, transposed = true>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// An fp8 wgmma whose B is staged as loaded, [K][N]: wgmma transposes no
// fp8 operand, so B must be stored [N][K] and read through a transpose.
func.func @fp8_b_not_k_major(%va: !tile.view<?x?xf8E4M3FN>, %vb: !tile.view<?x?xf8E4M3FN>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN, #a>
  %b = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #mma>) {
    // expected-error @+1 {{is marked #tilegpu.dot<wgmma> but an fp8 wgmma reads both operands from shared memory, K-major: its lhs staged and its rhs read through a transpose}}
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x128xf8E4M3FN, #a>, tensor<128x128xf8E4M3FN, #a>, tensor<64x128xf32, #mma>
    scf.yield %d : tensor<64x128xf32, #mma>
  }
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [2, 2]>

// An fp8 tile staged for an mma.sync dot, which takes fp8 operands only
// widened to f16 in registers.
func.func @fp8_staged_for_mma_sync(%va: !tile.view<?x?xf8E5M2>, %vb: !tile.view<?x?xf8E5M2>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{is an fp8 tile staged for a dot that is not a wgmma: mma.sync takes fp8 operands widened to f16 in registers}}
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xf8E5M2> -> tensor<64x64xf8E5M2, #a>
  %b = tile.load %vb[%c0, %c0] : !tile.view<?x?xf8E5M2> -> tensor<64x64xf8E5M2, #a>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) {
    %d = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x64xf8E5M2, #a>, tensor<64x64xf8E5M2, #a>, tensor<64x64xf32, #mma>
    scf.yield %d : tensor<64x64xf32, #mma>
  }
  return
}

// -----

// The TMA (tilegpu.tma, tilegpu.tensor_maps): every load of a ring names one
// tensor map or none.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @tma_ring_disagrees(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>, tilegpu.tma = 1} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    // expected-error @+1 {{is in ring 1, whose loads must all name one tensor map (tilegpu.tma) or none}}
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// A tensor map the kernel does not have.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @tma_no_such_map(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %vb[0] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{names tensor map 3 but the kernel's tilegpu.tensor_maps has 1}}
  %a = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>, tilegpu.tma = 3} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %r:2 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %d = tile.dot %a, %tb, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #a>, tensor<64x64xf32, #mma>
    scf.yield %d, %bn : tensor<64x64xf32, #mma>, tensor<64x64xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// The TMA writes only 128-byte-swizzled stages.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @tma_padded_rows(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 32]>]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  // expected-error @+1 {{is copied by the TMA, which writes stages with the 128-byte swizzle, not transposed}}
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>, tilegpu.tma = 0} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
