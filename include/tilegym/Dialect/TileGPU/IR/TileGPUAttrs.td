//===- TileGPUAttrs.td - tilegpu layouts -------------------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_ATTRS_TD
#define TILEGYM_TILEGPU_ATTRS_TD

include "tilegym/Dialect/TileGPU/IR/TileGPUBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"

def TileGPU_DistributedLayoutInterface
    : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::tilegym::tilegpu";
  let description = [{
    A layout of a tile over the threads of a block, as linear bases (see
    `#tilegpu.linear`): what each bit of a register index, of the lane id and
    of the warp id adds to the coordinates of an element. Bases cover a
    power-of-two box; a tile larger than the box repeats it in more
    registers (the last dimension first), a smaller one wraps: its elements
    are replicated over the bits that fall outside it.
  }];
  let methods = [
    InterfaceMethod<"The rank of the tiles it lays out.", "int64_t",
                    "getRank">,
    InterfaceMethod<"Its register, lane and warp bases.",
                    "::tilegym::tilegpu::LinearBases", "getLinearBases">,
  ];
}

class TileGPU_LayoutAttr<string name, string attrMnemonic>
    : AttrDef<TileGPU_Dialect, name, [
        DeclareAttrInterfaceMethods<TileGPU_DistributedLayoutInterface>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = attrMnemonic;
  let genVerifyDecl = 1;
}

def TileGPU_BlockedLayoutAttr : TileGPU_LayoutAttr<"BlockedLayout", "blocked"> {
  let summary = "elements per thread, threads per warp, warps per block";
  let description = [{
    Triton's `BlockedEncoding` with the last dimension fastest: each thread
    holds `sizePerThread[d]` contiguous elements along `d`, the 32 lanes of
    a warp `threadsPerWarp[d]` such runs, the warps `warpsPerBlock[d]` such
    groups. The layout of memory accesses and elementwise work: a thread
    moving 16 contiguous bytes issues one vector access. All sizes are
    powers of two and `threadsPerWarp` multiplies to 32 (a 0-d tile, held by
    every thread, has empty lists).

    ```mlir
    tensor<64x128xbf16, #tilegpu.blocked<{sizePerThread = [1, 8],
        threadsPerWarp = [2, 16], warpsPerBlock = [4, 1]}>>
    ```
  }];
  let parameters = (ins
      ArrayRefParameter<"int64_t", "contiguous elements a thread holds, "
                        "per dimension">:$sizePerThread,
      ArrayRefParameter<"int64_t", "lanes along each dimension">:$threadsPerWarp,
      ArrayRefParameter<"int64_t", "warps along each dimension">:$warpsPerBlock);
  let hasCustomAssemblyFormat = 1;
}

def TileGPU_MmaLayoutAttr : TileGPU_LayoutAttr<"MmaLayout", "mma"> {
  let summary = "the accumulator layout of mma.sync m16n8 and of wgmma";
  let description = [{
    A 2-D tile of dot results as tensor cores leave them: lane `l` of a warp
    holds columns `2 (l % 4)` and `2 (l % 4) + 1` of rows `l / 4` and
    `l / 4 + 8` of each 16x8 block; the warps tile the block, `warps[1]`
    of them along N first, then `warps[0]` along M. wgmma's m64nN
    accumulator is the same with all warps along M (each warp of a
    warpgroup owns 16 rows).

    ```mlir
    tensor<128x128xf32, #tilegpu.mma<warps = [4, 1]>>
    ```
  }];
  let parameters = (ins
      AttrParameter<"int64_t", "warps along M (rows)">:$warpsM,
      AttrParameter<"int64_t", "warps along N (columns)">:$warpsN);
  let assemblyFormat = "`<` `warps` `=` `[` $warpsM `,` $warpsN `]` `>`";
}

def TileGPU_LinearLayoutAttr : TileGPU_LayoutAttr<"LinearLayout", "linear"> {
  let summary = "a layout given by its linear bases";
  let description = [{
    Triton's linear layouts restricted to power-of-two bases: each basis is
    what one bit of an index adds to the element's coordinates, one entry
    per dimension; an element's coordinates are the sum of the bases of the
    set bits, modulo the tile's size. `lane` has 5 bases (32 lanes), `warp`
    one per doubling of the warps; a zero basis replicates. Blocked and mma
    layouts are linear layouts with names.

    ```mlir
    tensor<16x8xf32, #tilegpu.linear<{register = [[0, 1], [8, 0]],
        lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []}>>
    ```
  }];
  // The bases, flattened: `numDims` entries each.
  let parameters = (ins
      AttrParameter<"int64_t", "the rank of the tiles it lays out">:$numDims,
      ArrayRefParameter<"int64_t", "register bases, flattened">:$registerBases,
      ArrayRefParameter<"int64_t", "lane bases, flattened">:$laneBases,
      ArrayRefParameter<"int64_t", "warp bases, flattened">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "const ::tilegym::tilegpu::LinearBases &":$bases)>
  ];
}

#endif // TILEGYM_TILEGPU_ATTRS_TD
