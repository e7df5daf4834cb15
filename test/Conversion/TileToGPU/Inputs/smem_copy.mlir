// A block tile copied through a ring of two swizzled shared-memory stages
// by cp.async and read back as is (y) and transposed (z): the tilegpu
// shared-memory ops in a whole kernel, as --emit=tilegpu prints IR.
// On the H200 (docs/gpu-kit.md): y == x and z the block-wise transpose of
// x at ragged shapes; memcheck and racecheck clean.
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
module attributes {tile.consts = {}} {
  func.func @copy__grid(%arg0: !tile.view<?x?xbf16>, %arg1: !tile.view<?x?xbf16>, %arg2: !tile.view<?x?xbf16>) -> (index, index, index) {
    %0 = tile.dim %arg0[0] : !tile.view<?x?xbf16>
    %1 = tile.dim %arg0[1] : !tile.view<?x?xbf16>
    %c64 = arith.constant 64 : index
    %2 = tile.cdiv %1, %c64 : index
    %c64_0 = arith.constant 64 : index
    %3 = tile.cdiv %0, %c64_0 : index
    %c1 = arith.constant 1 : index
    return %2, %3, %c1 : index, index, index
  }
  func.func @copy(%arg0: !tile.view<?x?xbf16> {tile.dims = ["M", "N"]}, %arg1: !tile.view<?x?xbf16> {tile.dims = ["M", "N"]}, %arg2: !tile.view<?x?xbf16> {tile.dims = ["M", "N"]}) attributes {tile.grid = @copy__grid, tile.kernel, tile.num_warps = 4 : i64, tile.param_names = ["x", "y", "z"]} {
    %0 = tile.dim %arg0[0] : !tile.view<?x?xbf16>
    %1 = tile.dim %arg0[1] : !tile.view<?x?xbf16>
    %2 = tile.block_id 0
    %3 = tile.block_id 1
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128>
    %s0 = tilegpu.memdesc_index %ring[%c0] : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128>
    %s1 = tilegpu.memdesc_index %ring[%c1] : !tilegpu.memdesc<2x64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128>
    tilegpu.async_copy %arg0[%3, %2], %s0 : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #blocked>
    tilegpu.async_commit_group
    tilegpu.async_copy %arg0[%3, %2], %s1 : !tile.view<?x?xbf16>, !tilegpu.memdesc<64x64xbf16, swizzle = 128> as tensor<64x64xbf16, #blocked>
    tilegpu.async_commit_group
    tilegpu.async_wait 1
    gpu.barrier
    %4 = tilegpu.local_load %s0 : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> tensor<64x64xbf16, #blocked>
    tile.store %4, %arg1[%3, %2] : tensor<64x64xbf16, #blocked>, !tile.view<?x?xbf16>
    tilegpu.async_wait 0
    gpu.barrier
    %st = tilegpu.memdesc_trans %s1 : !tilegpu.memdesc<64x64xbf16, swizzle = 128> -> !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed>
    %5 = tilegpu.local_load %st : !tilegpu.memdesc<64x64xbf16, swizzle = 128, transposed> -> tensor<64x64xbf16, #blocked>
    tile.store %5, %arg2[%3, %2] : tensor<64x64xbf16, #blocked>, !tile.view<?x?xbf16>
    return
  }
}

