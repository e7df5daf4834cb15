// RUN: tilegym-opt %s --split-input-file | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD
//
// The tilegpu layouts print and parse back, as aliases defined once.

// CHECK-DAG: #blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK-DAG: #blocked1 = #tilegpu.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerBlock = []}>
// CHECK-DAG: #mma = #tilegpu.mma<warps = [2, 2]>
// CHECK-DAG: #linear = #tilegpu.linear<{register = {{\[\[}}0, 1], [8, 0]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}0, 8], [16, 0]]}>
// CHECK: func.func @types(%{{.*}}: tensor<64x128xf32, #blocked>, %{{.*}}: tensor<f32, #blocked1>, %{{.*}}: tensor<32x16xf32, #mma>, %{{.*}}: tensor<32x16xf32, #linear>)
func.func @types(%a: tensor<64x128xf32, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>>,
                 %b: tensor<f32, #tilegpu.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerBlock = []}>>,
                 %c: tensor<32x16xf32, #tilegpu.mma<warps = [2, 2]>>,
                 %d: tensor<32x16xf32, #tilegpu.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 8], [16, 0]]}>>) {
  return
}

// -----

// A conversion between two layouts stays; one to the same layout folds.
#mma = #tilegpu.mma<warps = [2, 2]>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK-LABEL: func.func @convert
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// FOLD-LABEL: func.func @convert
// FOLD-NEXT: %[[C:.*]] = tilegpu.convert_layout %arg0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// FOLD-NEXT: return %[[C]], %arg0
func.func @convert(%a: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>) {
  %b = tilegpu.convert_layout %a : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
  %c = tilegpu.convert_layout %a : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return %b, %c : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #mma>
}
