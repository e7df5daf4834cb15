// RUN: tilegym-opt %s --split-input-file --verify-diagnostics

func.func @block_id_axis() {
  // expected-error @+1 {{'tile.block_id' op grid axis must be 0, 1 or 2, got 3}}
  %0 = tile.block_id 3
  return
}

// -----

func.func @num_blocks_axis() {
  // expected-error @+1 {{'tile.num_blocks' op grid axis must be 0, 1 or 2, got -1}}
  %0 = tile.num_blocks -1
  return
}

// -----

func.func @dim_axis(%x: !tile.view<?x?xf32>) {
  // expected-error @+1 {{'tile.dim' op axis 2 is out of range for view of rank 2}}
  %0 = tile.dim %x[2] : !tile.view<?x?xf32>
  return
}

// -----

func.func @num_tiles_size(%x: !tile.view<?xf32>) {
  // expected-error @+1 {{'tile.num_tiles' op tile size must be positive, got 0}}
  %0 = tile.num_tiles %x[0] by 0 : !tile.view<?xf32>
  return
}

// -----

func.func @num_tiles_axis(%x: !tile.view<?xf32>) {
  // expected-error @+1 {{'tile.num_tiles' op axis 1 is out of range for view of rank 1}}
  %0 = tile.num_tiles %x[1] by 4 : !tile.view<?xf32>
  return
}

// -----

// expected-error @+1 {{view must have rank at least 1}}
func.func @view_rank0(%x: !tile.view<f32>) {
  return
}

// -----

// expected-error @+1 {{view element type must be f64, f32, f16, bf16, f8E4M3FN, f8E5M2, i64, i32, i8 or i1, got 'i16'}}
func.func @view_elem(%x: !tile.view<?xi16>) {
  return
}

// -----

func.func @splat_dynamic(%s: f32) {
  // expected-error @+1 {{'tile.splat' op result must have a static shape, got 'tensor<?xf32>'}}
  %0 = tile.splat %s : tensor<?xf32>
  return
}

// -----

func.func @iota_rank() {
  // expected-error @+1 {{'tile.iota' op result must be 1-D, got rank 2}}
  %0 = tile.iota : tensor<4x4xi32>
  return
}

// -----

func.func @load_rank(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result rank 1 does not match view rank 2}}
  %0 = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @load_elem(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result element type 'f16' does not match view element type 'f32'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<16xf16>
  return
}

// -----

func.func @load_indices(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op expected 2 tile indices, got 1}}
  %0 = tile.load %x[%i] : !tile.view<?x?xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @load_padding(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op padding type 'f16' does not match element type 'f32'}}
  %0 = tile.load %x[%i] {padding = 0.0 : f16} : !tile.view<?xf32> -> tensor<16xf32>
  return
}

// -----

func.func @load_dynamic(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.load' op result must have a static shape, got 'tensor<?xf32>'}}
  %0 = tile.load %x[%i] : !tile.view<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @store_indices(%t: tensor<4xf32>, %x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op expected 1 tile indices, got 2}}
  tile.store %t, %x[%i, %i] : tensor<4xf32>, !tile.view<?xf32>
  return
}

// -----

func.func @store_elem(%t: tensor<4xbf16>, %x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.store' op value element type 'bf16' does not match view element type 'f32'}}
  tile.store %t, %x[%i] : tensor<4xbf16>, !tile.view<?xf32>
  return
}

// -----

func.func @prefetch_shape_rank(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.prefetch' op shape has 1 entries but the view has rank 2}}
  tile.prefetch %x[%i, %i] shape [64] : !tile.view<?x?xf32>
  return
}

// -----

func.func @prefetch_size(%x: !tile.view<?xf32>, %i: index) {
  // expected-error @+1 {{'tile.prefetch' op tile sizes must be positive, got 0}}
  tile.prefetch %x[%i] shape [0] : !tile.view<?xf32>
  return
}

// -----

func.func @prefetch_indices(%x: !tile.view<?x?xf32>, %i: index) {
  // expected-error @+1 {{'tile.prefetch' op expected 2 tile indices, got 1}}
  tile.prefetch %x[%i] shape [1, 64] : !tile.view<?x?xf32>
  return
}

// -----

func.func @gather_count(%x: !tile.view<?x?xf32>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.gather' op expected 2 coordinate tiles, got 1}}
  %0 = tile.gather %x[%r] : !tile.view<?x?xf32>, [tensor<8xi32>] -> tensor<8xf32>
  return
}

// -----

func.func @gather_shape(%x: !tile.view<?xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{'tile.gather' op coordinate tile shape 'tensor<4xi32>' does not match result shape}}
  %0 = tile.gather %x[%r] : !tile.view<?xf32>, [tensor<4xi32>] -> tensor<8xf32>
  return
}

// -----

func.func @gather_mask(%x: !tile.view<?xf32>, %r: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tile.gather' op mask shape 'tensor<4xi1>' does not match result shape}}
  %0 = tile.gather %x[%r] mask %m : !tile.view<?xf32>, [tensor<8xi32>], tensor<4xi1> -> tensor<8xf32>
  return
}

// -----

func.func @gather_elem(%x: !tile.view<?xf32>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.gather' op result element type 'i32' does not match view element type 'f32'}}
  %0 = tile.gather %x[%r] : !tile.view<?xf32>, [tensor<8xi32>] -> tensor<8xi32>
  return
}

// -----

func.func @gather_padding(%x: !tile.view<?xf32>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.gather' op padding type 'i32' does not match element type 'f32'}}
  %0 = tile.gather %x[%r] {padding = 0 : i32} : !tile.view<?xf32>, [tensor<8xi32>] -> tensor<8xf32>
  return
}

// -----

// expected-error @+1 {{'tile.precise_math' must be from 0 to 1, got 2}}
func.func @precise_math(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.precise_math = 2 : i64} {
  return
}

// -----

func.func @sort_length(%t: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'tile.sort' op sorts lines of a power-of-two length, got 6}}
  %x = tile.sort %t : tensor<4x6xf32> -> tensor<4x6xf32>
  return %x : tensor<4x6xf32>
}

// -----

func.func @sort_k(%t: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'tile.sort' op keeps 16 elements of lines of 8}}
  %x = tile.sort %t : tensor<4x8xf32> -> tensor<4x16xf32>
  return %x : tensor<4x16xf32>
}

// -----

func.func @sort_shape(%t: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'tile.sort' op result 'tensor<2x8xf32>' must be the source's type but for its last size}}
  %x = tile.sort %t : tensor<4x8xf32> -> tensor<2x8xf32>
  return %x : tensor<2x8xf32>
}

// -----

func.func @argsort_type(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tile.sort' op result 'tensor<4x8xf32>' must be the source's shape with i32 elements but for its last size}}
  %x = tile.sort %t {indices} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %x : tensor<4x8xf32>
}

// -----

func.func @sort_i1(%t: tensor<8xi1>) -> tensor<8xi1> {
  // expected-error @+1 {{'tile.sort' op cannot sort an i1 tile}}
  %x = tile.sort %t : tensor<8xi1> -> tensor<8xi1>
  return %x : tensor<8xi1>
}

// -----

func.func @sort_0d(%t: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tile.sort' op cannot sort a 0-D tile}}
  %x = tile.sort %t : tensor<f32> -> tensor<f32>
  return %x : tensor<f32>
}

// -----

func.func @scan_axis(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'tile.scan' op axis 2 is out of range for source of rank 2}}
  %x = tile.scan sum %t {axis = 2 : i64} : tensor<4x8xf32>
  return %x : tensor<4x8xf32>
}

// -----

func.func @scan_i1(%t: tensor<8xi1>) -> tensor<8xi1> {
  // expected-error @+1 {{'tile.scan' op cannot scan an i1 tile}}
  %x = tile.scan max %t {axis = 0 : i64} : tensor<8xi1>
  return %x : tensor<8xi1>
}

// -----

func.func @item_elements(%t: tensor<2xf32>) -> f32 {
  // expected-error @+1 {{'tile.item' op source must have one element, got 'tensor<2xf32>'}}
  %x = tile.item %t : tensor<2xf32>
  return %x : f32
}

// -----

func.func @atomic_i1(%v: tensor<8xi1>, %x: !tile.view<?xi1>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomics take float or integer elements other than i1, got 'i1'}}
  %o = tile.atomic_rmw xchg %v, %x[%r] : tensor<8xi1>, !tile.view<?xi1>, [tensor<8xi32>]
  return
}

// -----

func.func @atomic_element_type(%v: tensor<8xf16>, %x: !tile.view<?xf32>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op value element type 'f16' does not match view element type 'f32'}}
  %o = tile.atomic_rmw add %v, %x[%r] : tensor<8xf16>, !tile.view<?xf32>, [tensor<8xi32>]
  return
}

// -----

func.func @atomic_coordinates(%v: tensor<8xf32>, %x: !tile.view<?x?xf32>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op expected 2 coordinate tiles, got 1}}
  %o = tile.atomic_rmw add %v, %x[%r] : tensor<8xf32>, !tile.view<?x?xf32>, [tensor<8xi32>]
  return
}

// -----

func.func @atomic_mask_shape(%v: tensor<8xf32>, %x: !tile.view<?xf32>, %r: tensor<8xi32>, %m: tensor<4xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op mask shape 'tensor<4xi1>' does not match value shape}}
  %o = tile.atomic_rmw add %v, %x[%r] mask %m : tensor<8xf32>, !tile.view<?xf32>, [tensor<8xi32>], tensor<4xi1>
  return
}

// -----

func.func @cas_i1(%v: tensor<8xi1>, %x: !tile.view<?xi1>, %r: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op atomics take float or integer elements other than i1, got 'i1'}}
  %o = tile.atomic_cas %v, %v, %x[%r] : tensor<8xi1>, !tile.view<?xi1>, [tensor<8xi32>]
  return
}

// -----

func.func @cas_shape(%v: tensor<8xi32>, %x: !tile.view<?xi32>, %r: tensor<2xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op coordinate tile shape 'tensor<2xi32>' does not match value shape}}
  %o = tile.atomic_cas %v, %v, %x[%r] : tensor<8xi32>, !tile.view<?xi32>, [tensor<2xi32>]
  return
}

// -----

func.func @scatter_shape(%v: tensor<8xf32>, %x: !tile.view<?xf32>, %r: tensor<2xi32>) {
  // expected-error @+1 {{'tile.scatter' op coordinate tile shape 'tensor<2xi32>' does not match value shape}}
  tile.scatter %v, %x[%r] : tensor<8xf32>, !tile.view<?xf32>, [tensor<2xi32>]
  return
}

// -----

func.func @broadcast_elem(%t: tensor<1x4xf32>) {
  // expected-error @+1 {{'tile.broadcast' op element type 'f16' does not match source element type 'f32'}}
  %0 = tile.broadcast %t : tensor<1x4xf32> -> tensor<4x4xf16>
  return
}

// -----

func.func @broadcast_rank(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tile.broadcast' op source rank 1 does not match result rank 2}}
  %0 = tile.broadcast %t : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dim(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast dimension 0 of size 2 to 8}}
  %0 = tile.broadcast %t : tensor<2x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @reshape_count(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape 8 elements into 9}}
  %0 = tile.reshape %t : tensor<2x4xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @reshape_elem(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reshape' op element type 'i32' does not match source element type 'f32'}}
  %0 = tile.reshape %t : tensor<2x4xf32> -> tensor<8xi32>
  return
}

// -----

func.func @permute_size(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation has 3 entries for a source of rank 2}}
  %0 = tile.permute %t [0, 1, 2] : tensor<2x4xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @permute_repeat(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation must hold each of 0..1 exactly once}}
  %0 = tile.permute %t [1, 1] : tensor<2x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @permute_elem(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.permute' op element type 'f16' does not match source element type 'f32'}}
  %0 = tile.permute %t [1, 0] : tensor<2x4xf32> -> tensor<4x2xf16>
  return
}

// -----

func.func @permute_shape(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.permute' op result shape does not match the permuted source shape}}
  %0 = tile.permute %t [1, 0] : tensor<2x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reduce_axis(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for source of rank 2}}
  %0 = tile.reduce sum %t {axis = 2 : i64} : tensor<2x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_elem(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op element type 'f16' does not match source element type 'f32'}}
  %0 = tile.reduce max %t {axis = 1 : i64} : tensor<2x4xf32> -> tensor<2xf16>
  return
}

// -----

func.func @reduce_i1(%t: tensor<2x4xi1>) {
  // expected-error @+1 {{'tile.reduce' op cannot sum an i1 tile}}
  %0 = tile.reduce sum %t {axis = 1 : i64} : tensor<2x4xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_prod_i1(%t: tensor<2x4xi1>) {
  // expected-error @+1 {{'tile.reduce' op cannot multiply an i1 tile}}
  %0 = tile.reduce prod %t {axis = 1 : i64} : tensor<2x4xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_keep(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op result shape must be [2, 1] with keep_dims}}
  %0 = tile.reduce sum %t {axis = 1 : i64, keep_dims} : tensor<2x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_drop(%t: tensor<2x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op result shape must be [4] without keep_dims}}
  %0 = tile.reduce min %t {axis = 0 : i64} : tensor<2x4xf32> -> tensor<1x4xf32>
  return
}

// -----

func.func @dot_rank(%a: tensor<4xf16>, %b: tensor<4x4xf16>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be 2-D tiles}}
  %0 = tile.dot %a, %b, %c : tensor<4xf16>, tensor<4x4xf16>, tensor<4x4xf32>
  return
}

// -----

func.func @dot_k(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op contraction sizes differ: lhs is 16x32, rhs is 16x8}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<16x8xf16>, tensor<16x8xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<8x8xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be 16x8, got 8x8}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<32x8xf16>, tensor<8x8xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x32xf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op lhs and rhs element types differ: 'f16' vs 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<32x8xbf16>, tensor<16x8xf32>
  return
}

// -----

func.func @dot_int(%a: tensor<16x32xi32>, %b: tensor<32x8xi32>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op inputs must be f16, bf16, f32, f64, f8E4M3FN or f8E5M2, got 'i32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xi32>, tensor<32x8xi32>, tensor<16x8xf32>
  return
}

// -----

func.func @dot_acc_type(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf16>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be f32, got 'f16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16>, tensor<32x8xf16>, tensor<16x8xf16>
  return
}

// -----

func.func @dot_precision(%a: tensor<16x32xbf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op precision applies to f32 inputs only}}
  %0 = tile.dot %a, %b, %c {precision = 0 : i32} : tensor<16x32xbf16>, tensor<32x8xbf16>, tensor<16x8xf32>
  return
}

// -----

// The generated getter reads the I64Attr as unsigned; the verifier must not.
func.func @num_tiles_negative(%x: !tile.view<10xf32>) {
  // expected-error @+1 {{'tile.num_tiles' op tile size must be positive, got -4}}
  %0 = tile.num_tiles %x[0] by -4 : !tile.view<10xf32>
  return
}

// -----

// expected-error @+1 {{view element type must be f64, f32, f16, bf16, f8E4M3FN, f8E5M2, i64, i32, i8 or i1, got 'ui32'}}
func.func @view_unsigned(%x: !tile.view<?xui32>) {
  return
}

// -----

// fp8 formats other than e4m3fn and e5m2 (the fnuz variants of AMD) are not
// element types.
// expected-error @+1 {{view element type must be f64, f32, f16, bf16, f8E4M3FN, f8E5M2, i64, i32, i8 or i1, got 'f8E4M3FNUZ'}}
func.func @view_fnuz(%x: !tile.view<?xf8E4M3FNUZ>) {
  return
}

// -----

func.func @dot_mixed_fp8(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x8xf8E5M2>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op lhs and rhs element types differ: 'f8E4M3FN' vs 'f8E5M2'}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf8E4M3FN>, tensor<32x8xf8E5M2>, tensor<16x8xf32>
  return
}

// -----

// expected-error @+1 {{view rank 9 exceeds the limit of 8}}
func.func @view_rank(%x: !tile.view<?x?x?x?x?x?x?x?x?xf32>) {
  return
}

// -----

func.func @tile_too_large() {
  %c = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.splat' op result: tile [2048, 1024] exceeds the limit of 1048576 (2^20) elements per tile}}
  %0 = tile.splat %c : tensor<2048x1024xf32>
  return
}

// -----

func.func @tile_product_wraps(%x: !tile.view<?x?xf32>) {
  %i = arith.constant 0 : index
  // The product of the sizes would wrap a 64-bit integer; it is refused.
  // expected-error @+1 {{'tile.load' op result: tile [4294967296, 4294967296] exceeds the limit of 1048576 (2^20) elements per tile}}
  %0 = tile.load %x[%i, %i] : !tile.view<?x?xf32> -> tensor<4294967296x4294967296xf32>
  return
}

// -----

func.func @tile_rank() {
  // expected-error @+1 {{'tile.iota' op result: tile rank 9 exceeds the limit of 8}}
  %0 = tile.iota : tensor<1x1x1x1x1x1x1x1x1xi32>
  return
}

// -----

// Kernel symbols name PTX entries and bundle files: identifiers only.
// expected-error @+1 {{kernel name '../evil' must be an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 255 characters)}}
func.func @"../evil"() attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel name '' must be an identifier}}
func.func @""() attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel 'decl' is only a declaration; a kernel needs a body}}
func.func private @decl() attributes {tile.kernel}

// -----

func.func @not_a_function() {
  // expected-error @+1 {{'tile.kernel' is only valid on a function}}
  %0 = arith.constant {tile.kernel} 0 : index
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got 3}}
func.func @warps() attributes {tile.kernel, tile.num_warps = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{'tile.pipeline_stages' must be from 2 to 4, got 9}}
func.func @stages() attributes {tile.kernel, tile.pipeline_stages = 9 : i64} {
  return
}

// -----

// expected-error @+1 {{'tile.min_blocks_per_sm' must be an integer}}
func.func @blocks() attributes {tile.kernel, tile.min_blocks_per_sm = "two"} {
  return
}

// -----

// expected-error @+1 {{'tile.dims' must be an array of one string per dimension of a view argument}}
func.func @dims_rank(%x: !tile.view<?x?xf32> {tile.dims = ["M"]}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'tile.dims' names static dimension 1; only dynamic ones take a name}}
func.func @dims_static(%x: !tile.view<?x4xf32> {tile.dims = ["M", "N"]}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'tile.dims' entry 0 must be "" or an identifier}}
func.func @dims_name(%x: !tile.view<?xf32> {tile.dims = ["1x"]}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'tile.default' must be a number of the argument's type ('i32')}}
func.func @default_type(%n: i32 {tile.default = 1.5 : f32}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{unknown tile argument attribute 'tile.note'}}
func.func @unknown_arg_attr(%n: i32 {tile.note}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'tile.param_names' must be an array of one string per argument of a function}}
func.func @names_count(%n: i32) attributes {tile.kernel, tile.param_names = ["a", "b"]} {
  return
}

// -----

// expected-error @+1 {{'tile.param_names' entries must be identifiers}}
func.func @names_ident(%n: i32) attributes {tile.kernel, tile.param_names = ["a b"]} {
  return
}

// -----

// expected-error @+1 {{'tile.programs' must be a dictionary on a module}}
module attributes {tile.programs = [@a]} {}

// -----

// expected-error @+1 {{program 'p' must be a non-empty array of kernels}}
module attributes {tile.programs = {p = []}} {}

// -----

// expected-error @+1 {{program 'p': @nope is not a kernel of the module}}
module attributes {tile.programs = {p = [@nope]}} {}

// -----

// expected-error @+1 {{program 'p': @f is not a kernel of the module}}
module attributes {tile.programs = {p = [@f]}} {
  func.func @f() { return }
}

// -----

// expected-error @+1 {{program 'k' has the name of a kernel or function}}
module attributes {tile.programs = {k = [@k]}} {
  func.func @k() attributes {tile.kernel} { return }
}

// -----

// expected-error @+1 {{program 'p': kernel 'a' has no parameter names, which a program of several kernels needs}}
module attributes {tile.programs = {p = [@a, @b]}} {
  func.func @a(%x: !tile.view<?xf32>) attributes {tile.kernel} { return }
  func.func @b(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.param_names = ["x"]} { return }
}

// -----

// expected-error @+1 {{program 'p': parameter 'x' is '!tile.view<4xf32>' in kernel 'b' but '!tile.view<?xf32>' in kernel 'a'}}
module attributes {tile.programs = {p = [@a, @b]}} {
  func.func @a(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.param_names = ["x"]} { return }
  func.func @b(%x: !tile.view<4xf32>) attributes {tile.kernel, tile.param_names = ["x"]} { return }
}

// -----

// expected-error @+1 {{program 'p': parameter 'x' names dimension 0 M in kernel 'b' but N in kernel 'a'}}
module attributes {tile.programs = {p = [@a, @b]}} {
  func.func @a(%x: !tile.view<?xf32> {tile.dims = ["N"]}) attributes {tile.kernel, tile.param_names = ["x"]} { return }
  func.func @b(%x: !tile.view<?xf32> {tile.dims = ["M"]}) attributes {tile.kernel, tile.param_names = ["x"]} { return }
}

// -----

// A program's kernel with fewer parameter names than arguments: the kernel's
// own error, not a crash of the program's check (found by fuzzing).
module attributes {tile.programs = {p = [@k1, @k2]}} {
  func.func @k1(%x: !tile.view<?xf32>) attributes {tile.kernel, tile.param_names = ["x"]} {
    return
  }
  // expected-error @+1 {{'tile.param_names' must be an array of one string per argument of a function}}
  func.func @k2(%x: !tile.view<?xf32>, %y: !tile.view<?xf32>) attributes {tile.kernel, tile.param_names = ["x"]} {
    return
  }
}

// -----

// Dimension names of different lengths for one parameter: the kernel's
// error, not a read past the shorter list.
module attributes {tile.programs = {p = [@k1, @k2]}} {
  func.func @k1(%x: !tile.view<?x?xf32> {tile.dims = ["M", "N"]}) attributes {tile.kernel, tile.param_names = ["x"]} {
    return
  }
  // expected-error @+1 {{'tile.dims' must be an array of one string per dimension of a view argument}}
  func.func @k2(%x: !tile.view<?x?xf32> {tile.dims = ["M"]}) attributes {tile.kernel, tile.param_names = ["x"]} {
    return
  }
}

// -----

// expected-error @+1 {{program name 'a-b' must be an identifier}}
module attributes {tile.programs = {"a-b" = [@k]}} {
  func.func @k(%x: !tile.view<?xf32>) attributes {tile.kernel} {
    return
  }
}

// -----

func.func @dot_f64_acc(%a: tensor<16x16xf64>, %b: tensor<16x16xf64>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator of f64 inputs must be f64, got 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf64>, tensor<16x16xf64>, tensor<16x16xf32>
  return
}

// -----

// expected-error @+1 {{'tile.tune' entry 'BK' must be a non-empty array of strings}}
module attributes {tile.tune = {BK = []}} {}

// -----

func.func @print_two_tiles(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{'tile.print' op prints at most one tile}}
  tile.print "x, y" : %x, %y : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @assert_not_i1(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be 1-bit signless integer or ranked tensor of 1-bit signless integer values}}
  tile.assert %x, "x" : tensor<4xf32>
  return
}
