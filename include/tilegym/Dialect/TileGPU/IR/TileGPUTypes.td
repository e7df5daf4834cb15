//===- TileGPUTypes.td - tilegpu types ---------------------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_TYPES_TD
#define TILEGYM_TILEGPU_TYPES_TD

include "tilegym/Dialect/TileGPU/IR/TileGPUBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "a tile in the block's shared memory";
  let description = [{
    A buffer of shared memory holding a tile (or, with a leading dimension,
    a ring of tiles: one stage each), as the dot operands of a pipelined
    loop live: no thread owns its elements, every thread of the block may
    read them. `swizzle` is its layout in shared memory: 0, rows padded to
    an odd number of 16-byte units (ldmatrix reads 8 rows without bank
    conflicts); 128, column blocks of 128 bytes with the 128-byte swizzle
    (wgmma's operand layout). `transposed`: the last two dimensions are
    stored the other way round (a B operand held as [N][K] and read as
    [K][N]). Rows and columns are powers of two, stages any positive number,
    and the whole holds at most 2^31 bytes (its elements' bytes, doubled for
    padded rows): whether it fits a block is tilegpu-allocate-shared-memory's
    question, answered with the block's budget.

    ```mlir
    !tilegpu.memdesc<3x128x64xbf16, swizzle = 128>
    !tilegpu.memdesc<64x128xbf16, swizzle = 0, transposed>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "int64_t":$swizzle,
                        "bool":$transposed);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

def TileGPU_MBarriersType : TypeDef<TileGPU_Dialect, "MBarriers"> {
  let mnemonic = "mbarriers";
  let summary = "a ring's mbarriers in the block's shared memory";
  let description = [{
    `count` mbarrier objects (8 bytes each), one per stage of a ring the
    TMA fills: each completes a phase when the bytes of one fill of its
    stage have landed.

    ```mlir
    !tilegpu.mbarriers<3>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

#endif // TILEGYM_TILEGPU_TYPES_TD
