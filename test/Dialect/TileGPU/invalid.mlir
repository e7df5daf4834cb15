// RUN: tilegym-opt %s --split-input-file --verify-diagnostics
//
// Every diagnostic of the tilegpu layouts and ops.

// expected-error @+1 {{sizePerThread, threadsPerWarp and warpsPerBlock must have one entry per dimension, got 2, 1 and 2}}
func.func @ranks(%a: tensor<8x8xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32], warpsPerBlock = [1, 1]}>>)

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two, got 3}}
func.func @not_power(%a: tensor<8x8xf32, #tilegpu.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerBlock = [1, 1]}>>)

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
func.func @lanes(%a: tensor<8x8xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerBlock = [1, 1]}>>)

// -----

// expected-error @+1 {{expected 'threadsPerWarp'}}
func.func @key(%a: tensor<8x8xf32, #tilegpu.blocked<{sizePerThread = [1, 1], lanes = [4, 8], warpsPerBlock = [1, 1]}>>)

// -----

// expected-error @+1 {{layout of rank 2 on a tile of rank 1}}
func.func @tile_rank(%a: tensor<8xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerBlock = [1, 1]}>>)

// -----

// expected-error @+1 {{distributed layouts need power-of-two tile sizes, got 12}}
func.func @tile_size(%a: tensor<12x8xf32, #tilegpu.mma<warps = [1, 1]>>)

// -----

// expected-error @+1 {{mma warps must be powers of two, got 3}}
func.func @mma_warps(%a: tensor<64x64xf32, #tilegpu.mma<warps = [3, 1]>>)

// -----

// expected-error @+1 {{mma layout of 64 warps; a block has at most 32}}
func.func @mma_many(%a: tensor<64x64xf32, #tilegpu.mma<warps = [8, 8]>>)

// -----

// expected-error @+1 {{a linear layout has 5 lane bases (32 lanes), got 2}}
func.func @linear_lanes(%a: tensor<16x8xf32, #tilegpu.linear<{register = [], lane = [[0, 1], [0, 2]], warp = []}>>)

// -----

// expected-error @+1 {{linear layout basis entries must be 0 or powers of two, got 3}}
func.func @linear_entry(%a: tensor<16x8xf32, #tilegpu.linear<{register = [[0, 3]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = []}>>)

// -----

// expected-error @+1 {{linear layout bases must all have one entry per dimension}}
func.func @linear_ragged(%a: tensor<16x8xf32, #tilegpu.linear<{register = [[0, 1, 0]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = []}>>)

// -----

// expected-error @+1 {{linear layouts need bases of rank 1 or more}}
func.func @linear_rank0(%a: tensor<f32, #tilegpu.linear<{register = [], lane = [[], [], [], [], []], warp = []}>>)

// -----

func.func @convert_plain(%a: tensor<8x8xf32>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op source has no distributed layout: 'tensor<8x8xf32>'}}
  %b = tilegpu.convert_layout %a : tensor<8x8xf32> -> tensor<8x8xf32, #tilegpu.mma<warps = [1, 1]>>
  return
}

// -----

func.func @convert_to_plain(%a: tensor<8x8xf32, #tilegpu.mma<warps = [1, 1]>>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op result has no distributed layout: 'tensor<8x8xf32>'}}
  %b = tilegpu.convert_layout %a : tensor<8x8xf32, #tilegpu.mma<warps = [1, 1]>> -> tensor<8x8xf32>
  return
}

// -----

func.func @convert_shape(%a: tensor<8x8xf32, #tilegpu.mma<warps = [1, 1]>>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op requires the same shape for all operands and results}}
  %b = tilegpu.convert_layout %a : tensor<8x8xf32, #tilegpu.mma<warps = [1, 1]>> -> tensor<16x8xf32, #tilegpu.mma<warps = [1, 1]>>
  return
}

// -----

// expected-error @+1 {{blocked layout size 2097152 is past the largest tile dimension, 1048576}}
func.func @blocked_huge(%a: tensor<8xf32, #tilegpu.blocked<{sizePerThread = [2097152], threadsPerWarp = [32], warpsPerBlock = [1]}>>)

// -----

// expected-error @+1 {{mma layout of 64x64 warps; a block has at most 32}}
func.func @mma_huge(%a: tensor<64x64xf32, #tilegpu.mma<warps = [64, 64]>>)

// -----

// expected-error @+1 {{a linear layout has at most 8 register bases (256 registers), got 9}}
func.func @linear_registers(%a: tensor<8xf32, #tilegpu.linear<{register = [[1], [2], [4], [0], [0], [0], [0], [0], [0]], lane = [[0], [0], [0], [0], [0]], warp = []}>>)
