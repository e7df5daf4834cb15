// RUN: tilegym-opt %s --split-input-file --tilegpu-accelerate-dots --verify-diagnostics
// RUN: not tilegym-opt %s --split-input-file --tilegpu-accelerate-dots=shared-memory-budget=-2 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not tilegym-opt %s --split-input-file --tilegpu-accelerate-dots=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=CHIP

// BUDGET: error: shared-memory-budget must be -1 (the chip's) or not negative, got -2
// CHIP: error: invalid chip 'gfx90a'; expected sm_<N> or sm_<N>a

// The decision reads the accumulator's layout: a kernel without layouts has
// not been through tilegpu-assign-layouts.
func.func @no_layouts(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tile.kernel, tile.num_warps = 4 : i64} {
  // expected-error @+1 {{result 'tensor<64x64xf32>' has no distributed layout; run tilegpu-assign-layouts first}}
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
