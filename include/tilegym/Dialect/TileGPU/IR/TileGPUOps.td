//===- TileGPUOps.td - tilegpu operations ------------------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_OPS_TD
#define TILEGYM_TILEGPU_OPS_TD

include "tilegym/Dialect/TileGPU/IR/TileGPUBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "move a tile's elements to the threads of another layout";
  let description = [{
    The same tile in another distributed layout. Each thread writes its
    elements to shared memory and reads those of the new layout back
    (a barrier between), so a conversion costs the tile's bytes of shared
    memory and two barriers; it folds away when the layouts are equal.

    ```mlir
    %b = tilegpu.convert_layout %a
        : tensor<64x64xf32, #tilegpu.mma<warps = [2, 2]>>
        -> tensor<64x64xf32, #tilegpu.blocked<{sizePerThread = [1, 4],
               threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TILEGYM_TILEGPU_OPS_TD
