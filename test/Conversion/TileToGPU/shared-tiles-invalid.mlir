// RUN: tilegym-opt %s --split-input-file --tilegpu-allocate-shared-memory --convert-tile-to-gpu --verify-diagnostics

// A tile in shared memory carried round a loop is not lowered yet: an
// error at the loop, not a crash.
func.func @carried(%x: !tile.view<?x?xf32>, %n: index) attributes {tile.kernel, tile.num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = tilegpu.local_alloc : !tilegpu.memdesc<16x32xf32, swizzle = 0>
  // expected-error @+1 {{carries a tile in shared memory ('!tilegpu.memdesc<16x32xf32, swizzle = 0>'), which the GPU backend does not support across loops and branches yet}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%b = %buf) -> (!tilegpu.memdesc<16x32xf32, swizzle = 0>) {
    scf.yield %b : !tilegpu.memdesc<16x32xf32, swizzle = 0>
  }
  return
}
