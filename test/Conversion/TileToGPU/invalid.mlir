// RUN: tilegym-opt %s --split-input-file --convert-tile-to-gpu --verify-diagnostics

func.func @odd_tile(%x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op GPU backend needs power-of-two tile sizes, got 'tensor<1000xf32>'}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1000xf32>
  tile.store %t, %x[%c0] : tensor<1000xf32>, !tile.view<?xf32>
  return
}

// -----

func.func @dot(%a: tensor<16x16xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op is not supported by the GPU backend yet}}
  %d = tile.dot %a, %a, %z : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
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
