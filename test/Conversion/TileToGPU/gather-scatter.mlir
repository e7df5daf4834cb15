// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-allocate-shared-memory --convert-tile-to-gpu=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
//
// Gathers and scatters whose coordinates are a window along the last
// dimension (the last coordinates an iota plus values constant along it,
// the others constant along it) move each thread's run of 4 registers as
// one 16-byte vector when every run is aligned, in bounds and masked in at
// run time, else element by element; any other coordinates element by
// element only.

// A window at a data-dependent start (load_at / store_at with a shape):
// rows from a loaded [8, 1] tile broadcast along the row, columns an iota
// plus a scalar. Each thread holds one run of 4 of the [8, 16] tile.
// REMARK: :41:8: remark: tile.gather of a window: runs of 4 elements contiguous along the last dimension, accessed as 16-byte vectors when every run is aligned and in bounds at run time
// REMARK: :44:3: remark: tile.scatter of a window: runs of 4 elements contiguous along the last dimension, accessed as 16-byte vectors when every run is aligned and in bounds at run time
// CHECK-LABEL: gpu.func @window
// The run's start: a multiple of 4 along the last dimension.
// CHECK: %[[LOW:.*]] = arith.andi %{{.*}}, %c3{{.*}} : index
// CHECK: arith.cmpi eq, %[[LOW]], %c0{{.*}} : index
// CHECK: %[[G:.*]] = scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: } else {
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: llvm.extractelement %[[G]]
// CHECK: arith.mulf
// CHECK: scf.if %{{.*}} {
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
func.func @window(%x: !tile.view<?x?xf32>, %rows: !tile.view<?x1xi32>,
                  %y: !tile.view<?x?xf32>, %c: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %r = tile.load %rows[%c0, %c0] : !tile.view<?x1xi32> -> tensor<8x1xi32>
  %rb = tile.broadcast %r : tensor<8x1xi32> -> tensor<8x16xi32>
  %iota = tile.iota : tensor<16xi32>
  %row = tile.reshape %iota : tensor<16xi32> -> tensor<1x16xi32>
  %rowb = tile.broadcast %row : tensor<1x16xi32> -> tensor<8x16xi32>
  %start = tile.splat %c : tensor<8x16xi32>
  %cols = arith.addi %rowb, %start : tensor<8x16xi32>
  %t = tile.gather %x[%rb, %cols] : !tile.view<?x?xf32>, [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xf32>
  %two = arith.constant dense<2.0> : tensor<8x16xf32>
  %u = arith.mulf %t, %two : tensor<8x16xf32>
  tile.scatter %u, %y[%rb, %cols] : tensor<8x16xf32>, !tile.view<?x?xf32>, [tensor<8x16xi32>, tensor<8x16xi32>]
  return
}

// -----

// A mask: the run is one vector only when its 4 mask bits are all set.
// REMARK: :71:8: remark: tile.gather of a window
// CHECK-LABEL: gpu.func @masked_window
// CHECK: %[[M0:.*]] = arith.cmpi slt
// CHECK-NEXT: %[[M1:.*]] = arith.cmpi slt
// CHECK-NEXT: %[[M2:.*]] = arith.cmpi slt
// CHECK-NEXT: %[[M3:.*]] = arith.cmpi slt
// CHECK: %[[F0:.*]] = arith.andi %{{.*}}, %[[M0]] : i1
// CHECK-NEXT: %[[F1:.*]] = arith.andi %[[F0]], %[[M1]] : i1
// CHECK-NEXT: %[[F2:.*]] = arith.andi %[[F1]], %[[M2]] : i1
// CHECK-NEXT: %[[F3:.*]] = arith.andi %[[F2]], %[[M3]] : i1
// CHECK: scf.if %[[F3]] -> (vector<4xf32>) {
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
func.func @masked_window(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>, %c: i32, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %iota = tile.iota : tensor<128xi32>
  %start = tile.splat %c : tensor<128xi32>
  %cols = arith.subi %iota, %start : tensor<128xi32>
  %limit = tile.splat %n : tensor<128xi32>
  %m = arith.cmpi slt, %iota, %limit : tensor<128xi32>
  %t = tile.gather %x[%cols] mask %m : !tile.view<?xf32>, [tensor<128xi32>], tensor<128xi1> -> tensor<128xf32>
  tile.store %t, %y[%c0] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

// Not windows: every other column (stride 2), columns from data, rows that
// change along the row (a 2-D iota reshaped from [128] to [8, 16] steps by
// one along the last dimension, but then its rows are not constant), and
// the iota subtracted from a constant (stride -1). Element by element, no
// remark (the vectors are the index load's and the stores').
// REMARK-NOT: remark
// CHECK-LABEL: gpu.func @not_windows
// CHECK-NOT: !llvm.ptr<1> -> vector<4xf32>
// CHECK: gpu.return
func.func @not_windows(%x: !tile.view<?xf32>, %x2: !tile.view<?x?xf32>,
                       %idx: !tile.view<?xi32>, %y: !tile.view<?xf32>,
                       %y2: !tile.view<?x?xf32>)
    attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %iota = tile.iota : tensor<128xi32>
  %two = arith.constant dense<2> : tensor<128xi32>
  %even = arith.muli %iota, %two : tensor<128xi32>
  %a = tile.gather %x[%even] : !tile.view<?xf32>, [tensor<128xi32>] -> tensor<128xf32>
  tile.store %a, %y[%c0] : tensor<128xf32>, !tile.view<?xf32>
  %cols = tile.load %idx[%c0] : !tile.view<?xi32> -> tensor<128xi32>
  %b = tile.gather %x[%cols] : !tile.view<?xf32>, [tensor<128xi32>] -> tensor<128xf32>
  tile.store %b, %y[%c0] : tensor<128xf32>, !tile.view<?xf32>
  %grid = tile.reshape %iota : tensor<128xi32> -> tensor<8x16xi32>
  %c = tile.gather %x2[%grid, %grid] : !tile.view<?x?xf32>, [tensor<8x16xi32>, tensor<8x16xi32>] -> tensor<8x16xf32>
  tile.store %c, %y2[%c0, %c0] : tensor<8x16xf32>, !tile.view<?x?xf32>
  %k = arith.constant dense<127> : tensor<128xi32>
  %rev = arith.subi %k, %iota : tensor<128xi32>
  %d = tile.gather %x[%rev] : !tile.view<?xf32>, [tensor<128xi32>] -> tensor<128xf32>
  tile.store %d, %y[%c0] : tensor<128xf32>, !tile.view<?xf32>
  return
}
