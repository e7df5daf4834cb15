//===- TileOps.td - tile dialect operations ----------------*- tablegen -*-===//
#ifndef TILEGYM_TILE_OPS_TD
#define TILEGYM_TILE_OPS_TD

include "tilegym/Dialect/Tile/IR/TileBase.td"
include "tilegym/Dialect/Tile/IR/TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Grid and view queries
//===----------------------------------------------------------------------===//

def Tile_BlockIdOp : Tile_Op<"block_id", [Pure]> {
  let summary = "index of the running block along a grid axis";
  let description = [{
    Returns the index of the block that runs this kernel instance along grid
    axis `axis` (0, 1 or 2).

    ```mlir
    %row = tile.block_id 0
    ```
  }];
  let arguments = (ins I64Attr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_NumBlocksOp : Tile_Op<"num_blocks", [Pure]> {
  let summary = "number of blocks of the launch grid along an axis";
  let description = [{
    ```mlir
    %n = tile.num_blocks 1
    ```
  }];
  let arguments = (ins I64Attr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_DimOp : Tile_Op<"dim", [Pure]> {
  let summary = "size of a view along one dimension";
  let description = [{
    Folds to a constant when the size is static in the view type.

    ```mlir
    %n = tile.dim %x[1] : !tile.view<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, I64Attr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `[` $axis `]` attr-dict `:` qualified(type($view))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_CdivOp : Tile_Op<"cdiv", [Pure, SameOperandsAndResultType]> {
  let summary = "ceiling division of non-negative integers";
  let description = [{
    `ceil(lhs / rhs)` for `lhs >= 0`, `rhs > 0`: the number of tiles of size
    `rhs` that cover `lhs` elements.

    ```mlir
    %tiles = tile.cdiv %n, %c128 : index
    ```
  }];
  let arguments = (ins AnyTypeOf<[Index, I32]>:$lhs, AnyTypeOf<[Index, I32]>:$rhs);
  let results = (outs AnyTypeOf<[Index, I32]>:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_NumTilesOp : Tile_Op<"num_tiles", [Pure]> {
  let summary = "number of tiles of a given size covering a view dimension";
  let description = [{
    `cdiv(dim(view, axis), tile_size)`; folds when the dimension is static.

    ```mlir
    %n = tile.num_tiles %x[0] by 1024 : !tile.view<?xf32>
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, I64Attr:$axis, I64Attr:$tile_size);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    $view `[` $axis `]` `by` $tile_size attr-dict `:` qualified(type($view))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"value type matches the tile's element type", "result",
                   "value", "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "a tile with every element equal to a scalar";
  let description = [{
    Folds to a dense constant when the scalar is a constant.

    ```mlir
    %t = tile.splat %x : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_ElementType:$value);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ItemOp : Tile_Op<"item", [Pure,
    TypesMatchWith<"result type is the tile's element type", "source",
                   "result", "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "the element of a one-element tile, as a scalar";
  let description = [{
    The way from data to control: a value loaded or reduced into a tile of
    one element (any rank, every size 1) becomes a scalar that may index
    tiles, bound loops or choose a branch. On the GPU every thread holds
    the element of such a tile, so the scalar is the same in every thread.

    ```mlir
    %n = tile.item %t : tensor<1x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_ElementType:$result);
  let assemblyFormat = "$source attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "the 1-D tile 0, 1, ..., n-1";
  let description = [{
    ```mlir
    %cols = tile.iota : tensor<128xi32>
    ```
  }];
  let results = (outs Tile_IndexTile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory access
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", []> {
  let summary = "load the tile at a tile index of a view, padding the edges";
  let description = [{
    Loads the tile of the result's shape whose first element sits at element
    offset `indices[d] * shape[d]` along each dimension `d`: `indices` count
    tiles, not elements. Elements that fall outside the view read `padding`
    (zero when absent), so edge tiles need no special code.

    ```mlir
    %t = tile.load %x[%row, %c0] {padding = 0xFF800000 : f32}
        : !tile.view<?x?xf32> -> tensor<1x1024xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_ViewType, "", [MemRead]>:$view,
                       Variadic<Index>:$indices,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` attr-dict `:` qualified(type($view)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", []> {
  let summary = "store a tile at a tile index of a view, masking the edges";
  let description = [{
    Stores `value` at tile index `indices` (see `tile.load`). Elements that
    fall outside the view are not written.

    ```mlir
    tile.store %t, %y[%row, %c0] : tensor<1x1024xf32>, !tile.view<?x?xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$value,
                       Arg<Tile_ViewType, "", [MemWrite]>:$view,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` attr-dict `:` type($value) `,` qualified(type($view))
  }];
  let hasVerifier = 1;
}

def Tile_PrefetchOp : Tile_Op<"prefetch", []> {
  let summary = "ask the L2 cache for a tile of a view that will be read soon";
  let description = [{
    A hint: the tile of `shape` at tile index `indices` (element offset
    `indices[d] * shape[d]`, as `tile.load`) is fetched from DRAM into the L2
    cache without waiting for it, so that a later `tile.load` of it, usually
    by another block, finds it there. It reads nothing into the program and
    never faults: the parts of the tile outside the view are not fetched.

    A kernel that streams rows, one block per row, prefetches the row a block
    starting later will read (`block_id(0) + AHEAD`), after its own loads:
    the DRAM then keeps reading while this block reduces and writes.

    On sm_90 and later each contiguous run of the tile (a row of the
    innermost dimension) is one `cp.async.bulk.prefetch.L2`, trimmed to the
    view and to 16-byte boundaries; older GPUs and the CPU backend ignore the
    hint. Modelled as a write, like `memref.prefetch`, so that it is neither
    removed nor moved across other accesses.

    ```mlir
    tile.prefetch %x[%ahead, %c0] shape [1, 4096] : !tile.view<?x?xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_ViewType, "", [MemWrite]>:$view,
                       Variadic<Index>:$indices,
                       DenseI64ArrayAttr:$shape);
  let assemblyFormat = [{
    $view `[` $indices `]` `shape` $shape attr-dict `:` qualified(type($view))
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [AttrSizedOperandSegments]> {
  let summary = "load elements at per-element coordinates, under a mask";
  let description = [{
    Element `e` of the result is `view[indices[0][e], ..., indices[r-1][e]]`,
    one `i32` coordinate tile per view dimension, all shaped like the result.
    Where `mask` is false or a coordinate is out of bounds the element reads
    `padding` (zero when absent) and memory is not touched.

    ```mlir
    %g = tile.gather %x[%rows, %cols] mask %m {padding = 0.0 : f32}
        : !tile.view<?x?xf32>, [tensor<16x16xi32>, tensor<16x16xi32>], tensor<16x16xi1>
        -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Arg<Tile_ViewType, "", [MemRead]>:$view,
                       Variadic<Tile_IndexTile>:$indices,
                       Optional<Tile_MaskTile>:$mask,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $view `[` $indices `]` (`mask` $mask^)? attr-dict `:` qualified(type($view))
    `,` `[` type($indices) `]` (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [AttrSizedOperandSegments]> {
  let summary = "store elements at per-element coordinates, under a mask";
  let description = [{
    Writes element `e` of `value` to `view[indices[0][e], ...]` where `mask`
    is true and the coordinates are in bounds.

    ```mlir
    tile.scatter %v, %y[%idx] mask %m
        : tensor<128xf32>, !tile.view<?xf32>, [tensor<128xi32>], tensor<128xi1>
    ```
  }];
  let arguments = (ins Tile_Tile:$value,
                       Arg<Tile_ViewType, "", [MemWrite]>:$view,
                       Variadic<Tile_IndexTile>:$indices,
                       Optional<Tile_MaskTile>:$mask);
  let assemblyFormat = [{
    $value `,` $view `[` $indices `]` (`mask` $mask^)? attr-dict `:` type($value) `,`
    qualified(type($view)) `,` `[` type($indices) `]` (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [AttrSizedOperandSegments,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "atomic read-modify-write of elements at coordinates";
  let description = [{
    For each element `e` of `value` where `mask` is true and the coordinates
    are in bounds, atomically replaces `x = view[indices[0][e], ...]` with
    `x + value[e]` (`add`), `max(x, value[e])` (`max`), `min(x, value[e])`
    (`min`) or `value[e]` (`xchg`), and yields `x`, the old value; other
    elements yield zero and touch no memory. Every element is its own
    atomic: elements at one address all apply, in some order. The order is
    relaxed and the scope the device: nothing is ordered with other memory
    accesses. Float `max` and `min` propagate NaN, as `arith.maximumf`.

    ```mlir
    %old = tile.atomic_rmw add %v, %y[%rows, %cols] mask %m
        : tensor<64x64xf32>, !tile.view<?x?xf32>,
          [tensor<64x64xi32>, tensor<64x64xi32>], tensor<64x64xi1>
    ```
  }];
  let arguments = (ins Tile_AtomicKind:$kind,
                       Tile_Tile:$value,
                       Arg<Tile_ViewType, "", [MemRead, MemWrite]>:$view,
                       Variadic<Tile_IndexTile>:$indices,
                       Optional<Tile_MaskTile>:$mask);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $value `,` $view `[` $indices `]` (`mask` $mask^)? attr-dict `:`
    type($value) `,` qualified(type($view)) `,` `[` type($indices) `]`
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [AttrSizedOperandSegments,
    AllTypesMatch<["cmp", "value", "result"]>]> {
  let summary = "atomic compare-and-swap of elements at coordinates";
  let description = [{
    For each element `e` where `mask` is true and the coordinates are in
    bounds, atomically reads `x = view[indices[0][e], ...]`, writes
    `value[e]` there if `x` equals `cmp[e]` bit for bit, and yields `x`;
    other elements yield zero and touch no memory. Relaxed order, device
    scope, as `tile.atomic_rmw`.

    ```mlir
    %old = tile.atomic_cas %expected, %new, %lock[%idx]
        : tensor<1xi32>, !tile.view<?xi32>, [tensor<1xi32>]
    ```
  }];
  let arguments = (ins Tile_Tile:$cmp,
                       Tile_Tile:$value,
                       Arg<Tile_ViewType, "", [MemRead, MemWrite]>:$view,
                       Variadic<Tile_IndexTile>:$indices,
                       Optional<Tile_MaskTile>:$mask);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $cmp `,` $value `,` $view `[` $indices `]` (`mask` $mask^)? attr-dict `:`
    type($value) `,` qualified(type($view)) `,` `[` type($indices) `]`
    (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "stretch dimensions of size 1";
  let description = [{
    Source and result have the same rank and element type; every source
    dimension equals the result's or is 1.

    ```mlir
    %b = tile.broadcast %row : tensor<1x128xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "reinterpret a tile's elements, in row-major order, under a new shape";
  let description = [{
    ```mlir
    %q = tile.reshape %t : tensor<1x1x64x128xbf16> -> tensor<64x128xbf16>
    ```
  }];
  let arguments = (ins Tile_Tile:$source);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure]> {
  let summary = "permute a tile's dimensions";
  let description = [{
    Result dimension `i` is source dimension `permutation[i]`.

    ```mlir
    %kt = tile.permute %k [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins Tile_Tile:$source, DenseI64ArrayAttr:$permutation);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` type($source) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and contractions
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one axis with sum, prod, max or min";
  let description = [{
    With `keep_dims` the reduced axis stays with size 1 (the shape a
    following broadcast against the source needs); without it the axis is
    dropped. Float max/min propagate NaN. On i1 tiles max is `or` and min
    is `and` (the language's `any` and `all`); sum and prod of i1 are
    errors.

    ```mlir
    %m = tile.reduce max %t {axis = 1 : i64, keep_dims}
        : tensor<4x1024xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tile:$source, I64Attr:$axis,
                       UnitAttr:$keep_dims);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$kind $source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, SameOperandsAndResultType]> {
  let summary = "running sum, product, max or min along one axis";
  let description = [{
    Element `i` along `axis` of the result combines the source's elements
    `0..i` (inclusive) or `0..i-1` (with `exclusive`; the first is the
    identity: 0 for sum, 1 for prod, -inf/+inf or the integer extremes for
    max/min), in order. f16 and bf16 combine in f32 and round each output
    once. Float max/min propagate NaN. i1 tiles are errors.

    ```mlir
    %c = tile.scan sum %t {axis = 1 : i64, exclusive} : tensor<4x256xf32>
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tile:$source, I64Attr:$axis,
                       UnitAttr:$exclusive);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$kind $source attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Tile_SortOp : Tile_Op<"sort", [Pure]> {
  let summary = "sort along the last axis, keeping the first k";
  let description = [{
    Sorts each line along the last axis, ascending (or `descending`), and
    keeps its first `k` elements, the result's last size: `k` equal to the
    source's is a sort, a smaller `k` with `descending` is top-k. NaN sorts
    above every number (last ascending, first descending); `-0.0` and
    `0.0` are equal. i1 tiles are errors.

    With `indices` the result holds, instead of each kept element, its
    index along the axis (i32): an argsort, or the positions of the top
    k. Equal elements then keep their order, the lower index first, in
    both directions.

    ```mlir
    %top = tile.sort %logits {descending} : tensor<4x1024xf32> -> tensor<4x8xf32>
    %ids = tile.sort %logits {descending, indices} : tensor<4x1024xf32> -> tensor<4x8xi32>
    ```
  }];
  let arguments = (ins Tile_Tile:$source, UnitAttr:$descending,
                       UnitAttr:$indices);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix product accumulated in f32: acc + lhs @ rhs";
  let description = [{
    `lhs` is `M x K`, `rhs` is `K x N`, `acc` and the result `M x N` f32.
    Inputs are f16, bf16 or fp8 (f8E4M3FN, f8E5M2: multiplied exactly,
    summed in f32), or f32 with
    `precision` `tf32` (inputs reduced to tf32, the tensor-core format:
    rounded to nearest on the CPU and on mma.sync, truncated by wgmma, as
    cuBLAS's tf32 is) or `ieee` (full f32).

    ```mlir
    %c = tile.dot %a, %b, %acc
        : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>
    %d = tile.dot %x, %y, %acc {precision = 1 : i32}
        : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tile:$lhs, Tile_Tile:$rhs, Tile_Tile:$acc,
                       DefaultValuedAttr<Tile_Precision,
                                         "::tilegym::tile::Precision::TF32">:$precision);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print scalars and the elements of a tile, from every block";
  let description = [{
    Prints one line per element of its tile operand (one line when it has
    none), from every block: the op's source location, the block's
    coordinates, the element's coordinates in the tile, `prefix`, then each
    operand's value (the tile's element, the scalars as they are). Floats
    print as `%g` (six significant digits), integers in decimal, i1 as 0 or
    1. On the CPU the lines of a block come in row-major order; on the GPU
    each thread prints its own elements, in no particular order (CUDA's
    `printf`, whose buffer holds about 1 MiB of lines per launch).

    A kernel keeps its prints only when compiled with `tile.debug` = 1
    (`tilegym-cc --debug`, `tilegym-run --debug`); `tile-strip-debug`
    erases them otherwise.

    ```mlir
    tile.print "row max" : %m, %i : tensor<64xf32>, index
    ```
  }];
  let arguments = (ins StrAttr:$prefix,
                       Variadic<AnyTypeOf<[Tile_Tile, AnySignlessIntegerOrIndex,
                                           AnyFloat]>>:$values);
  // The values follow a `:`: an operand list right after the text would
  // take the next op's result name for an operand of a print without any.
  let assemblyFormat = [{
    $prefix attr-dict (`:` $values^ `:` type($values))?
  }];
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "stop the kernel when a condition does not hold";
  let description = [{
    Fails when any element of `condition` (an i1 scalar or tile) is false.
    On the GPU the failing thread calls CUDA's `__assertfail`, which prints
    the file, the line, the block and the thread with `message`, and stops
    the launch: the runtime then reports the launch as failed by an assert
    (and the CUDA context is lost, as after any device assert). On the CPU
    the block that fails prints its coordinates with `message`, runs to its
    end (every access stays bounds-checked), and no later block starts; the
    run then fails.

    The message is prefixed with the op's source location
    (`file:line:col`). A kernel keeps its asserts only when compiled with
    `tile.debug` = 1 (`tilegym-cc --debug`, `tilegym-run --debug`);
    `tile-strip-debug` erases them otherwise.

    ```mlir
    tile.assert %in_range, "label out of range" : tensor<128xi1>
    ```
  }];
  let arguments = (ins AnyTypeOf<[I1, Tile_MaskTile]>:$condition,
                       StrAttr:$message);
  let assemblyFormat = [{
    $condition `,` $message attr-dict `:` type($condition)
  }];
}

#endif // TILEGYM_TILE_OPS_TD
