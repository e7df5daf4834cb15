// RUN: not tilegym-opt %s --tilegpu-assign-layouts=chip=gfx90a --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory=chip=gfx90a --convert-tile-to-gpu=chip=gfx90a 2>&1 | FileCheck %s
// CHECK: error: invalid chip 'gfx90a'; expected sm_<N> or sm_<N>a
module {}
