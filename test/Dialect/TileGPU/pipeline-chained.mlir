// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline | FileCheck %s
// RUN: tilegym-opt %s --split-input-file --tilegpu-pipeline=chain-copy-addresses=true | FileCheck %s --check-prefix=OPTION
//
// The copies a kernel's staged loads become are `chained` when the kernel
// says so (tilegpu.chain_copy_addresses = true, as chooseCopyAddresses
// sets it from ptxas's spills) or the pass's option asks for it; a kernel
// marked false copies with direct addresses (as an unmarked one does:
// pipeline.mlir).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @marked
// CHECK-COUNT-4: tilegpu.async_copy {{.*}} chained :
// OPTION-LABEL: func.func @marked
// OPTION-COUNT-4: tilegpu.async_copy {{.*}} chained :
func.func @marked(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.chain_copy_addresses = true} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1]}>
#mma = #tilegpu.mma<warps = [4, 1]>

// CHECK-LABEL: func.func @marked_false
// CHECK-NOT: chained
// CHECK: return
// OPTION-LABEL: func.func @marked_false
// OPTION-COUNT-4: tilegpu.async_copy {{.*}} chained :
func.func @marked_false(%va: !tile.view<?x?xbf16>, %vb: !tile.view<?x?xbf16>, %vc: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64, tilegpu.chain_copy_addresses = false} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kt = tile.dim %va[1] : !tile.view<?x?xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %a0 = tile.load %va[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
  %b0 = tile.load %vb[%c0, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0, index = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %ta = %a0, %tb = %b0) -> (tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>) {
    %d = tile.dot %ta, %tb, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>, tensor<64x64xf32, #mma>
    %k1 = arith.addi %k, %c1 : index
    %an = tile.load %va[%c0, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<64x32xbf16, #a>
    %bn = tile.load %vb[%k1, %c0] {tilegpu.stage = #tilegpu.stage<ring = 1, stages = 2, swizzle = 0>} : !tile.view<?x?xbf16> -> tensor<32x64xbf16, #b>
    scf.yield %d, %an, %bn : tensor<64x64xf32, #mma>, tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b>
  }
  tile.store %r#0, %vc[%c0, %c0] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
