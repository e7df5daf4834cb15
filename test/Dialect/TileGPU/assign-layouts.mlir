// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts=remarks=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts="chip=sm_80 remarks=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK80

// Elementwise 1-D f32: 16 bytes (4 elements) per thread, lanes then warps.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [4]}>
// CHECK: func.func @vector
// CHECK: tile.load {{.*}} -> tensor<1024xf32, #blocked>
// CHECK: math.exp {{.*}} : tensor<1024xf32, #blocked>
// CHECK: tile.store {{.*}} : tensor<1024xf32, #blocked>, !tile.view<?xf32>
func.func @vector(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1024xf32>
  %e = math.exp %a : tensor<1024xf32>
  tile.store %e, %y[%c0] : tensor<1024xf32>, !tile.view<?xf32>
  return
}

// -----

// The narrowest view element sets the bytes per thread: 8 bf16, and the f32
// tiles derived from them keep that layout.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK: func.func @widen
// CHECK: tile.load {{.*}} -> tensor<64x128xbf16, #blocked>
// CHECK: arith.extf {{.*}} to tensor<64x128xf32, #blocked>
func.func @widen(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  %b = arith.extf %a : tensor<64x128xbf16> to tensor<64x128xf32>
  tile.store %b, %y[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A row sum keeping its axis shares the rows' layout, and so does the
// broadcast back; one dropping it leaves each sum in the threads of its row
// (a linear layout replicated along the lanes and registers that held the
// row) and converts to the rank-1 layout. A splat constant follows its type.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [2, 1]}>
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [2]}>
// CHECK: func.func @rows
// CHECK: tile.reduce max {{.*}} : tensor<32x64xf32, #blocked> -> tensor<32x1xf32, #blocked>
// CHECK: tile.broadcast {{.*}} : tensor<32x1xf32, #blocked> -> tensor<32x64xf32, #blocked>
// CHECK: arith.constant dense<2.000000e+00> : tensor<32x64xf32, #blocked>
// CHECK: %[[SUM:.*]] = tile.reduce sum {{.*}} : tensor<32x64xf32, #blocked> -> tensor<32xf32, #linear>
// CHECK: %[[ROW:.*]] = tilegpu.convert_layout %[[SUM]] : tensor<32xf32, #linear> -> tensor<32xf32, #blocked1>
// CHECK: tile.store %[[ROW]]
func.func @rows(%x: !tile.view<?x?xf32>, %s: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %m = tile.reduce max %a {axis = 1 : i64, keep_dims} : tensor<32x64xf32> -> tensor<32x1xf32>
  %mb = tile.broadcast %m : tensor<32x1xf32> -> tensor<32x64xf32>
  %two = arith.constant dense<2.0> : tensor<32x64xf32>
  %d = arith.subf %a, %mb : tensor<32x64xf32>
  %d2 = arith.mulf %d, %two : tensor<32x64xf32>
  %r = tile.reduce sum %d2 {axis = 1 : i64} : tensor<32x64xf32> -> tensor<32xf32>
  tile.store %r, %s[%c0] : tensor<32xf32>, !tile.view<?xf32>
  return
}

// -----

// A dot of wgmma's shapes gets its warps along M on sm_90a; its operands,
// used only by the dot, a blocked layout of their own shapes; the
// accumulator carried by the loop and its zero constant share the mma one.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK: #mma = #tilegpu.mma<warps = [4, 1]>
// CHECK: func.func @matmul
// CHECK: arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #mma>)
// CHECK: tile.dot {{.*}} : tensor<128x64xbf16, #blocked>, tensor<64x128xbf16, #blocked1>, tensor<128x128xf32, #mma>
// CHECK: tile.store {{.*}} : tensor<128x128xf32, #mma>, !tile.view<?x?xf32>
// SM80: #mma = #tilegpu.mma<warps = [2, 2]>
// SM80: func.func @matmul
// REMARK: remark: dot accumulating in #tilegpu.mma<warps = [4, 1]> (warps along M: the dot may run as wgmma), operands in #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}> and #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// REMARK: remark: store from #tilegpu.mma<warps = [4, 1]>
// REMARK80: remark: dot accumulating in #tilegpu.mma<warps = [2, 2]> (the warp split loading the fewest operand fragments per k step)
func.func @matmul(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x128xf32>) {
    %at = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %at, %bt, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  tile.store %acc, %c[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A while loop ties its inits, both regions' arguments, what the condition
// forwards, the yield and the results: the accumulator keeps #mma through
// all of them, as in scf.for.
// CHECK: #mma = #tilegpu.mma<warps = [4, 1]>
// CHECK: func.func @while_dot
// CHECK: scf.while ({{.*}}) : (index, tensor<128x128xf32, #mma>) -> (index, tensor<128x128xf32, #mma>)
// CHECK: scf.condition({{.*}}) {{.*}} : index, tensor<128x128xf32, #mma>
// CHECK: tile.dot {{.*}}, tensor<128x128xf32, #mma>
// CHECK: scf.yield {{.*}} : index, tensor<128x128xf32, #mma>
// CHECK: tile.store {{.*}} : tensor<128x128xf32, #mma>, !tile.view<?x?xf32>
func.func @while_dot(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %r:2 = scf.while (%k = %c0, %acc = %z) : (index, tensor<128x128xf32>) -> (index, tensor<128x128xf32>) {
    %go = arith.cmpi slt, %k, %n : index
    scf.condition(%go) %k, %acc : index, tensor<128x128xf32>
  } do {
  ^bb0(%k: index, %acc: tensor<128x128xf32>):
    %at = tile.load %a[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %bt = tile.load %b[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %d = tile.dot %at, %bt, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    %next = arith.addi %k, %c1 : index
    scf.yield %next, %d : index, tensor<128x128xf32>
  }
  tile.store %r#1, %c[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Rows of a dot result that are reduced stay within a warp: warps along M,
// whatever the chip.
// CHECK: #blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
// CHECK: #mma = #tilegpu.mma<warps = [4, 1]>
// CHECK: func.func @scores
// CHECK: tile.load {{.*}} -> tensor<64x32xf16, #blocked>
// CHECK: tile.reduce max {{.*}} : tensor<64x64xf32, #mma> -> tensor<64xf32, #linear>
// CHECK: tilegpu.convert_layout {{.*}} : tensor<64xf32, #linear> -> tensor<64xf32, #blocked2>
// SM80: #mma = #tilegpu.mma<warps = [4, 1]>
// SM80: func.func @scores
// REMARK80: remark: dot accumulating in #tilegpu.mma<warps = [4, 1]> (warps along M as far as its rows go: its rows are reduced, within a warp)
func.func @scores(%q: !tile.view<?x?xf16>, %k: !tile.view<?x?xf16>, %o: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  %kt = tile.load %k[%c0, %c0] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %qt, %kt, %z : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  %m = tile.reduce max %s {axis = 1 : i64} : tensor<64x64xf32> -> tensor<64xf32>
  tile.store %m, %o[%c0] : tensor<64xf32>, !tile.view<?xf32>
  return
}

// -----

// Functions that are not kernels are left alone.
// CHECK: func.func @helper(%arg0: tensor<16xf32>) -> tensor<16xf32>
func.func @helper(%t: tensor<16xf32>) -> tensor<16xf32> {
  return %t : tensor<16xf32>
}

// -----

// A reshape gives its result in the layout that moves no data (the
// source's registers, renamed: a linear layout); its class's own layout is
// reached by an explicit conversion, which tilegpu-remove-layout-conversions
// removes when nothing needs it (remove-layout-conversions.mlir).
// CHECK: #linear = #tilegpu.linear<{register = {{\[\[}}0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32]], lane = {{\[\[}}0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = {{\[\[}}0, 16, 0], [0, 32, 0]]}>
// CHECK: #mma = #tilegpu.mma<warps = [4, 1]>
// CHECK: func.func @batched_store
// CHECK: %[[R:.*]] = tile.reshape {{.*}} : tensor<64x64xf32, #mma> -> tensor<1x64x64xf32, #linear>
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[R]] : tensor<1x64x64xf32, #linear> -> tensor<1x64x64xf32, #blocked1>
// CHECK: arith.truncf %[[C]] : tensor<1x64x64xf32, #blocked1> to tensor<1x64x64xbf16, #blocked1>
// REMARK: remark: layout conversion of tile.reshape's result from #tilegpu.linear<{{.*}}> to #tilegpu.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerBlock = [1, 4, 1]}>
func.func @batched_store(%a: !tile.view<?x?xbf16>, %c: !tile.view<?x?x?xbf16>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = tile.dot %at, %at, %z : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  %r = tile.reshape %acc : tensor<64x64xf32> -> tensor<1x64x64xf32>
  %h = arith.truncf %r : tensor<1x64x64xf32> to tensor<1x64x64xbf16>
  tile.store %h, %c[%c0, %c0, %c0] : tensor<1x64x64xbf16>, !tile.view<?x?x?xbf16>
  return
}

// -----

// Added to a loaded tile, the reshaped accumulator converts to the class's
// blocked layout, which the load has.
// CHECK: #blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 2, 16], warpsPerBlock = [1, 4, 1]}>
// CHECK: func.func @batched_update
// CHECK: tile.reshape {{.*}} -> tensor<1x64x64xf32, #linear>
// CHECK: tilegpu.convert_layout {{.*}} -> tensor<1x64x64xf32, #blocked1>
// CHECK: tile.load {{.*}} -> tensor<1x64x64xf32, #blocked1>
func.func @batched_update(%a: !tile.view<?x?xf32>, %d: !tile.view<?x?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc = tile.dot %at, %at, %z {precision = 1 : i32} : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  %r = tile.reshape %acc : tensor<64x64xf32> -> tensor<1x64x64xf32>
  %old = tile.load %d[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<1x64x64xf32>
  %sum = arith.addf %r, %old : tensor<1x64x64xf32>
  tile.store %sum, %d[%c0, %c0, %c0] : tensor<1x64x64xf32>, !tile.view<?x?x?xf32>
  return
}

// -----

// A scatter stores value element i at index element i: the indices of a
// dot result's scatter join its class and are computed in the mma layout
// (warps along M: a tf32 dot of this shape may run as wgmma).
// CHECK: #mma = #tilegpu.mma<warps = [4, 1]>
// CHECK: func.func @scatter_dot
// CHECK: tile.broadcast {{.*}} -> tensor<64x64xi32, #mma>
// CHECK: tile.scatter {{.*}} : tensor<64x64xf32, #mma>, !tile.view<?xf32>, [tensor<64x64xi32, #mma>]
func.func @scatter_dot(%a: !tile.view<?x?xf32>, %out: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %at = tile.load %a[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tile.dot %at, %at, %z {precision = 1 : i32} : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  %i = tile.iota : tensor<64xi32>
  %r = tile.reshape %i : tensor<64xi32> -> tensor<1x64xi32>
  %idx = tile.broadcast %r : tensor<1x64xi32> -> tensor<64x64xi32>
  tile.scatter %d, %out[%idx] : tensor<64x64xf32>, !tile.view<?xf32>, [tensor<64x64xi32>]
  return
}

// -----

// Each class is blocked for its own shape, not for the largest tile of its
// rank: the [64, 32] tile, transposed into a [32, 64] one and stored beside
// a [64, 128] tile, is covered once (lanes 4 x 8 of 4 f32), not twice by
// the 128-wide layout the larger tile takes.
// CHECK-DAG: #[[WIDE:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1]}>
// CHECK-DAG: #[[NARROW:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
// CHECK-DAG: #[[SQUARE:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>
// CHECK: func.func @own_shape
// CHECK: tile.load {{.*}} -> tensor<64x128xf32, #[[WIDE]]>
// CHECK: tile.load {{.*}} -> tensor<64x32xf32, #[[NARROW]]>
// CHECK: %[[T:.*]] = tile.permute {{.*}} : tensor<64x32xf32, #[[NARROW]]> -> tensor<32x64xf32, #linear>
// CHECK: tilegpu.convert_layout %[[T]] : tensor<32x64xf32, #linear> -> tensor<32x64xf32, #[[SQUARE]]>
func.func @own_shape(%x: !tile.view<?x?xf32>, %w: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %z: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x128xf32>
  %e = math.exp %a : tensor<64x128xf32>
  tile.store %e, %y[%c0, %c0] : tensor<64x128xf32>, !tile.view<?x?xf32>
  %b = tile.load %w[%c0, %c0] : !tile.view<?x?xf32> -> tensor<64x32xf32>
  %t = tile.permute %b [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  tile.store %t, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A dot tile smaller than the kernel's warps cover (16 rows by 8 columns
// each): as many warps as the tile takes (1 x 2 of 4), the others hold
// copies, where the kernel used to be refused.
// CHECK: #mma = #tilegpu.mma<warps = [1, 2]>
// CHECK: func.func @dot_on_fewer_warps
// CHECK: tile.dot {{.*}} : tensor<16x16xbf16, #blocked>, tensor<16x16xbf16, #blocked>, tensor<16x16xf32, #mma>
// REMARK: remark: dot accumulating in #tilegpu.mma<warps = [1, 2]> (the warp split loading the fewest operand fragments per k step; the tile takes 2 of 4 warps, the others hold copies)
func.func @dot_on_fewer_warps(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %a, %z : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A tf32 matmul whose operands stream through the loop (windows of loads)
// and whose B is loaded [K][N] may run as wgmma on the transposed product
// (a tf32 B read N-major from registers): its accumulator takes the
// swapped wgmma layout, warps along N, whatever stores it. On sm_80 it is
// #mma. With B read through a transpose (already K-major) it keeps #mma
// with warps along M.
// CHECK: #linear = #tilegpu.linear<{register = {{\[\[}}1, 0], [0, 4]], lane = {{\[\[}}2, 0], [4, 0], [0, 1], [0, 2], [0, 16]], warp = {{\[\[}}0, 8], [0, 32], [0, 64]]}>
// CHECK: func.func @tf32_swapped
// CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #linear>
// CHECK: tile.dot {{.*}}, tensor<128x128xf32, #linear>
// CHECK: tile.store {{.*}} : tensor<128x128xf32, #linear>
// CHECK: func.func @tf32_bt
// CHECK: tile.dot {{.*}}, tensor<128x128xf32, #mma>
// SM80: func.func @tf32_swapped
// SM80: tile.dot {{.*}}, tensor<128x128xf32, #mma>
// REMARK: remark: dot accumulating in #tilegpu.linear<{register = {{\[\[}}1, 0], [0, 4]]{{.*}} (wgmma on the transposed product: a tf32 rhs [K][N] is read from registers)
// REMARK: remark: dot accumulating in #tilegpu.mma<warps = [8, 1]> (warps along M: the dot may run as wgmma)
func.func @tf32_swapped(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %va[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x32xf32>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x32xf32>, tensor<32x128xf32>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %bn = tile.load %vb[%k1, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %d = tile.dot %ta, %tb, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x32xf32>, tensor<32x128xf32>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
func.func @tf32_bt(%va: !tile.view<?x?xf32>, %vb: !tile.view<?x?xf32>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %a0 = tile.load %va[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x32xf32>
  %b0 = tile.load %vb[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x32xf32>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<128x128xf32>, tensor<128x32xf32>, tensor<128x32xf32>) {
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %bn = tile.load %vb[%c0, %k1] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %bt = tile.permute %tb [1, 0] : tensor<128x32xf32> -> tensor<32x128xf32>
    %d = tile.dot %ta, %bt, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32>
    scf.yield %d, %an, %bn : tensor<128x128xf32>, tensor<128x32xf32>, tensor<128x32xf32>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}
