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

// -----

// expected-error @+1 {{a ring needs at least 1 stage, got 0}}
func.func @no_stages() attributes {x = #tilegpu.stage<ring = 0, stages = 0, swizzle = 0, index = 0>}

// -----

// expected-error @+1 {{swizzle must be 0 (padded rows) or 128, got 64}}
func.func @swizzle() attributes {x = #tilegpu.stage<ring = 0, stages = 2, swizzle = 64, index = 0>}

// -----

// expected-error @+1 {{stage index 2 is outside the 2 stages loaded before the loop}}
func.func @index() attributes {x = #tilegpu.stage<ring = 0, stages = 3, swizzle = 0, index = 2>}

// -----

// expected-error @+1 {{a one-stage ring is filled before the loop and needs index = 0}}
func.func @one_stage() attributes {x = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0>}

// -----

// expected-error @+1 {{ring number must not be negative, got -1}}
func.func @ring() attributes {x = #tilegpu.stage<ring = -1, stages = 1, swizzle = 0, index = 0>}

// -----

// expected-error @+2 {{expected ::tilegym::tilegpu::DotInstruction to be one of: mma_sync, wgmma}}
// expected-error @+1 {{failed to parse TileGPU_DotInstructionAttr parameter 'value'}}
func.func @instruction() attributes {x = #tilegpu.dot<hgmma>}

// -----

func.func @dot_attr_on_load(%v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tilegpu.dot' belongs on a tile.dot}}
  %t = tile.load %v[%i] {tilegpu.dot = #tilegpu.dot<wgmma>} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @stage_attr_kind(%v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tilegpu.stage' must be a #tilegpu.stage<...>}}
  %t = tile.load %v[%i] {tilegpu.stage = 3 : i64} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @stage_attr_on_dot(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tilegpu.stage' belongs on a tile.load}}
  %d = tile.dot %a, %b, %c {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

func.func @dot_attr_kind(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'tilegpu.dot' must be a #tilegpu.dot<...> instruction}}
  %d = tile.dot %a, %b, %c {tilegpu.dot = "wgmma"} : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}

// -----

// expected-error @+1 {{unknown tilegpu attribute 'tilegpu.layout'}}
func.func @unknown() attributes {tilegpu.layout = 1 : i64}

// -----

func.func @shared_attr_kind(%v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tilegpu.shared' must be a #tilegpu.shared<...>}}
  %t = tile.load %v[%i] {tilegpu.shared = 16 : i64} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @shared_offset(%v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{offset must be a non-negative multiple of 16, got 8}}
  %t = tile.load %v[%i] {tilegpu.shared = #tilegpu.shared<offset = 8, bytes = 64>} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @shared_bytes(%v: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{an allocation needs at least 1 byte, got 0}}
  %t = tile.load %v[%i] {tilegpu.shared = #tilegpu.shared<offset = 0, bytes = 0>} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

// expected-error @+1 {{'tilegpu.shared_memory' belongs on a kernel, as the bytes of its shared-memory buffer (an integer >= 0)}}
func.func @shared_memory_total() attributes {tilegpu.shared_memory = -1 : i64} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.chain_copy_addresses' belongs on a kernel, as whether its copies chain their run addresses (a bool)}}
func.func @chain_copy_addresses_not_bool() attributes {tilegpu.chain_copy_addresses = 1 : i64} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.chain_copy_addresses' belongs on a kernel, as whether its copies chain their run addresses (a bool)}}
module attributes {tilegpu.chain_copy_addresses = true} {
}

// -----

// expected-error @+1 {{'tilegpu.producer_warps' belongs on a kernel, as the warps its producer adds (an integer > 0)}}
func.func @producer_warps_zero() attributes {tilegpu.producer_warps = 0 : i64} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.persistent' belongs on a kernel, as the blocks per SM its persistent launch runs (1 to 32)}}
func.func @persistent_zero() attributes {tilegpu.persistent = 0 : i64} {
  return
}

// -----

// expected-error @+1 {{'tilegpu.persistent' belongs on a kernel, as the blocks per SM its persistent launch runs (1 to 32)}}
module attributes {tilegpu.persistent = 1 : i64} {
}

// -----

// expected-error @+1 {{'tilegpu.cluster' belongs on a kernel, as the blocks of its clusters (2)}}
func.func @cluster_four() attributes {tilegpu.cluster = 4 : i64} {
  return
}

// -----

// expected-error @+1 {{shared-memory tile sizes must be powers of two (stages positive), got 100}}
func.func @memdesc_size(%m: !tilegpu.memdesc<2x100x64xbf16, swizzle = 0>)

// -----

// expected-error @+1 {{shared-memory tiles hold fp8, 16- or 32-bit elements, got 'f64'}}
func.func @memdesc_element(%m: !tilegpu.memdesc<64x64xf64, swizzle = 0>)

// -----

// expected-error @+1 {{swizzle must be 0 (padded rows) or 128, got 64}}
func.func @memdesc_swizzle(%m: !tilegpu.memdesc<64x64xbf16, swizzle = 64>)

// -----

// expected-error @+1 {{the 128-byte swizzle needs stored rows of a multiple of 128 bytes and a multiple of 8 rows}}
func.func @memdesc_swizzle_rows(%m: !tilegpu.memdesc<64x32xbf16, swizzle = 128>)

// -----

// A ring whose bytes would overflow any count of them.
// expected-error @+1 {{a shared-memory tile holds at most 2147483648 bytes; 1048576x1048576x1048576x1048576 elements are more}}
func.func @memdesc_huge(%m: !tilegpu.memdesc<1048576x1048576x1048576x1048576xbf16, swizzle = 0>)

// -----

// expected-error @+1 {{a shared-memory tile holds at most 2147483648 bytes; 1024x1024x1024 elements are more}}
func.func @memdesc_past_bound(%m: !tilegpu.memdesc<1024x1024x1024xbf16, swizzle = 0>)

// -----

// At the bound (twice its 2^30 bytes, for padded rows): the verifier takes
// it; the allocation then says it does not fit a block.
func.func private @memdesc_at_bound(%m: !tilegpu.memdesc<512x1024x1024xbf16, swizzle = 0>)

// -----

// expected-error @+1 {{a shared-memory tile needs at least one dimension}}
func.func @memdesc_scalar(%m: !tilegpu.memdesc<bf16, swizzle = 0>)

// -----

// expected-error @+1 {{a transposed tile needs two dimensions}}
func.func @memdesc_transposed(%m: !tilegpu.memdesc<64xbf16, swizzle = 0, transposed>)

// -----

func.func @alloc_transposed() {
  // expected-error @+1 {{allocates a transposed tile, a K-major wgmma operand, which needs swizzle = 128}}
  %r = tilegpu.local_alloc : !tilegpu.memdesc<64x64xbf16, swizzle = 0, transposed>
  return
}

// -----

func.func @index_no_stages(%r: !tilegpu.memdesc<64xf32, swizzle = 0>, %i: index) {
  // expected-error @+1 {{indexes the stages of a ring: its source needs a leading dimension}}
  %s = tilegpu.memdesc_index %r[%i] : !tilegpu.memdesc<64xf32, swizzle = 0> -> !tilegpu.memdesc<64xf32, swizzle = 0>
  return
}

// -----

func.func @index_result(%r: !tilegpu.memdesc<2x64x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{result must be one stage of}}
  %s = tilegpu.memdesc_index %r[%i] : !tilegpu.memdesc<2x64x64xbf16, swizzle = 0> -> !tilegpu.memdesc<64x32xbf16, swizzle = 0>
  return
}

// -----

func.func @trans_rank(%r: !tilegpu.memdesc<2x64x64xbf16, swizzle = 0>) {
  // expected-error @+1 {{transposes 2-D tiles}}
  %t = tilegpu.memdesc_trans %r : !tilegpu.memdesc<2x64x64xbf16, swizzle = 0> -> !tilegpu.memdesc<2x64x64xbf16, swizzle = 0, transposed>
  return
}

// -----

func.func @trans_result(%r: !tilegpu.memdesc<128x64xbf16, swizzle = 0>) {
  // expected-error @+1 {{with its dimensions and storage order swapped}}
  %t = tilegpu.memdesc_trans %r : !tilegpu.memdesc<128x64xbf16, swizzle = 0> -> !tilegpu.memdesc<64x128xbf16, swizzle = 0>
  return
}

// -----

func.func @copy_indices(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{needs 2 tile indices for its view, got 1}}
  tilegpu.async_copy %v[%i], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @copy_elements(%v: !tile.view<?x?xf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{copies 'f16' elements: the view, the destination and the layout must agree}}
  tilegpu.async_copy %v[%i, %i], %s : !tile.view<?x?xf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @copy_rank(%v: !tile.view<?x?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{layout must be a tile of the view's rank 3}}
  tilegpu.async_copy %v[%i, %i, %i], %s : !tile.view<?x?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

// A transposed destination takes one 4-byte cp.async per element.
func.func @copy_transposed(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0, transposed>, %i: index) {
  // expected-error @+1 {{copies into a transposed tile element by element, which needs 32-bit elements, got 'bf16'}}
  tilegpu.async_copy %v[%i, %i], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0, transposed> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @copy_shape(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{must have the destination's shape (leading unit dimensions aside)}}
  tilegpu.async_copy %v[%i, %i], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @copy_runs(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>, %i: index) {
  // expected-error @+1 {{layout must give each thread runs of 16 contiguous bytes, one cp.async each}}
  tilegpu.async_copy %v[%i, %i], %s : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @load_shape(%s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>) {
  // expected-error @+1 {{result must have the shape and elements of}}
  %t = tilegpu.local_load %s : !tilegpu.memdesc<128x64xbf16, swizzle = 0> -> tensor<64x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @load_layout(%s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>) {
  // expected-error @+1 {{result has no distributed layout}}
  %t = tilegpu.local_load %s : !tilegpu.memdesc<128x64xbf16, swizzle = 0> -> tensor<128x64xbf16>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_ring(%a: !tilegpu.memdesc<2x64x64xbf16, swizzle = 0>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{multiplies 2-D tiles: one stage, not a ring}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<2x64x64xbf16, swizzle = 0>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_shapes(%a: !tilegpu.memdesc<64x32xbf16, swizzle = 0>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{needs lhs M x K, rhs K x N and acc M x N, got 64x32, 64x64 and 64x64}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x32xbf16, swizzle = 0>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_elements(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %b: !tilegpu.memdesc<64x64xf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands must both be f16, bf16, f32 or fp8, got 'bf16' and 'f16'}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 0>, !tilegpu.memdesc<64x64xf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_sync_fp8(%a: !tilegpu.memdesc<64x64xf8E4M3FN, swizzle = 0>, %b: !tilegpu.memdesc<64x64xf8E4M3FN, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{mma_sync takes no fp8 operands: widen them to f16 (tilegpu-legalize-dots)}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x64xf8E4M3FN, swizzle = 0>, !tilegpu.memdesc<64x64xf8E4M3FN, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_fp8_n_major(%a: !tilegpu.memdesc<64x128xf8E4M3FN, swizzle = 128>, %b: !tilegpu.memdesc<128x128xf8E5M2, swizzle = 128>, %c: tensor<64x128xf32, #mma>) {
  // expected-error @+1 {{wgmma takes fp8 operands both from shared memory, K-major (the rhs transposed)}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x128xf8E4M3FN, swizzle = 128>, !tilegpu.memdesc<128x128xf8E5M2, swizzle = 128>, tensor<64x128xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_accumulator(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf16, #mma>) {
  // expected-error @+1 {{accumulates in f32, got 'f16'}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 0>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_lhs_transposed(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 0, transposed>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{reads its lhs as stored, [M][K]: not transposed}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 0, transposed>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_sync_swizzled(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 128>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{mma_sync reads shared-memory tiles unswizzled, rows padded, got '!tilegpu.memdesc<64x64xbf16, swizzle = 128>'}}
  %d = tilegpu.mma mma_sync %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_unswizzled(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 128>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{wgmma reads shared-memory tiles under the 128-byte swizzle, got '!tilegpu.memdesc<64x64xbf16, swizzle = 0>'}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_f32(%a: !tilegpu.memdesc<64x64xf32, swizzle = 128>, %b: !tilegpu.memdesc<64x64xf32, swizzle = 128>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{wgmma takes f32 operands as tf32, both from shared memory, K-major (the rhs transposed)}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x64xf32, swizzle = 128>, !tilegpu.memdesc<64x64xf32, swizzle = 128>, tensor<64x64xf32, #mma>
  return
}

// -----

#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>
func.func @wgmma_swapped_padded_b(%a: !tilegpu.memdesc<64x32xf32, swizzle = 128>, %b: !tilegpu.memdesc<32x128xf32, swizzle = 0>, %c: tensor<64x128xf32, #swapped>) {
  // expected-error @+1 {{wgmma reads shared-memory tiles under the 128-byte swizzle}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x32xf32, swizzle = 128>, !tilegpu.memdesc<32x128xf32, swizzle = 0>, tensor<64x128xf32, #swapped>
  return
}

// -----

#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>
func.func @wgmma_swapped_lhs_in_registers(%a: tensor<64x32xf32, #swapped>, %b: !tilegpu.memdesc<32x128xf32, swizzle = 128>, %c: tensor<64x128xf32, #swapped>) {
  // expected-error @+1 {{wgmma on the transposed product (the swapped accumulator layout) reads a tf32 lhs from shared memory}}
  %d = tilegpu.mma wgmma %a, %b, %c : tensor<64x32xf32, #swapped>, !tilegpu.memdesc<32x128xf32, swizzle = 128>, tensor<64x128xf32, #swapped>
  return
}

// -----

#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>
func.func @wgmma_swapped_narrow_n(%a: !tilegpu.memdesc<64x32xf32, swizzle = 128>, %b: !tilegpu.memdesc<32x32xf32, swizzle = 128>, %c: tensor<64x32xf32, #swapped>) {
  // expected-error @+1 {{wgmma on the transposed product takes N a multiple of 64 (64 for each warpgroup), M a multiple of 8 up to 256 and K of 8, got M x N x K = 64x32x32}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x32xf32, swizzle = 128>, !tilegpu.memdesc<32x32xf32, swizzle = 128>, tensor<64x32xf32, #swapped>
  return
}

// -----

#swapped = #tilegpu.linear<{register = [[1, 0], [0, 4]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = [[0, 8], [0, 32]]}>
func.func @wgmma_swapped_lhs_unswizzled(%a: !tilegpu.memdesc<64x32xf32, swizzle = 0>, %b: !tilegpu.memdesc<32x128xf32, swizzle = 0>, %c: tensor<64x128xf32, #swapped>) {
  // expected-error @+1 {{wgmma reads shared-memory tiles under the 128-byte swizzle, got '!tilegpu.memdesc<64x32xf32, swizzle = 0>'}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x32xf32, swizzle = 0>, !tilegpu.memdesc<32x128xf32, swizzle = 0>, tensor<64x128xf32, #swapped>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_rhs_registers(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 128>, %b: tensor<64x64xbf16, #mma>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{wgmma reads its rhs from shared memory}}
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 128>, tensor<64x64xbf16, #mma>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
func.func @wgmma_lhs_layout(%a: tensor<64x64xbf16, #blocked>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 128>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{wgmma reads an lhs in registers only in the accumulator's layout}}
  %d = tilegpu.mma wgmma %a, %b, %c : tensor<64x64xbf16, #blocked>, !tilegpu.memdesc<64x64xbf16, swizzle = 128>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @mma_instruction(%a: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %b: !tilegpu.memdesc<64x64xbf16, swizzle = 0>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{expected a dot instruction, mma_sync or wgmma, got 'hmma'}}
  %d = tilegpu.mma hmma %a, %b, %c : !tilegpu.memdesc<64x64xbf16, swizzle = 0>, !tilegpu.memdesc<64x64xbf16, swizzle = 0>, tensor<64x64xf32, #mma>
  return
}

// -----

// expected-error @+1 {{linear layout basis entry 2097152 is past the largest tile dimension, 1048576}}
func.func @linear_huge(%a: tensor<8xf32, #tilegpu.linear<{register = [[2097152]], lane = [[0], [0], [0], [0], [0]], warp = []}>>)

// -----

// expected-error @+1 {{a linear layout has at most 5 warp bases (32 warps), got 6}}
func.func @linear_warps(%a: tensor<8xf32, #tilegpu.linear<{register = [], lane = [[1], [2], [4], [0], [0]], warp = [[0], [0], [0], [0], [0], [0]]}>>)

// -----

func.func @index_past_ring(%r: !tilegpu.memdesc<3x64x64xbf16, swizzle = 0>) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{stage 3 is outside the ring's 3 stages}}
  %s = tilegpu.memdesc_index %r[%c3] : !tilegpu.memdesc<3x64x64xbf16, swizzle = 0> -> !tilegpu.memdesc<64x64xbf16, swizzle = 0>
  return
}

// -----

func.func @index_negative(%r: !tilegpu.memdesc<3x64x64xbf16, swizzle = 0>) {
  %c = arith.constant -1 : index
  // expected-error @+1 {{stage -1 is outside the ring's 3 stages}}
  %s = tilegpu.memdesc_index %r[%c] : !tilegpu.memdesc<3x64x64xbf16, swizzle = 0> -> !tilegpu.memdesc<64x64xbf16, swizzle = 0>
  return
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_f32_ieee(%a: !tilegpu.memdesc<64x64xf32, swizzle = 128>, %b: !tilegpu.memdesc<64x64xf32, swizzle = 128, transposed>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{wgmma takes f32 operands as tf32, both from shared memory, K-major (the rhs transposed)}}
  %d = tilegpu.mma wgmma %a, %b, %c {precision = 0 : i32} : !tilegpu.memdesc<64x64xf32, swizzle = 128>, !tilegpu.memdesc<64x64xf32, swizzle = 128, transposed>, tensor<64x64xf32, #mma>
  return
}

// -----

// A tf32 wgmma as it is valid: A [M][K], B stored transposed, K-major.
#mma = #tilegpu.mma<warps = [4, 1]>
func.func @wgmma_tf32(%a: !tilegpu.memdesc<64x32xf32, swizzle = 128>, %b: !tilegpu.memdesc<32x64xf32, swizzle = 128, transposed>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tilegpu.mma wgmma %a, %b, %c : !tilegpu.memdesc<64x32xf32, swizzle = 128>, !tilegpu.memdesc<32x64xf32, swizzle = 128, transposed>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

// Copies into a transposed f32 stage take any layout (one element each).
func.func @copy_transposed_f32(%v: !tile.view<?x?xf32>, %s: !tilegpu.memdesc<32x128xf32, swizzle = 128, transposed>, %i: index) {
  tilegpu.async_copy %v[%i, %i], %s : !tile.view<?x?xf32>, !tilegpu.memdesc<32x128xf32, swizzle = 128, transposed> as tensor<32x128xf32, #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @stage_transposed_padded(%v: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{a transposed stage is a wgmma operand and needs swizzle = 128, got 0}}
  %t = tile.load %v[%i, %i] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0, transposed = true>} : !tile.view<?x?xf32> -> tensor<32x128xf32>
  return
}

// -----

// The TMA: tensor maps, mbarriers, copies and waits.

// expected-error @+1 {{box sizes must be in [1, 256], got 512}}
func.func @box_size() attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [512, 64]>]}

// -----

// expected-error @+1 {{a tensor map's box has 1 to 5 dimensions, got 6}}
func.func @box_rank() attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [1, 1, 1, 1, 8, 64]>]}

// -----

// expected-error @+1 {{view must be a parameter's position, got -1}}
func.func @map_view() attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = -1, box = [8, 64]>]}

// -----

// expected-error @+1 {{'tilegpu.tensor_maps' belongs on a kernel, as an array of #tilegpu.tensor_map}}
func.func @maps_not_maps() attributes {tilegpu.tensor_maps = [1, 2]}

// -----

func.func @tma_not_on_load(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'tilegpu.tma' belongs on a staged tile.load or a tile.store, as the position of its tensor map (an integer >= 0)}}
  %b = arith.addf %a, %a {tilegpu.tma = 0 : i64} : tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// expected-error @+1 {{'tilegpu.tensor_map_params' belongs on a lowered kernel, as the positions of its tensor-map parameters}}
func.func @params_not_array() attributes {tilegpu.tensor_map_params = 3 : i64}

// -----

// expected-error @+1 {{needs at least 1 mbarrier, got 0}}
func.func @no_mbarriers(%b: !tilegpu.mbarriers<0>)

// -----

func.func @tma_copy_padded(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 0>, %bars: !tilegpu.mbarriers<2>, %i: index, %j: i32) attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  // expected-error @+1 {{copies with the TMA, which writes stages with the 128-byte swizzle, not transposed; got '!tilegpu.memdesc<128x64xbf16, swizzle = 0>'}}
  tilegpu.async_copy %v[%i, %i], %s tma(%bars[%j], 0) : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 0> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>, !tilegpu.mbarriers<2>
  return
}

// -----

func.func @tma_copy_no_map(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 128>, %bars: !tilegpu.mbarriers<2>, %i: index, %j: i32) {
  // expected-error @+1 {{uses tensor map 0 but its kernel's tilegpu.tensor_maps has 0}}
  tilegpu.async_copy %v[%i, %i], %s tma(%bars[%j], 0) : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>, !tilegpu.mbarriers<2>
  return
}

// -----

func.func @tma_copy_partial(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 128>, %bars: !tilegpu.mbarriers<2>, %i: index) attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  // expected-error @+1 {{copies with the TMA given mbarriers, the index of one and a tensor map together}}
  "tilegpu.async_copy"(%v, %i, %i, %s, %bars) <{layout = tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>, operandSegmentSizes = array<i32: 1, 2, 1, 1, 0>}> : (!tile.view<?x?xbf16>, index, index, !tilegpu.memdesc<128x64xbf16, swizzle = 128>, !tilegpu.mbarriers<2>) -> ()
  return
}

// -----

func.func @multicast_no_tma(%v: !tile.view<?x?xbf16>, %s: !tilegpu.memdesc<128x64xbf16, swizzle = 128>, %i: index) {
  // expected-error @+1 {{multicasts only the TMA's copies (tma(...))}}
  tilegpu.async_copy %v[%i, %i], %s multicast : !tile.view<?x?xbf16>, !tilegpu.memdesc<128x64xbf16, swizzle = 128> as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
  return
}

// -----

func.func @wait_no_map(%bars: !tilegpu.mbarriers<2>, %j: i32) attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [128, 64]>]} {
  // expected-error @+1 {{uses tensor map 1 but its kernel's tilegpu.tensor_maps has 1}}
  tilegpu.mbarrier_wait %bars[%j], %j tensor_map 1 : !tilegpu.mbarriers<2>
  return
}

// -----

func.func @ws_producer_warps() {
  // expected-error @+1 {{producer warps must be whole warpgroups (a multiple of 4) to resize their registers, got 6}}
  tilegpu.warp_specialize producer warps 6 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 240 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

func.func @ws_registers() {
  // expected-error @+1 {{consumer registers must be a multiple of 8 from 24 to 256 (setmaxnreg), got 260}}
  tilegpu.warp_specialize producer warps 4 registers 24 {
    %p = arith.constant 0 : index
  } consumer registers 260 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

func.func @ws_producer_registers() {
  // expected-error @+1 {{producer registers must be a multiple of 8 from 24 to 256 (setmaxnreg), got 20}}
  tilegpu.warp_specialize producer warps 4 registers 20 {
    %p = arith.constant 0 : index
  } consumer registers 232 {
    %c = arith.constant 0 : index
  }
  return
}

// -----

func.func @tensor_map_active_unknown() attributes {tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>]} {
  // expected-error @+1 {{uses tensor map 1 but its kernel's tilegpu.tensor_maps has 1}}
  %ok = tilegpu.tensor_map_active 1
  return
}

// -----

func.func @ws_one_budget() {
  // expected-error @+1 {{takes register budgets for both sides or for neither}}
  "tilegpu.warp_specialize"() <{producerWarps = 1 : i64, producerRegisters = 24 : i64}> ({
    %p = arith.constant 0 : index
  }, {
    %c = arith.constant 0 : index
  }) : () -> ()
  return
}

// -----

func.func @turn_outside_consumers() {
  // expected-error @+1 {{'tilegpu.turn_wait' op must be in the consumer region of a tilegpu.warp_specialize}}
  tilegpu.turn_wait
  return
}

// -----

func.func @turn_in_producer() {
  tilegpu.warp_specialize producer warps 1 {
    // expected-error @+1 {{'tilegpu.turn_pass' op must be in the consumer region of a tilegpu.warp_specialize}}
    tilegpu.turn_pass only_last
  } consumer {
    %c = arith.constant 0 : index
  }
  return
}
