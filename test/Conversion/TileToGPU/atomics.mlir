// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=chip=sm_80 --convert-tile-to-gpu=chip=sm_80 | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory=chip=sm_90a --convert-tile-to-gpu=chip=sm_90a | FileCheck %s --check-prefixes=CHECK,SM90

// 32-bit atomics are one llvm.atomicrmw per element, relaxed at device
// scope, under the element's bounds and mask. A tile covered once (64
// elements over 2 warps of 32 lanes) needs no owner test, and its unused
// old values no shared memory.
// CHECK-LABEL: gpu.func @add_f32
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, f32
// CHECK: llvm.atomicrmw fadd
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @add_f32(%x: !tile.view<?xf32>, %ki: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %k = tile.load %ki[%c0] : !tile.view<?xi32> -> tensor<128xi32, #l>
  %v = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<128xf32, #l>
  %o = tile.atomic_rmw add %v, %x[%k] : tensor<128xf32, #l>, !tile.view<?xf32>, [tensor<128xi32, #l>]
  return
}

// -----

// Float max and min propagate NaN (LLVM's fmaximum and fminimum, a 32-bit
// compare-and-swap loop in PTX); i32 max and min are signed.
// CHECK-LABEL: gpu.func @kinds
// CHECK: llvm.atomicrmw fmaximum {{.*}} : !llvm.ptr<1>, f32
// CHECK: llvm.atomicrmw fminimum {{.*}} : !llvm.ptr<1>, f32
// CHECK: llvm.atomicrmw max {{.*}} : !llvm.ptr<1>, i32
// CHECK: llvm.atomicrmw min {{.*}} : !llvm.ptr<1>, i32
// CHECK: llvm.atomicrmw xchg {{.*}} : !llvm.ptr<1>, i32
// CHECK: %[[PAIR:.*]] = llvm.cmpxchg {{.*}} syncscope("device") monotonic monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.extractvalue %[[PAIR]][0]
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @kinds(%x: !tile.view<?xf32>, %i: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %k = tile.load %i[%c0] : !tile.view<?xi32> -> tensor<32xi32, #l>
  %v = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32, #l>
  %0 = tile.atomic_rmw max %v, %x[%k] : tensor<32xf32, #l>, !tile.view<?xf32>, [tensor<32xi32, #l>]
  %1 = tile.atomic_rmw min %v, %x[%k] : tensor<32xf32, #l>, !tile.view<?xf32>, [tensor<32xi32, #l>]
  %2 = tile.atomic_rmw max %k, %i[%k] : tensor<32xi32, #l>, !tile.view<?xi32>, [tensor<32xi32, #l>]
  %3 = tile.atomic_rmw min %k, %i[%k] : tensor<32xi32, #l>, !tile.view<?xi32>, [tensor<32xi32, #l>]
  %4 = tile.atomic_rmw xchg %k, %i[%k] : tensor<32xi32, #l>, !tile.view<?xi32>, [tensor<32xi32, #l>]
  %5 = tile.atomic_cas %k, %3, %i[%k] : tensor<32xi32, #l>, !tile.view<?xi32>, [tensor<32xi32, #l>]
  return
}

// -----

// 16 bits: f16 add is one atom on every target, bf16 add one on sm_90 and a
// loop around atom.cas.b16 before (never a 32-bit swap of the word around
// the element, which may end past the view).
// CHECK-LABEL: gpu.func @half
// CHECK: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, f16
// SM80: scf.while
// SM80: llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.cas.b16 $0, [$1], $2, $3;"
// SM90: llvm.atomicrmw fadd {{.*}} : !llvm.ptr<1>, bf16
// CHECK: scf.while
// CHECK: arith.maximumf {{.*}} : bf16
// CHECK: llvm.inline_asm has_side_effects "atom.relaxed.gpu.global.cas.b16
// CHECK: arith.cmpi ne
// CHECK: scf.condition
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @half(%h: !tile.view<?xf16>, %b: !tile.view<?xbf16>, %i: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %k = tile.load %i[%c0] : !tile.view<?xi32> -> tensor<32xi32, #l>
  %vh = tile.load %h[%c0] : !tile.view<?xf16> -> tensor<32xf16, #l>
  %vb = tile.load %b[%c0] : !tile.view<?xbf16> -> tensor<32xbf16, #l>
  %0 = tile.atomic_rmw add %vh, %h[%k] : tensor<32xf16, #l>, !tile.view<?xf16>, [tensor<32xi32, #l>]
  %1 = tile.atomic_rmw add %vb, %b[%k] : tensor<32xbf16, #l>, !tile.view<?xbf16>, [tensor<32xi32, #l>]
  %2 = tile.atomic_rmw max %vb, %b[%k] : tensor<32xbf16, #l>, !tile.view<?xbf16>, [tensor<32xi32, #l>]
  return
}

// -----

// A tile replicated over lanes and warps (one element, 2 warps of 32
// lanes): only lane 0 of warp 0 runs the atomic; the old value it read
// reaches every thread through shared memory, between barriers.
// CHECK-LABEL: gpu.func @ticket
// CHECK: arith.andi %{{.*}}, %c31 : index
// CHECK-NEXT: %[[LANE0:.*]] = arith.cmpi eq
// CHECK: %[[WARP0:.*]] = arith.cmpi eq
// CHECK-NEXT: %[[OWNER:.*]] = arith.andi %[[LANE0]], %[[WARP0]] : i1
// CHECK: %[[OK:.*]] = arith.andi %{{.*}}, %[[OWNER]] : i1
// CHECK: %[[OLD:.*]] = scf.if %[[OK]] -> (i32) {
// CHECK: llvm.atomicrmw add
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: llvm.store %[[OLD]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @ticket(%t: !tile.view<?xi32>, %y: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %c0 = arith.constant 0 : index
  %k = arith.constant dense<0> : tensor<1xi32, #l>
  %one = arith.constant dense<1> : tensor<1xi32, #l>
  %o = tile.atomic_rmw add %one, %t[%k] : tensor<1xi32, #l>, !tile.view<?xi32>, [tensor<1xi32, #l>]
  tile.store %o, %y[%c0] : tensor<1xi32, #l>, !tile.view<?xi32>
  return
}

// -----

// An item is register 0 of its tile, which every thread holds (a [1] tile
// replicates over every lane and warp): a scalar, here a tile index.
// CHECK-LABEL: gpu.func @item
// CHECK: %[[T:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: llvm.atomicrmw add
// CHECK: %[[K:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: %[[I:.*]] = arith.index_cast %[[K]] : i32 to index
// CHECK: arith.muli %[[I]], %c64
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @item(%t: !tile.view<?xi32>, %y: !tile.view<?xi32>) attributes {tile.kernel, tile.num_warps = 2 : i64} {
  %k = arith.constant dense<0> : tensor<1xi32, #l>
  %one = arith.constant dense<1> : tensor<1xi32, #l>
  %o = tile.atomic_rmw add %one, %t[%k] : tensor<1xi32, #l>, !tile.view<?xi32>, [tensor<1xi32, #l>]
  %s = tile.item %o : tensor<1xi32, #l>
  %i = arith.index_cast %s : i32 to index
  %z = arith.constant dense<0> : tensor<64xi32, #l>
  tile.store %z, %y[%i] : tensor<64xi32, #l>, !tile.view<?xi32>
  return
}
