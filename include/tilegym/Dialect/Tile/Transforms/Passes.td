//===- Passes.td - tile dialect transforms -----------------*- tablegen -*-===//
#ifndef TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES
#define TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileHoistLoadsPass : Pass<"tile-hoist-loads"> {
  let summary = "Move tile loads and gathers up, next to what they depend on";
  let description = [{
    Within each block, moves every `tile.load` and `tile.gather` to just
    after the last of: the ops defining its operands and the last earlier op
    that may write memory (`tile.store`, `tile.scatter`, any op whose
    effects, nested ones included, write or are unknown). Loads keep their
    relative order.

    On the GPU a thread then issues all of a block's loads before it first
    waits for one: in `x * w + b` the loads of `x`, `w` and `b` are all in
    flight together instead of one after another.

    ```mlir
    %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
    %e = math.exp %x : tensor<128xf32>
    %y = tile.load %b[%i] : !tile.view<?xf32> -> tensor<128xf32>
    ```
    becomes
    ```mlir
    %x = tile.load %a[%i] : !tile.view<?xf32> -> tensor<128xf32>
    %y = tile.load %b[%i] : !tile.view<?xf32> -> tensor<128xf32>
    %e = math.exp %x : tensor<128xf32>
    ```
  }];
}

#endif // TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES
