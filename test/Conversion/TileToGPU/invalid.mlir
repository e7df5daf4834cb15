// RUN: tilegym-opt %s --split-input-file --tilegpu-assign-layouts --convert-tile-to-gpu --verify-diagnostics

func.func @odd_tile(%x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op GPU backend needs power-of-two tile sizes, got 'tensor<1000xf32>'}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<1000xf32>
  tile.store %t, %x[%c0] : tensor<1000xf32>, !tile.view<?xf32>
  return
}

// -----

// The error points at the dot, not at the kernel.
func.func @dot_too_small(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{dot tile 16x16 is too small for 4 warps; use fewer warps or a larger tile}}
  %d = tile.dot %a, %a, %z : tensor<16x16xbf16>, tensor<16x16xbf16>, tensor<16x16xf32>
  tile.store %d, %x[%c0, %c0] : tensor<16x16xf32>, !tile.view<?x?xf32>
  return
}

// -----

func.func @dot_k(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 1 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<16x8xbf16>
  %b = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<8x16xbf16>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'tile.dot' op needs K to be a multiple of 16, got 8}}
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
  // expected-error @+1 {{'tile.dot' op tile 32x8 is smaller than the 32x16 its warps cover}}
  %d = tile.dot %a, %c, %acc : tensor<32x16xbf16>, tensor<16x8xbf16>, tensor<32x8xf32>
  tile.store %d, %x[%c0, %c0] : tensor<32x8xf32>, !tile.view<?x?xf32>
  return
}

// -----

// expected-error @+1 {{'func.func' op GPU kernels take views and scalars, not tiles: 'tensor<16xf32>'}}
func.func @tile_argument(%t: tensor<16xf32>, %x: !tile.view<?xf32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  tile.store %t, %x[%c0] : tensor<16xf32>, !tile.view<?xf32>
  return
}

// -----

// Staging a 256x64 and a 64x256 operand takes 256*72*2 + 64*264*2 bytes.
// The error points at the dot whose operands take it.
func.func @dot_too_much_shared(%in: !tile.view<?x?xbf16>, %x: !tile.view<?x?xf32>) attributes {tile.kernel, tile.num_warps = 8 : i64} {
  %c0 = arith.constant 0 : index
  %a = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<256x64xbf16>
  %b = tile.load %in[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x256xbf16>
  %z = arith.constant dense<0.0> : tensor<256x256xf32>
  // expected-error @+1 {{the kernel needs 70656 bytes of static shared memory, more than the 49152 a block can have; this op stages 70656 of them: use smaller tiles}}
  %d = tile.dot %a, %b, %z : tensor<256x64xbf16>, tensor<64x256xbf16>, tensor<256x256xf32>
  tile.store %d, %x[%c0, %c0] : tensor<256x256xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Every element of a tile is a register of some thread: 65536 f32 over 128
// threads would be 512 each, past the register file.
func.func @tile_past_registers(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op 'tensor<65536xf32>' needs 512 registers per thread over 4 warps; the GPU limit is 256 elements per thread per tile: use a smaller tile or more warps}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<65536xf32>
  tile.store %t, %x[%c0] : tensor<65536xf32>, !tile.view<?xf32>
  return
}

// -----

// At the limit it compiles: 32768 over 128 threads is 256 each.
func.func @tile_at_register_limit(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<32768xf32>
  tile.store %t, %x[%c0] : tensor<32768xf32>, !tile.view<?xf32>
  return
}

// -----

// f64 exists for float64 reference kernels on the CPU only.
// expected-error @+1 {{f64 runs on the CPU only (float64 reference kernels); the GPU backend takes f32, f16, bf16, i32 and i1}}
func.func @f64_view(%x: !tile.view<?xf64>) attributes {tile.kernel, tile.grid = @f64_view__grid} {
  return
}
func.func @f64_view__grid(%x: !tile.view<?xf64>) -> (index, index, index) {
  %c1 = arith.constant 1 : index
  return %c1, %c1, %c1 : index, index, index
}
