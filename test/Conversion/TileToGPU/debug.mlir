// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu=chip=sm_90a | FileCheck %s

// A print is one gpu.printf per register of the tile (CUDA's vprintf), with
// the block's and the element's coordinates: 64 elements on 2 warps of 32
// lanes are 1 register, covered once (no owner test).
// CHECK-LABEL: gpu.func @print_tile
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[BZ:.*]] = gpu.block_id z
// CHECK: %[[E:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: gpu.printf "{{.*}}debug.mlir:{{[0-9]+}}:3: block (%d, %d, %d) [%d] x %g %d\0A", %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[E]], %{{.*}} : i32, i32, i32, i32, f64, i32
// CHECK-NOT: gpu.printf
// CHECK: gpu.return
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2]}>
func.func @print_tile(%x: !tile.view<?xf32>, %n: i32) attributes {tile.kernel, tile.num_warps = 2 : i64, tile.debug = 1 : i64} {
  %c0 = arith.constant 0 : index
  %v = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<64xf32, #l>
  tile.print "x" : %v, %n : tensor<64xf32, #l>, i32
  return
}

// -----

// A tile smaller than the threads' coverage is replicated: only the first
// copy of each element prints (the owner test on lane and warp bits), and
// register copies not at all. bf16 goes through f32. A print without a tile
// comes from thread 0 alone.
// CHECK-LABEL: gpu.func @print_replicated
// CHECK: scf.if %{{.*}} {
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: gpu.printf "{{.*}}block (%d, %d, %d) [%d, %d] %g\0A"
// CHECK-NOT: gpu.printf "{{.*}}[%d, %d]
// CHECK: %[[T0:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[T0]] {
// CHECK: gpu.printf "{{.*}}block (%d, %d, %d) count %lld\0A"
#l = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
func.func @print_replicated(%x: !tile.view<?x?xbf16>, %i: index) attributes {tile.kernel, tile.num_warps = 4 : i64, tile.debug = 1 : i64} {
  %c0 = arith.constant 0 : index
  %v = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<2x4xbf16, #l>
  tile.print "" : %v : tensor<2x4xbf16, #l>
  tile.print "count" : %i : index
  return
}

// -----

// An assert folds the thread's registers with `and`; cf.assert, named by the
// kernel (CUDA prints the name), carries the message with its location.
// CHECK-LABEL: gpu.func @assert_tile
// CHECK-COUNT-4: arith.cmpf ogt
// CHECK: %[[A:.*]] = arith.andi
// CHECK-NEXT: %[[B:.*]] = arith.andi %[[A]]
// CHECK-NEXT: %[[C:.*]] = arith.andi %[[B]]
// CHECK-NEXT: cf.assert %[[C]], "{{.*}}debug.mlir:{{[0-9]+}}:3: x is positive"
#l = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1]}>
func.func @assert_tile(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64, tile.debug = 1 : i64} {
  %c0 = arith.constant 0 : index
  %v = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<128xf32, #l>
  %z = arith.constant dense<0.0> : tensor<128xf32, #l>
  %ok = arith.cmpf ogt, %v, %z : tensor<128xf32, #l>
  tile.assert %ok, "x is positive" : tensor<128xi1, #l>
  return
}
