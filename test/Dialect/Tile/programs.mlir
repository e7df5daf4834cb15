// RUN: tilegym-opt %s | FileCheck %s
// RUN: tilegym-opt %s --convert-tile-to-linalg | FileCheck %s --check-prefix=LOWERED
// RUN: tilegym-opt %s --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s --check-prefix=LOWERED
// A program names kernels run in order; parameters of one name (here p) are
// one argument, and a name may fill a dimension another kernel left unnamed.

// CHECK: module attributes {tile.programs = {fullsum = [@partial, @total]}}
// LOWERED-NOT: tile.programs
module attributes {tile.programs = {fullsum = [@partial, @total]}} {
  func.func @partial(%x: !tile.view<?xf32> {tile.dims = ["N"]}, %p: !tile.view<?xf32> {tile.dims = ["P"]})
      attributes {tile.kernel, tile.param_names = ["x", "p"]} {
    return
  }
  func.func @total(%p: !tile.view<?xf32>, %s: !tile.view<1xf32>)
      attributes {tile.kernel, tile.param_names = ["p", "s"]} {
    return
  }
}
