// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots --tilegpu-pipeline --tilegpu-allocate-shared-memory --convert-tile-to-gpu | FileCheck %s

// A 128x128x32 bf16 dot on 8 warps. The operands, used only by the dot, get
// blocked layouts of their own shapes: each element is loaded once, 16 bytes
// at a time, and staged with 16-byte stores into rows padded to an odd
// number of 16-byte units ([128][32+8] and [32][128+8] bf16: 18944 bytes).
// The accumulator is not reduced, so its warps split 4 (M) x 2 (N), which
// reads the fewest fragments: per k step of 16, four ldmatrix.x4.trans of B
// (two 8-column blocks each) and one ldmatrix.x4 of A per 16 rows, each
// followed by its 8 mma.sync.

// CHECK: llvm.mlir.global internal @mm__smem() {{.*}} : !llvm.array<18944 x i8>
// CHECK-LABEL: gpu.func @mm
// CHECK-COUNT-2: llvm.load {{.*}} -> vector<8xbf16>
// CHECK-COUNT-2: llvm.load {{.*}} -> vector<8xbf16>
// CHECK-NOT: llvm.load {{.*}} -> vector<8xbf16>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
// CHECK-NEXT: llvm.extractvalue
// CHECK-NOT: nvvm.ldmatrix {{.*}}mma_layout<col>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-COUNT-8: nvvm.mma.sync
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
func.func @mm(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = tile.dot %ta, %tb, %z : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
  tile.store %d, %c[%c0, %c0] : tensor<128x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// The same dot whose rows are then reduced: warps split M first (8 x 1) so
// that each row stays in one warp, and each warp reads all of B: eight
// ldmatrix.x4.trans per k step, then one of A and 16 mma.sync.

// CHECK-LABEL: gpu.func @scores
// CHECK-COUNT-8: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
// CHECK-NOT: nvvm.ldmatrix {{.*}}mma_layout<col>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK-NOT: nvvm.ldmatrix {{.*}}mma_layout<row>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4
func.func @scores(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x128xbf16>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = tile.dot %ta, %tb, %z : tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>
  %m = tile.reduce max %d {axis = 1 : i64, keep_dims} : tensor<128x128xf32> -> tensor<128x1xf32>
  tile.store %m, %c[%c0, %c0] : tensor<128x1xf32>, !tile.view<?x?xf32>
  return
}

// -----

// f16 fragments are vector<2xf16> for mma.sync; a single 8-column block of
// B (N = 8) is read with ldmatrix.x2.trans.

// CHECK-LABEL: gpu.func @narrow
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// CHECK: llvm.bitcast {{.*}} : i32 to vector<2xf16>
// CHECK: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// CHECK: nvvm.mma.sync
func.func @narrow(%a: !tile.view<?x?xf16>, %b: !tile.view<?x?xf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x8xf16>
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %ta, %tb, %z : tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x8xf32>
  tile.store %d, %c[%c0, %c0] : tensor<16x8xf32>, !tile.view<?x?xf32>
  return
}

// -----

// FA2's second dot: P (scores after a row reduction, so warps split M only)
// cast to bf16 is the lhs, in the accumulator's own mma layout. Its
// registers are the A fragments (accumulator pairs of N blocks 2k, 2k+1 as
// bf16x2): only B is staged, and no ldmatrix reads A.
// CHECK-LABEL: gpu.func @pv
// CHECK: nvvm.mma.sync
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.store {{.*}} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-NOT: mma_layout<row>
// CHECK: llvm.bitcast {{.*}} : vector<2xbf16> to i32
// CHECK: nvvm.mma.sync
func.func @pv(%a: !tile.view<?x?xbf16>, %b: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>, %c: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x32xbf16>
  %tb = tile.load %b[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x64xbf16>
  %tv = tile.load %v[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tile.dot %ta, %tb, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %m = tile.reduce max %s {axis = 1 : i64, keep_dims} : tensor<64x64xf32> -> tensor<64x1xf32>
  %mb = tile.broadcast %m : tensor<64x1xf32> -> tensor<64x64xf32>
  %d = arith.subf %s, %mb : tensor<64x64xf32>
  %p = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xbf16>
  %o = tile.dot %p, %tv, %mb : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  tile.store %o, %c[%c0, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
