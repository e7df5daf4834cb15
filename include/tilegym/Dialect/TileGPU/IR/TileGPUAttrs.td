//===- TileGPUAttrs.td - tilegpu layouts -------------------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_ATTRS_TD
#define TILEGYM_TILEGPU_ATTRS_TD

include "tilegym/Dialect/TileGPU/IR/TileGPUBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
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

//===----------------------------------------------------------------------===//
// Decisions of tilegpu-accelerate-dots, as discardable attributes
//===----------------------------------------------------------------------===//

def TileGPU_DotInstruction : I32EnumAttr<"DotInstruction",
    "the tensor-core instruction a dot runs on", [
      I32EnumAttrCase<"MmaSync", 0, "mma_sync">,
      I32EnumAttrCase<"Wgmma", 1, "wgmma">]> {
  let cppNamespace = "::tilegym::tilegpu";
  let genSpecializedAttr = 0;
}

def TileGPU_DotInstructionAttr
    : EnumAttr<TileGPU_Dialect, TileGPU_DotInstruction, "dot"> {
  let summary = "the instruction a `tile.dot` runs on";
  let description = [{
    Set by `tilegpu-accelerate-dots` as `tilegpu.dot` on a `tile.dot`:
    `wgmma` (sm_90a: warpgroup MMA reading B, and A unless it is in the
    accumulator's registers, from shared memory through matrix descriptors;
    both operands staged with the 128-byte swizzle) or `mma_sync` (each warp
    loads fragments by ldmatrix). A dot without it runs on mma.sync.

    ```mlir
    %c = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} : ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TileGPU_SharedStageAttr : AttrDef<TileGPU_Dialect, "SharedStage"> {
  let mnemonic = "stage";
  let summary = "a dot operand's load copied into a ring of shared memory";
  let description = [{
    Set by `tilegpu-accelerate-dots` as `tilegpu.stage` on each `tile.load`
    of a dot operand that skips registers: cp.async copies it into one
    stage of a ring of `stages` buffers in shared memory, from where the
    dot reads it. `ring` numbers the kernel's rings, in the order their
    shared memory is laid out. A window of loads k iterations ahead
    through a loop (tile-pipeline-loads) is one ring of k + 1 stages: the
    loads before the loop carry `index` 0 to k - 1, the stages they fill;
    the load in the body has no index: it fills the stage the previous
    iteration read. A tile loaded once before a loop and read in it is a
    ring of one stage, index 0. `swizzle` is the layout in shared memory:
    0, rows padded to an odd number of 16-byte units (ldmatrix reads them
    without bank conflicts); 128, column blocks of 128 bytes with the
    128-byte swizzle (wgmma's operand layout). `transposed`: each stage
    holds the tile's last two dimensions the other way round, as wgmma
    reads a tf32 B (K-major only): a [K][N] tile is stored [N][K], copied
    element by element.

    ```mlir
    %b0 = tile.load %b[%c0, %n] {tilegpu.stage =
        #tilegpu.stage<ring = 1, stages = 3, swizzle = 128, index = 0>} ...
    %f0 = tile.load %f[%c0, %n] {tilegpu.stage = #tilegpu.stage<ring = 2,
        stages = 3, swizzle = 128, index = 0, transposed = true>} ...
    ```
  }];
  let parameters = (ins
      AttrParameter<"int64_t", "the ring's number in the kernel">:$ring,
      AttrParameter<"int64_t", "the ring's stages">:$stages,
      AttrParameter<"int64_t", "0: padded rows; 128: 128-byte swizzle">:$swizzle,
      OptionalParameter<"std::optional<int64_t>",
                        "the stage a load before the loop fills">:$index,
      DefaultValuedParameter<"bool", "false",
                             "stages hold the tile transposed">:$transposed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Decisions of tilegpu-assign-tma
//===----------------------------------------------------------------------===//

def TileGPU_TensorMapAttr : AttrDef<TileGPU_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a TMA tensor map the kernel takes after its parameters";
  let description = [{
    Set by `tilegpu-assign-tma` in the kernel's `tilegpu.tensor_maps`: the
    launch encodes one CUtensorMap of the view that is parameter `view`,
    copied in boxes of `box` elements (one size per view dimension,
    outermost first; the innermost 128 bytes: one column block of the
    128-byte swizzle), and passes it after the kernel's parameters. A
    staged load whose `tilegpu.tma` is this map's position in the list is
    copied by it; a `tile.store` so marked stores its tile through it.

    ```mlir
    func.func @k(...) attributes {tilegpu.tensor_maps =
        [#tilegpu.tensor_map<view = 0, box = [128, 64]>]}
    ```
  }];
  let parameters = (ins
      AttrParameter<"int64_t", "the kernel parameter it describes">:$view,
      ArrayRefParameter<"int64_t", "box sizes, outermost first">:$box);
  let assemblyFormat = "`<` `view` `=` $view `,` `box` `=` `[` $box `]` `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Decisions of tilegpu-allocate-shared-memory
//===----------------------------------------------------------------------===//

def TileGPU_SharedAllocationAttr : AttrDef<TileGPU_Dialect, "SharedAllocation"> {
  let mnemonic = "shared";
  let summary = "an op's bytes in the kernel's shared-memory buffer";
  let description = [{
    Set by `tilegpu-allocate-shared-memory` as `tilegpu.shared` on each op
    that uses shared memory (a layout conversion that moves data, a
    reduction across warps, an mma.sync dot staging operands from
    registers) and on each load of a ring of staged dot operands (the
    whole ring, all its stages): `bytes` bytes from `offset` into the
    kernel's one buffer, whose size is the kernel's
    `tilegpu.shared_memory`. Buffers whose live ranges do not overlap share
    bytes.

    ```mlir
    %c = tilegpu.convert_layout %a {tilegpu.shared =
        #tilegpu.shared<offset = 0, bytes = 16384>} : ...
    ```
  }];
  let parameters = (ins
      AttrParameter<"int64_t", "bytes into the kernel's buffer">:$offset,
      AttrParameter<"int64_t", "the bytes it has">:$bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // TILEGYM_TILEGPU_ATTRS_TD
