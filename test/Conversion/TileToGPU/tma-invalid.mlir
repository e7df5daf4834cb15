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

