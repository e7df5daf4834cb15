// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The decision is the same when made again.
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma --tilegpu-assign-tma | FileCheck %s --check-prefix=AGAIN
// Off: no ring on the TMA, no tensor maps.
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma="enable=false" | FileCheck %s --check-prefix=OFF
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma="enable=false remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF-REMARK
// Stores off: the rings still on the TMA, no store.
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma="stores=false" | FileCheck %s --check-prefix=NOSTORES
// Before sm_90 there is no TMA: the pass leaves the kernels alone.
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-tma="chip=sm_80" | FileCheck %s --check-prefix=SM80
//
// The pass alone, on kernels whose stages are written out (what
// tilegpu-accelerate-dots gives them).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// REMARK: remark: ring 0 is copied by the TMA: tensor map 0 of parameter 0, 1 box of [64, 64] a stage, falling back to cp.async where the view is not 16-byte aligned
// REMARK: remark: ring 1 is copied by the TMA: tensor map 1 of parameter 1, 2 boxes of [32, 64] a stage
// CHECK-LABEL: func.func @windows
// CHECK-SAME: tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [32, 64]>]
// CHECK: tile.load %arg0[%c0, %c0] {tilegpu.stage = {{.*}}, tilegpu.tma = 0 : i64}
// CHECK: tile.load %arg1[%c0, %c0] {tilegpu.stage = {{.*}}, tilegpu.tma = 1 : i64}
// CHECK: tile.load %arg0[%c0, %{{.*}}] {tilegpu.stage = {{.*}}, tilegpu.tma = 0 : i64}
// CHECK: tile.load %arg1[%{{.*}}, %c0] {tilegpu.stage = {{.*}}, tilegpu.tma = 1 : i64}
// AGAIN-LABEL: func.func @windows
// AGAIN-SAME: tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 0, box = [64, 64]>, #tilegpu.tensor_map<view = 1, box = [32, 64]>]
// AGAIN-COUNT-4: tilegpu.tma =
// OFF-REMARK: remark: ring 0 is copied by cp.async, not the TMA: the TMA is off (tilegpu-assign-tma enable=false)
// OFF-LABEL: func.func @windows
// OFF-NOT: tilegpu.tma
// SM80-LABEL: func.func @windows
// SM80-NOT: tilegpu.tma
// Two rings on the TMA: A [64, 64] bf16 (one 128-byte column block), B
// [32, 128] (two: two boxes a stage, one tensor map).
func.func @windows(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x128xbf16, #a>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x64xbf16, #a>, tensor<32x128xbf16, #a>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 128>} : !tile.view<?x?xbf16> -> tensor<32x128xbf16, #a>
    scf.yield %acc, %an, %bn : tensor<64x128xf32, #mma>, tensor<64x64xbf16, #a>, tensor<32x128xbf16, #a>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// REMARK: remark: ring 0 is copied by cp.async, not the TMA: its stages have padded rows (swizzle = 0), which the TMA does not write
// REMARK: remark: ring 1 is copied by cp.async, not the TMA: its stages hold the tile transposed
// REMARK: remark: ring 2 is copied by cp.async, not the TMA: it is filled inside a loop, once each time round it
// REMARK: remark: ring 3 is copied by cp.async, not the TMA: it is filled inside a loop, once each time round it
// CHECK-LABEL: func.func @not_on_the_tma
// CHECK-NOT: tilegpu.tensor_maps
// CHECK-NOT: tilegpu.tma
// CHECK: return
// Padded rows, a transposed stage, a tile loaded in a loop, and a window
// through a loop inside another.
func.func @not_on_the_tma(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 0, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
  %t = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0, transposed = true>} : !tile.view<?x?xf32> -> tensor<32x64xf32, #a>
  scf.for %i = %c0 to %c4 step %c1 {
    %o = tile.load %vc[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 2, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    scf.for %k = %c0 to %c4 step %c1 {
      tile.store %o, %vc[%k, %c0] : tensor<64x32xf32, #a>, !tile.view<?x?xf32>
    }
    %w0 = tile.load %vc[%i, %c0] {tilegpu.stage = #tilegpu.stage<ring = 3, stages = 2, swizzle = 128, index = 0>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
    %w = scf.for %k = %c0 to %c4 step %c1 iter_args(%t0 = %w0) -> (tensor<64x32xf32, #a>) {
      tile.store %t0, %vc[%k, %c0] : tensor<64x32xf32, #a>, !tile.view<?x?xf32>
      %wn = tile.load %vc[%k, %c1] {tilegpu.stage = #tilegpu.stage<ring = 3, stages = 2, swizzle = 128>} : !tile.view<?x?xf32> -> tensor<64x32xf32, #a>
      scf.yield %wn : tensor<64x32xf32, #a>
    }
  }
  return
}

// -----

#a3 = #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerBlock = [1, 4, 1]}>

// REMARK: remark: ring 0 is copied by the TMA: tensor map 0 of parameter 1, 2 boxes of [1, 64, 32] a stage
// REMARK: remark: ring 1 is copied by the TMA: tensor map 0 of parameter 1, 2 boxes of [1, 64, 32] a stage
// CHECK-LABEL: func.func @shared_map
// CHECK-SAME: tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 1, box = [1, 64, 32]>]
// CHECK-COUNT-2: tilegpu.tma = 0 : i64
// OFF-LABEL: func.func @shared_map
// OFF-NOT: tilegpu.tensor_maps
// A 3-D view of f32 (128-byte boxes of 32) read in two tiles of one
// shape: one tensor map serves both rings.
func.func @shared_map(%vc: !tile.view<?x?x?xf32>, %va: !tile.view<?x?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tile.load %va[%c0, %c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?x?xf32> -> tensor<1x64x64xf32, #a3>
  %y = tile.load %va[%c1, %c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?x?xf32> -> tensor<1x64x64xf32, #a3>
  tile.store %x, %vc[%c0, %c0, %c0] : tensor<1x64x64xf32, #a3>, !tile.view<?x?x?xf32>
  tile.store %y, %vc[%c1, %c0, %c0] : tensor<1x64x64xf32, #a3>, !tile.view<?x?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>

// REMARK: remark: ring 0 is copied by cp.async, not the TMA: the TMA is off for this kernel (tile.tma = 0, --no-tma)
// CHECK-LABEL: func.func @kernel_off
// CHECK-NOT: tilegpu.tma
// A kernel that asks for no TMA (tilegym-cc --no-tma).
func.func @kernel_off(%va: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.tma = 0 : i64} {
  %c0 = arith.constant 0 : index
  %x = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 1, swizzle = 128, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x64xbf16, #a>
  tile.store %x, %vc[%c0, %c0] : tensor<64x64xbf16, #a>, !tile.view<?x?xbf16>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// REMARK: remark: this store of a dot's result is the TMA's: the tile written once to shared memory, then tensor map 0 of parameter 2, 4 boxes of [64, 32], falling back to the threads' stores where the view is not 16-byte aligned
// REMARK: remark: this store of a dot's result is the TMA's: the tile written once to shared memory, then tensor map 1 of parameter 3, 2 boxes of [64, 64]
// REMARK: remark: this store of a dot's result is not the TMA's: its rows are not a multiple of 128 bytes (the 128-byte swizzle's rows)
// REMARK: remark: this store of a dot's result is not the TMA's: its tile's rows are not a multiple of 8 (the 128-byte swizzle's atom)
// REMARK: remark: this store of a dot's result is not the TMA's: its elements are not whole bytes (a predicate is stored a byte an element by the threads)
// REMARK-NOT: remark: this store
// CHECK-LABEL: func.func @epilogues
// CHECK-SAME: tilegpu.tensor_maps = [#tilegpu.tensor_map<view = 2, box = [64, 32]>, #tilegpu.tensor_map<view = 3, box = [64, 64]>]
// CHECK: tile.store %{{.*}}, %arg2[%c0, %c0] {tilegpu.tma = 0 : i64}
// CHECK: tile.store %{{.*}}, %arg3[%c0, %c0] {tilegpu.tma = 1 : i64}
// CHECK: tile.store %{{.*}}, %arg2[%c1, %c0] :
// CHECK: tile.store %{{.*}}, %arg2[%c1, %c1] :
// CHECK: tile.store %{{.*}}, %arg3[%c1, %c1] :
// CHECK: tile.store %{{.*}}, %arg4[%c0, %c0] :
// NOSTORES-LABEL: func.func @epilogues
// NOSTORES-NOT: tilegpu.tma
// OFF-LABEL: func.func @epilogues
// OFF-NOT: tilegpu.tma
// OFF-REMARK: remark: this store of a dot's result is not the TMA's: the TMA is off (tilegpu-assign-tma enable=false)
// SM80-LABEL: func.func @epilogues
// SM80-NOT: tilegpu.tma
// A dot's result (through a loop and a cast) stored by the TMA as f32 (4
// column blocks of 32) and bf16 (2 of 64); not: a 64 x 16 f32 tile (rows
// of 64 bytes), a 4-row tile (less than the swizzle's 8-row atom), a
// tile that no dot computed, and a predicate on a dot's result.
func.func @epilogues(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>, %vd: !tile.view<?x?xbf16>, %ve: !tile.view<?x?xi1>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
  %y = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x128xbf16, #a>
  %r = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z) -> (tensor<64x128xf32, #mma>) {
    %x = tile.load %va[%c0, %k] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %d = tile.dot %x, %y, %acc : tensor<64x32xbf16, #a>, tensor<32x128xbf16, #a>, tensor<64x128xf32, #mma>
    scf.yield %d : tensor<64x128xf32, #mma>
  }
  tile.store %r, %vc[%c0, %c0] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  %h = arith.truncf %r : tensor<64x128xf32, #mma> to tensor<64x128xbf16, #mma>
  tile.store %h, %vd[%c0, %c0] : tensor<64x128xbf16, #mma>, !tile.view<?x?xbf16>
  %x16 = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %y16 = tile.load %vb[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x16xbf16, #a>
  %z16 = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
  %n = tile.dot %x16, %y16, %z16 : tensor<64x32xbf16, #a>, tensor<32x16xbf16, #a>, tensor<64x16xf32, #mma>
  tile.store %n, %vc[%c1, %c0] : tensor<64x16xf32, #mma>, !tile.view<?x?xf32>
  %x4 = tile.load %va[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<4x32xbf16, #a>
  %z4 = arith.constant dense<0.0> : tensor<4x128xf32, #mma>
  %f = tile.dot %x4, %y, %z4 : tensor<4x32xbf16, #a>, tensor<32x128xbf16, #a>, tensor<4x128xf32, #mma>
  tile.store %f, %vc[%c1, %c1] : tensor<4x128xf32, #mma>, !tile.view<?x?xf32>
  %l = tile.load %vd[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16, #a>
  tile.store %l, %vd[%c1, %c1] : tensor<64x128xbf16, #a>, !tile.view<?x?xbf16>
  %p = arith.cmpf ogt, %r, %z : tensor<64x128xf32, #mma>
  tile.store %p, %ve[%c0, %c0] : tensor<64x128xi1, #mma>, !tile.view<?x?xi1>
  return
}
