// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu --verify-diagnostics

func.func @odd_tile(%x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op GPU backend needs power-of-two tile sizes, got 'tensor<1000xf32>'}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1000xf32>
  tile.store %t, %x[%c0] : tensor<1000xf32>, !tile.view<?xf32>
  return
}

// -----

// expected-error @+1 {{'func.func' op dot tile 16x16 is too small for 4 warps; use fewer warps or a larger tile}}
func.func @dot_too_small(%a: tensor<16x16xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %a, %z : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x8xbf16>, %b: tensor<8x16xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op needs K to be a multiple of 16, got 8}}
  %d = tile.dot %a, %b, %z : tensor<16x8xbf16>, tensor<8x16xbf16>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

// -----

func.func @dot_ieee(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op f32 inputs at ieee precision are not supported by the GPU backend yet}}
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

func.func @while_loop(%n: index) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'scf.while' op is not supported by the GPU backend}}
  %r = scf.while (%i = %c0) : (index) -> index {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i : index
  } do {
  ^bb0(%i: index):
    scf.yield %i : index
  }
  return
}
