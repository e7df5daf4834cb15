// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a --verify-diagnostics
// RUN: not tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
//
// Tensor maps the lowering cannot give a kernel.

// SM80: error: 'func.func' op takes tensor maps, which need the TMA (sm_90 or later); the target is sm_80
// expected-error @+1 {{tensor map 0 describes parameter 3, which must be a view of rank 2}}
func.func @no_such_view(%a: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 3, box = [64, 64]>]} {
  return
}

// -----

// expected-error @+1 {{tensor map 0 describes parameter 0, which must be a view of rank 3}}
func.func @wrong_rank(%a: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [1, 64, 64]>]} {
  return
}


// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// A store through a map of another view, and through one the kernel lacks.
func.func @store_wrong_map(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 32]>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  // expected-error @+1 {{stores through tensor map 0, which must be one of the kernel's, of this parameter, with the box of the tile's 128-byte column blocks of whole-byte elements}}
  tile.store %t, %c[%c0, %c0] {tilegpu.tma = 0 : i64} : tensor<64x64xf32, #a>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

func.func @store_no_map(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 32]>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  // expected-error @+1 {{stores through tensor map 3, which must be one of the kernel's}}
  tile.store %t, %c[%c0, %c0] {tilegpu.tma = 3 : i64} : tensor<64x64xf32, #a>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// The store's scratch is placed by tilegpu-allocate-shared-memory.
func.func @store_no_scratch(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [64, 32]>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32, #a>
  // expected-error @+1 {{needs 16384 bytes of shared memory but has 0 in its 'tilegpu.shared': run tilegpu-allocate-shared-memory first}}
  tile.store %t, %c[%c0, %c0] {tilegpu.tma = 0 : i64} : tensor<64x64xf32, #a>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

func.func @store_few_rows(%a: !tile.view<?x?xf32>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [4, 32]>]} {
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x64xf32, #a>
  // expected-error @+1 {{stores a tile whose rows are not a multiple of 8 through the TMA (the 128-byte swizzle's atom)}}
  tile.store %t, %c[%c0, %c0] {tilegpu.tma = 0 : i64} : tensor<4x64xf32, #a>, !tile.view<?x?xf32>
  return
}
