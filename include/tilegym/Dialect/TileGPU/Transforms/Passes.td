//===- Passes.td - tilegpu transforms ----------------------*- tablegen -*-===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileGPUAssignLayoutsPass
    : Pass<"tilegpu-assign-layouts", "::mlir::func::FuncOp"> {
  let summary = "Give every tile of a GPU kernel a distributed layout";
  let description = [{
    The GPU pipeline's layout step (after tile-pipeline-loads and
    tile-hoist-loads): every tile value of a kernel (a `func.func` with
    `tile.kernel`) gets a layout in its tensor type's encoding, which
    `convert-tile-to-gpu` then lowers register by register.

    Values that must share a layout are one class: the operands and result
    of an elementwise op, a broadcast's source and result, a reduction
    keeping its axis, a dot's accumulator and result, a gather's or
    scatter's indices and mask with its elements, and what loops and
    branches carry. Per class:
    - a class holding a dot result takes `#tilegpu.mma`. Its warps go along
      M when the class is reduced (row reductions then stay within a warp)
      or when the dot may run as wgmma (sm_90a, 16-bit operands, warps a
      multiple of 4, M a multiple of 64 per warpgroup, N a multiple of 8 up
      to 256, K or N a multiple of 64 for the 128-byte swizzle, at least a
      64x64x64 product per warpgroup); otherwise the split that loads the
      fewest operand fragments per k step, more warps along M on a tie;
    - a 2-D class used only as dot operands takes a blocked layout sized for
      its own shape, so that a [128, 32] operand is not replicated over a
      layout sized for [128, 128];
    - every other class takes its rank's blocked layout, sized for the
      largest tile of that rank, each thread moving 16 contiguous bytes of
      the narrowest element type of the kernel's views;
    - except a class made only by reshapes that add or drop unit dimensions,
      elementwise ops, splats, constants and broadcasts, and only stored:
      it keeps the reshaped source's layout, renamed (`#tilegpu.linear`),
      so that a tile reshaped for its store is stored from the registers it
      is in instead of moving through shared memory.

    Tiles must have power-of-two sizes and at most 256 elements per thread
    (the register file); a dot tile needs at least 8 columns per warp along
    N. Each is a diagnostic on the op that breaks it. With `remarks`, each
    load, store, reduction and dot says which layout it got, and each dot
    why its accumulator's warps are split as they are.

    ```mlir
    %x = tile.load %v[%i] : !tile.view<?xf32> -> tensor<1024xf32>
    ```
    becomes, at 4 warps,
    ```mlir
    %x = tile.load %v[%i] : !tile.view<?xf32> -> tensor<1024xf32,
        #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32],
                          warpsPerBlock = [4]}>>
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (wgmma needs sm_90a)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, the layout of each load, store, reduction and "
           "dot, and why">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

#endif // TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES
