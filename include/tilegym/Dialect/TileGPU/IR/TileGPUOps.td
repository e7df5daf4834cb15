//===- TileGPUOps.td - tilegpu operations ------------------*- tablegen -*-===//
#ifndef TILEGYM_TILEGPU_OPS_TD
#define TILEGYM_TILEGPU_OPS_TD

include "tilegym/Dialect/TileGPU/IR/TileGPUBase.td"
include "tilegym/Dialect/TileGPU/IR/TileGPUTypes.td"
include "tilegym/Dialect/Tile/IR/TileTypes.td"
include "tilegym/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "tilegym/Dialect/Tile/IR/TileBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
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

//===----------------------------------------------------------------------===//
// Shared memory: buffers, asynchronous copies into them, and reads
//===----------------------------------------------------------------------===//

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "a buffer of the block's shared memory";
  let description = [{
    A tile, or a ring of tiles (the leading dimension: its stages), in
    shared memory for the whole block. Where it lives in the kernel's
    buffer is its `tilegpu.shared` (tilegpu-allocate-shared-memory).

    ```mlir
    %ring = tilegpu.local_alloc : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128>
    ```
  }];
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "one stage of a ring in shared memory";
  let description = [{
    The `index`-th tile along the leading dimension of a buffer: a stage of
    a ring. The index is taken modulo nothing: it must be below the number
    of stages.

    ```mlir
    %stage = tilegpu.memdesc_index %ring[%i]
        : !tilegpu.memdesc<3x128x64xbf16, swizzle = 128>
        -> !tilegpu.memdesc<128x64xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$source, Index:$index);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_MemDescTransOp : TileGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "a 2-D tile in shared memory read transposed";
  let description = [{
    The same bytes with the two dimensions swapped: a B operand stored as
    [N][K] seen as the [K][N] tile a dot reads. No data moves.

    ```mlir
    %bt = tilegpu.memdesc_trans %b
        : !tilegpu.memdesc<128x64xbf16, swizzle = 128>
        -> !tilegpu.memdesc<64x128xbf16, swizzle = 128, transposed>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$source);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "copy a tile of a view into shared memory with cp.async";
  let description = [{
    Starts copying the tile at tile indices `indices` of `view` into `dest`
    without going through registers: each thread copies the 16-byte runs
    that `layout` (a tile type with a distributed layout) gives it, by
    `cp.async`; what lies outside the view is filled with zeros. The copy
    joins the thread's current group (`tilegpu.async_commit_group`), and is
    complete once a `tilegpu.async_wait` has waited for that group.

    `chained` chooses how a thread addresses its runs: each run's source is
    the previous run's plus a uniform step (their distance times the view's
    strides) and, where the swizzle keeps their distance, each destination
    the first's plus a constant, so that one per-thread source offset, not
    one per run, stays live across a loop. Without it each run's source is
    the tile's address plus the run's own offset, which keeps the tile's
    address in uniform registers but holds one offset per run.
    `tilegpu-pipeline` makes the copies of a kernel marked
    `tilegpu.chain_copy_addresses = true` (or all, with its
    `chain-copy-addresses` option) chained.

    With `tma(%bars[%s], m)` the copy is the TMA's where the kernel's
    tensor map `m` (`tilegpu.tensor_maps`) addresses the view: one thread
    announces the stage's bytes to mbarrier `%s` of `%bars`
    (`mbarrier.arrive.expect_tx`) and issues one
    `cp.async.bulk.tensor` per 128-byte column block, which completes the
    mbarrier's phase when the bytes land (`tilegpu.mbarrier_wait`). Where
    the launch found the view not addressable by the TMA (alignment,
    strides: a tensor map of zeros), the threads copy with cp.async as
    without it; the commit group and waits are the same either way.

    With `multicast` (tilegpu-multicast) the blocks of a cluster share the
    tile: where the launch made clusters (`%cluster_nctarank` > 1), block
    `r` of the cluster issues the column blocks `j` with `j mod n = r`, each
    multicast into the same stage of every block of the cluster and
    completing each block's mbarrier, which every block still expects the
    whole tile's bytes on; without clusters, the block copies all of them.
    Every block of the cluster must copy the same tile.

    ```mlir
    tilegpu.async_copy %a[%m, %k], %stage : !tile.view<?x?xbf16>,
        !tilegpu.memdesc<128x64xbf16, swizzle = 128>
        as tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8],
            threadsPerWarp = [4, 8], warpsPerBlock = [8, 1]}>>
    tilegpu.async_copy %a[%m, %k], %stage tma(%bars[%s], 0) : ...,
        !tilegpu.mbarriers<3>
    tilegpu.async_copy %b[%k, %n], %stage tma(%bars[%s], 1) multicast : ...
    ```
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$indices,
                       TileGPU_MemDescType:$dest,
                       Optional<TileGPU_MBarriersType>:$barriers,
                       Optional<I32>:$barrier,
                       TypeAttrOf<AnyRankedTensor>:$layout,
                       UnitAttr:$chained,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>>:$tensorMap,
                       UnitAttr:$multicast);
  let assemblyFormat = [{
    $view `[` $indices `]` `,` $dest (`chained` $chained^)?
    (`tma` `(` $barriers^ `[` $barrier `]` `,` $tensorMap `)`)?
    (`multicast` $multicast^)? attr-dict `:`
    qualified(type($view)) `,` qualified(type($dest)) `as` $layout
    (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

def TileGPU_MBarrierAllocOp : TileGPU_Op<"mbarrier_alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "mbarriers in the block's shared memory";
  let description = [{
    One mbarrier per stage of a ring the TMA fills, in the kernel's buffer
    at its `tilegpu.shared` (tilegpu-allocate-shared-memory), initialized by
    `tilegpu.mbarrier_init`.

    ```mlir
    %bars = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
    ```
  }];
  let results = (outs TileGPU_MBarriersType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileGPU_MBarrierInitOp : TileGPU_Op<"mbarrier_init", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "initialize mbarriers for a number of arrivals a phase";
  let description = [{
    One thread initializes each mbarrier for `count` arrivals a phase (1
    when absent: the thread issuing a fill's copies; a warp-specialized
    kernel's empty barriers count every consumer thread), then fences the
    initialization for the async proxy and the cluster; a barrier after
    it makes it visible to the block (a `tilegpu.cluster_barrier`, to the
    cluster). With `cluster`, `count` arrivals from each block of the
    cluster (`count` times `%cluster_nctarank`): every block's consumer
    warps release the stages of a ring the cluster shares
    (`tilegpu.mbarrier_arrive ... cluster`, once per warp).

    ```mlir
    tilegpu.mbarrier_init %bars : !tilegpu.mbarriers<3>
    tilegpu.mbarrier_init %empty count 256 : !tilegpu.mbarriers<3>
    tilegpu.mbarrier_init %empty count 8 cluster : !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins TileGPU_MBarriersType:$barriers,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>,
                                                IntMaxValue<1024>]>>:$count,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $barriers (`count` $count^)? (`cluster` $cluster^)? attr-dict `:`
    qualified(type($barriers))
  }];
}

def TileGPU_MBarrierWaitOp : TileGPU_Op<"mbarrier_wait", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait for a phase of an mbarrier the TMA completes";
  let description = [{
    Each thread waits until mbarrier `barrier` of `barriers` has completed
    the phase of parity `phase` (i32, 0 or 1: a stage's n-th fill completes
    phase n), which makes the bytes the TMA copied for it visible. With
    `tensor_map m`, a no-op where the kernel's tensor map `m` is of zeros
    (the copies were cp.async's, which `tilegpu.async_wait` waits for).
    Waiting for parity 1 on a fresh mbarrier returns at once: a producer
    waits so for a stage its consumers have not yet released.

    ```mlir
    tilegpu.mbarrier_wait %bars[%s], %phase tensor_map 0 : !tilegpu.mbarriers<3>
    tilegpu.mbarrier_wait %empty[%s], %parity : !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins TileGPU_MBarriersType:$barriers, I32:$barrier,
                       I32:$phase,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<0>]>>:$tensorMap);
  let assemblyFormat = [{
    $barriers `[` $barrier `]` `,` $phase (`tensor_map` $tensorMap^)? attr-dict
    `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TileGPU_MBarrierArriveOp : TileGPU_Op<"mbarrier_arrive", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "arrive once at an mbarrier";
  let description = [{
    Each thread arrives once at mbarrier `barrier` (i32) of `barriers`
    (`mbarrier.arrive`, release semantics: the thread's earlier reads of
    shared memory happen before the phase completes). A warp-specialized
    kernel's consumers release a stage so, once the mma reading it has
    completed; the phase completes at the count `tilegpu.mbarrier_init`
    gave. With `cluster`, each warp arrives once at that mbarrier in each
    block of its cluster: its threads meet (`bar.warp.sync`), then lane
    `r` arrives at block `r`'s (`mapa`); the stage of a ring the cluster
    shares is free once every block's warps have read it.

    ```mlir
    tilegpu.mbarrier_arrive %empty[%s] : !tilegpu.mbarriers<3>
    tilegpu.mbarrier_arrive %empty[%s] cluster : !tilegpu.mbarriers<3>
    ```
  }];
  let arguments = (ins TileGPU_MBarriersType:$barriers, I32:$barrier,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $barriers `[` $barrier `]` (`cluster` $cluster^)? attr-dict `:`
    qualified(type($barriers))
  }];
}

def TileGPU_TurnWaitOp : TileGPU_Op<"turn_wait", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "wait for this consumer warpgroup's turn to issue mmas";
  let description = [{
    The consumer warpgroups of a warp-specialized kernel take turns issuing
    their mma groups (FA3's ping-pong): warpgroup `g` waits here until the
    warpgroup before it (`g - 1`, the last one before the first) has passed
    it the turn (`tilegpu.turn_pass`). Each warpgroup's turn is a named
    barrier of 256 threads, its own 128 waiting and the 128 of the
    warpgroup passing to it arriving (`bar.sync 2 + g, 256`). With
    `only_first`, only warpgroup 0 waits: at the end, for the turn the last
    warpgroup passed after its final one, so that every barrier completes
    as often as it is arrived at.

    ```mlir
    tilegpu.turn_wait
    tilegpu.turn_wait only_first
    ```
  }];
  let arguments = (ins UnitAttr:$onlyFirst);
  let assemblyFormat = "(`only_first` $onlyFirst^)? attr-dict";
  let hasVerifier = 1;
}

def TileGPU_TurnPassOp : TileGPU_Op<"turn_pass", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "pass the turn to issue mmas to the next consumer warpgroup";
  let description = [{
    Consumer warpgroup `g` hands the turn to warpgroup `g + 1` (the first
    after the last): it arrives at that warpgroup's named barrier without
    waiting (`bar.arrive 2 + (g + 1) % n, 256`). With `only_last`, only the
    last warpgroup passes: at the start, giving warpgroup 0 the first turn.

    ```mlir
    tilegpu.turn_pass only_last
    tilegpu.turn_pass
    ```
  }];
  let arguments = (ins UnitAttr:$onlyLast);
  let assemblyFormat = "(`only_last` $onlyLast^)? attr-dict";
  let hasVerifier = 1;
}

def TileGPU_ClusterBarrierOp : TileGPU_Op<"cluster_barrier"> {
  let summary = "wait for every thread of the cluster's blocks";
  let description = [{
    Each thread arrives (release) and waits (acquire) until every thread
    of every block of its cluster that has not exited has arrived
    (`barrier.cluster`); without clusters, the block's threads. A kernel
    whose blocks share rings (tilegpu-multicast) meets so after
    initializing its mbarriers, before any block copies into another's
    shared memory or arrives at its mbarriers, and before it exits, so
    that no block leaves while another may still arrive at its mbarriers.

    ```mlir
    tilegpu.cluster_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_TensorMapActiveOp : TileGPU_Op<"tensor_map_active", [Pure]> {
  let summary = "whether the launch encoded a tensor map";
  let description = [{
    True where the launch encoded the kernel's tensor map `tensor_map`
    (its view is one the TMA can address: alignment, strides), false where
    it passed a map of zeros. Uniform across the grid.

    ```mlir
    %ok = tilegpu.tensor_map_active 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>]>:$tensorMap);
  let results = (outs I1:$result);
  let assemblyFormat = "$tensorMap attr-dict";
  let hasVerifier = 1;
}

def TileGPU_WarpSpecializeOp : TileGPU_Op<"warp_specialize", [
    RecursiveMemoryEffects, NoTerminator]> {
  let summary = "split a block into consumer warps and producer warps";
  let description = [{
    The block's `tile.num_warps` warps (the consumers, whose layouts the
    kernel's tiles use) run `consumer`; `producer_warps` more warps
    (numbered after them) run `producer`, in which one thread issues the
    TMA's copies. With register budgets, each side first sets its warps'
    registers (`setmaxnreg`, whole warpgroups: the producers give theirs
    back to the pool, the consumers take `consumer_registers`), so that the
    consumers hold larger accumulators than an even split allows; without,
    every warp keeps the entry's (a single producer warp costs little). The
    consumers' barriers count only them (a named barrier); the two sides
    meet only at mbarriers.

    ```mlir
    tilegpu.warp_specialize producer warps 4 registers 24 {
      ... // mbarrier_wait empty[s]; async_copy ... tma(full[s], m)
    } consumer registers 240 {
      ... // wait full[s]; mma; mbarrier_arrive empty[s - 1]
    }
    tilegpu.warp_specialize producer warps 1 { ... } consumer { ... }
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<1>]>:$producerWarps,
                       OptionalAttr<I64Attr>:$producerRegisters,
                       OptionalAttr<I64Attr>:$consumerRegisters);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumer);
  let assemblyFormat = [{
    `producer` `warps` $producerWarps (`registers` $producerRegisters^)?
    $producer `consumer` (`registers` $consumerRegisters^)? $consumer
    attr-dict
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group"> {
  let summary = "close this thread's group of asynchronous copies";
  let description = [{
    The copies this thread started since the last commit form one group
    (`cp.async.commit_group`), which `tilegpu.async_wait` counts.

    ```mlir
    tilegpu.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "wait until at most `pending` groups of copies are in flight";
  let description = [{
    Waits until this thread's committed groups of copies but the last
    `pending` are complete (`cp.async.wait_group`). Other threads' copies
    are visible after a barrier that follows it.

    ```mlir
    tilegpu.async_wait 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>]>:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [
    MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "read a tile from shared memory into registers";
  let description = [{
    Each thread reads the elements its layout gives it of a tile in shared
    memory.

    ```mlir
    %t = tilegpu.local_load %stage : !tilegpu.memdesc<128x64xbf16, swizzle = 0>
        -> tensor<128x64xbf16, #tilegpu.blocked<{sizePerThread = [1, 8],
               threadsPerWarp = [4, 8], warpsPerBlock = [4, 1]}>>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor-core dots and their synchronization
//===----------------------------------------------------------------------===//

def TileGPU_MmaOperand : AnyTypeOf<[AnyRankedTensor, TileGPU_MemDescType],
    "a tile in registers or in shared memory">;

def TileGPU_MmaOp : TileGPU_Op<"mma", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "a dot on the tensor cores, its operands where they are";
  let description = [{
    `acc + lhs @ rhs` on the instruction `tilegpu-accelerate-dots` chose:
    `lhs` is `M x K`, `rhs` `K x N`, `acc` and the result `M x N` f32, each
    operand a tile in registers or in shared memory (a `!tilegpu.memdesc`,
    `rhs` possibly transposed: a B stored as [N][K]).
    - `mma_sync`: each warp reads its fragments by ldmatrix from shared
      memory; an operand in registers goes there first (its scratch, two
      barriers), except a 16-bit `lhs` in the accumulator's layout with all
      warps along M, which is its own A fragments. Operands in shared memory
      are unswizzled, rows padded.
    - `wgmma` (sm_90a): the warpgroups issue `wgmma.mma_async` reading `rhs`,
      and `lhs` unless it is in registers in the accumulator's layout,
      through matrix descriptors from tiles under the 128-byte swizzle, then
      commit them as one group. The result's registers are being written
      until a `tilegpu.mma_wait` has waited for that group. A tf32 `rhs`
      stored `[K][N]` (N-major, under the 128-byte swizzle) with the
      accumulator in the swapped layout (`getSwappedWgmmaLayout`) runs on
      the transposed product, C^T = B^T A^T: each warpgroup loads its rows
      of B^T from `rhs` into registers as wgmma's A, and reads `lhs`
      (K-major, swizzled) as wgmma's B. Those registers are read until the
      group completes: the next such dot waits for it before loading them.

    ```mlir
    %d = tilegpu.mma wgmma %a, %b, %acc
        : !tilegpu.memdesc<128x64xbf16, swizzle = 128>,
          !tilegpu.memdesc<64x128xbf16, swizzle = 128>,
          tensor<128x128xf32, #tilegpu.mma<warps = [8, 1]>>
    ```
  }];
  let arguments = (ins TileGPU_DotInstructionAttr:$instruction,
                       TileGPU_MmaOperand:$lhs, TileGPU_MmaOperand:$rhs,
                       AnyRankedTensor:$acc,
                       DefaultValuedAttr<Tile_Precision,
                           "::tilegym::tile::Precision::TF32">:$precision);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    custom<DotInstruction>($instruction) $lhs `,` $rhs `,` $acc attr-dict `:` qualified(type($lhs)) `,`
    qualified(type($rhs)) `,` type($acc)
  }];
  let extraClassDeclaration = [{
    /// The rows and columns of `lhs` or `rhs`, in registers or shared memory.
    static ::llvm::ArrayRef<int64_t> getOperandShape(::mlir::Value operand);
    /// The operands' element type: f16, bf16 or f32 (rounded to tf32).
    ::mlir::Type getOperandElementType();
    int64_t getM() { return getType().getDimSize(0); }
    int64_t getN() { return getType().getDimSize(1); }
    int64_t getK() { return getOperandShape(getLhs())[1]; }
    /// Whether an mma_sync `lhs` in registers is its own A fragments, with
    /// no trip through shared memory: 16-bit, in the accumulator's mma
    /// layout with all warps along M (registers c0..c3 of N blocks 2k and
    /// 2k+1 are a0..a7 of K step k, FA2's P).
    bool isLhsItsOwnFragments();
    /// Whether a wgmma dot runs on its transpose: a tf32 rhs stored [K][N]
    /// read into registers as wgmma's A, the accumulator in the swapped
    /// layout.
    bool isSwapped();
  }];
  let hasVerifier = 1;
}

def TileGPU_MmaWaitOp : TileGPU_Op<"mma_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "wait until at most `pending` wgmma groups are in flight";
  let description = [{
    Waits until the warpgroup's committed `tilegpu.mma wgmma` groups but the
    last `pending` are complete (`wgmma.wait_group`). Its results are its
    operands, the results of the dots waited for: what reads them is
    ordered after the wait.

    ```mlir
    %r = tilegpu.mma_wait 0 %d : tensor<128x128xf32, #tilegpu.mma<warps = [8, 1]>>
    tilegpu.mma_wait 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>]>:$pending,
                       Variadic<AnyRankedTensor>:$values);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $pending ($values^ `:` type($values))? attr-dict
  }];
}

def TileGPU_PartialStoreOp : TileGPU_Op<"partial_store", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "publish a block's part of a tile's accumulator (stream-K)";
  let description = [{
    A block that ran some of a tile's iterations hands its accumulator to
    the block that finishes the tile: each thread stores its registers of
    `value` into slot `slot` of the kernel's partials (a zero-initialized
    global buffer of `slots` slots, each the tile's registers in thread
    order, so that the finishing block, in the same layout, reads back
    what each of its threads needs), and once every thread's stores are
    visible (a GPU-scope fence, then a barrier of the threads), one thread
    sets the slot's flag (release, GPU scope). A slot is written once per
    launch: `tilegpu.partial_accumulate` clears its flag.

    ```mlir
    tilegpu.partial_store %acc, slot %b of 144 : tensor<128x256xf32, #mma>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, Index:$slot,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$slots);
  let assemblyFormat = [{
    $value `,` `slot` $slot `of` $slots attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def TileGPU_PartialAccumulateOp : TileGPU_Op<"partial_accumulate", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "add another block's part of a tile's accumulator (stream-K)";
  let description = [{
    Waits until slot `slot` of the kernel's partials holds a block's part
    (one thread spins on its flag with GPU-scope acquire loads, then
    clears it for the next launch, and a barrier releases the others),
    and yields `value` plus that part, each thread reading the registers
    it holds (`tilegpu.partial_store`, in the same layout, wrote them).

    ```mlir
    %sum = tilegpu.partial_accumulate %acc, slot %p of 144 : tensor<128x256xf32, #mma>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, Index:$slot,
                       ConfinedAttr<I64Attr, [IntMinValue<1>]>:$slots);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $value `,` `slot` $slot `of` $slots attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared"> {
  let summary = "make this thread's shared-memory writes visible to wgmma";
  let description = [{
    wgmma reads shared memory through the async proxy; what a thread wrote
    through the generic one (cp.async, st.shared) is visible to it after
    this fence (`fence.proxy.async.shared::cta`) and a barrier.

    ```mlir
    tilegpu.fence_async_shared
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TILEGYM_TILEGPU_OPS_TD
