// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --tilegpu-remove-layout-conversions --tilegpu-accelerate-dots --tilegpu-pipeline --tilegpu-allocate-shared-memory --convert-tile-to-gpu --verify-diagnostics

func.func @dot_k(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x8xbf16>
  %b = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<8x16xbf16>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tilegpu.mma' op needs K to be a multiple of 16, got 8}}
  %d = tile.dot %a, %b, %z : tensor<16x8xbf16>, tensor<8x16xbf16>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}
// -----

func.func @dot_ieee(%in: !tile.view<?x?xf32>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x8xf32>
  %b = tile.load %in[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tilegpu.mma' op f32 inputs at ieee precision are not supported by the GPU backend yet}}
  %d = tile.dot %a, %b, %z {precision = 0 : i32} : tensor<16x8xf32>, tensor<8x16xf32>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}
// -----

func.func @non_splat(%x: !tile.view<?xi32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'arith.constant' op non-splat tile constants are not supported by the GPU backend yet}}
  %t = arith.constant dense<[0, 1]> : tensor<2xi32>
  tile.store %t, %x[%c0] : tensor<2xi32>, !tile.view<?xi32>
  return
}
// -----

func.func @tensor_op(%x: !tile.view<?xf32>, %i: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32xf32>
  // expected-error @+1 {{'tensor.extract' op on tiles is not supported by the GPU backend}}
  %e = tensor.extract %t[%i] : tensor<32xf32>
  return
}
// -----

func.func @execute_region(%n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  // expected-error @+1 {{'scf.execute_region' op is not supported by the GPU backend}}
  %r = scf.execute_region -> index {
    scf.yield %n : index
  }
  return
}
// -----

// The scores' class is reduced, so its 4 warps split M (2) then N (2): the
// second dot's 8 columns are fewer than the 16 its warps cover.
func.func @dot_narrower_than_warps(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<32x16xbf16>
  %b = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x64xbf16>
  %c = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x8xbf16>
  %z = arith.constant dense<0.0> : tensor<32x64xf32>
  %s = tile.dot %a, %b, %z : tensor<32x16xbf16>, tensor<16x64xbf16>, tensor<32x64xf32>
  %m = tile.reduce max %s {axis = 1 : i64, keep_dims} : tensor<32x64xf32> -> tensor<32x1xf32>
  %acc = tile.broadcast %m : tensor<32x1xf32> -> tensor<32x8xf32>
  // expected-error @+1 {{'tilegpu.mma' op tile 32x8 is smaller than the 32x16 its warps cover}}
  %d = tile.dot %a, %c, %acc : tensor<32x16xbf16>, tensor<16x8xbf16>, tensor<32x8xf32>
  tile.store %d, %x[%c0, %c0] : tensor<32x8xf32>, !tile.view<?x?xf32>
  return
}
