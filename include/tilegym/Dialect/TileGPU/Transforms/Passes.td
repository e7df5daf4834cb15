//===- Passes.td - tilegpu transforms ----------------------*- tablegen -*-===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileGPULegalizeDotsPass
    : Pass<"tilegpu-legalize-dots", "::mlir::func::FuncOp"> {
  let summary = "Bring every dot to operand types the tensor-core paths take";
  let description = [{
    A wgmma dot reads fp8 operands (`f8E4M3FN`, `f8E5M2`) from shared
    memory as they are; mma.sync multiplies f16, bf16 and tf32 operands
    only. Every other dot of fp8 operands gets them widened to f16
    (`arith.extf`, each keeping its tile's layout, if any), which is exact:
    every e4m3 and e5m2 value is an f16 value, so the products and the f32
    sums are those of the fp8 dot. A dot of f64 operands has no GPU path
    and is an error naming the types that have one.

    The GPU pipeline runs it twice. First, before `tile-pipeline-loads`
    (so that a widened operand is loaded ahead as a register tile, within
    that pass's byte budget): an unmarked fp8 dot keeps its operands only
    when `chip` is sm_90a and it may run as wgmma: wgmma's shapes (whole
    warpgroups, M a multiple of 64 per warpgroup, N a multiple of 8 up to
    256, at least 64x64x64 per warpgroup), K a multiple of 128, A a loaded
    `[M][K]` tile and B a loaded `[N][K]` tile read through a transpose.
    Then after `tilegpu-accelerate-dots`, which marks each dot
    (`tilegpu.dot`): an fp8 dot it did not make a wgmma (its operands not
    staged, say) is widened then.

    ```mlir
    %d = tile.dot %a, %b, %acc
        : tensor<64x32xf8E4M3FN>, tensor<32x64xf8E4M3FN>, tensor<64x64xf32>
    // becomes
    %a16 = arith.extf %a : tensor<64x32xf8E4M3FN> to tensor<64x32xf16>
    %b16 = arith.extf %b : tensor<32x64xf8E4M3FN> to tensor<32x64xf16>
    %d = tile.dot %a16, %b16, %acc
        : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
    ```

    With `remarks`, each widened dot says so.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The target (sm_80, sm_90, sm_90a): only sm_90a keeps fp8 "
           "operands for wgmma">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, each dot whose operands were widened">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileGPUAssignLayoutsPass
    : Pass<"tilegpu-assign-layouts", "::mlir::func::FuncOp"> {
  let summary = "Give every tile of a GPU kernel a distributed layout";
  let description = [{
    The GPU pipeline's layout step (after tile-pipeline-loads and
    tile-hoist-loads): every tile value of a kernel (a `func.func` with
    `tile.kernel`) gets a layout in its tensor type's encoding, which the
    later tilegpu passes read and `convert-tile-to-gpu` lowers register by
    register.

    Values that must share a layout are one class: the operands and result
    of an elementwise op, a broadcast's source and result, a reduction
    keeping its axis, a dot's accumulator and result, a gather's or
    scatter's indices and mask with its elements, and what loops and
    branches carry. Per class:
    - a class holding a dot result takes `#tilegpu.mma`. Its warps go along
      M when the class is reduced (row reductions then stay within a warp)
      or when the dot may run as wgmma (sm_90a, 16-bit or tf32 operands,
      warps a multiple of 4, M a multiple of 64 per warpgroup, N a multiple
      of 8 up to 256, rows of 128 bytes for the 128-byte swizzle: K, or N
      for a 16-bit B; a tf32 lhs not in registers; at least a 64x64x64
      product per warpgroup); otherwise the split that loads the
      fewest operand fragments per k step, more warps along M on a tie.
      A tf32 dot of a loop whose operands are loaded (ahead through the
      loop, or before it) with B `[K][N]`, N a multiple of 64 per
      warpgroup, M a multiple of 8 up to 256 and K of 32, takes the
      swapped wgmma layout instead (a `#tilegpu.linear`,
      `getSwappedWgmmaLayout`): it will run on its transpose,
      C^T = B^T A^T, wgmma's accumulator of the [N][M] product read with
      rows and columns swapped, warps along N;
    - a 2-D class used only as dot operands takes a blocked layout sized for
      its own shape, so that a [128, 32] operand is not replicated over a
      layout sized for [128, 128];
    - every other class takes its rank's blocked layout, sized for the
      largest tile of that rank, each thread moving 16 contiguous bytes of
      the narrowest element type of the kernel's views;
    Then a reshape, a permute and a reduction dropping its axis give their
    results in the layout in which they move no data (the source's bases in
    the result's coordinates, a `#tilegpu.linear`), and where the result's
    class has another layout a `tilegpu.convert_layout` moves the tile
    there, for `tilegpu-remove-layout-conversions` to remove where nothing
    needs it. Where no such layout exists (bases that do not each name a
    distinct bit of the row-major index), and for a reshaped iota, the op
    keeps its class's layout and moves the data itself.

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

def TileGPURemoveLayoutConversionsPass
    : Pass<"tilegpu-remove-layout-conversions", "::mlir::func::FuncOp"> {
  let summary = "Remove the layout conversions nothing needs and hoist "
                "loop-invariant ones";
  let description = [{
    After `tilegpu-assign-layouts`, which puts every data movement between
    layouts into a `tilegpu.convert_layout` (each costs its tile's bytes of
    shared memory and two barriers). In a GPU kernel (a `func.func` with
    `tile.kernel`):
    - a conversion of a conversion converts the first source, one to the
      same type and one without users go;
    - forward removal: the values a conversion's result reaches through
      elementwise ops and broadcasts form a region. When the region's other
      operands are splats, constants or conversions from the same source
      layout, and it ends only in
      - stores that write rows in runs of at least 16 bytes per warp in
        the source layout (a register and lane run along the last
        dimension: blocked layouts, the mma accumulator),
      - dot operands (a dot stages its operands from any layout), except
        one in an mma layout (wgmma may read an lhs from the accumulator's
        registers), or
      - other conversions,
      the region takes the source layout and its conversions go. A tile
      reshaped or transposed only to be stored is then stored from the
      registers it is in, and an operand transposed for a dot goes to the
      dot as it is; a transposition stored in its source's column order
      (runs of one element) keeps its conversion, through shared memory;
    - a conversion in a loop whose source is defined outside it moves
      before the outermost such loop.
    With `remarks`, each removal and hoist is a remark on the conversion.

    ```mlir
    %t = tile.permute %x {permutation = array<i64: 1, 0>}
        : tensor<64x128xbf16, #blocked> -> tensor<128x64xbf16, #linear>
    %c = tilegpu.convert_layout %t
        : tensor<128x64xbf16, #linear> -> tensor<128x64xbf16, #blocked1>
    %d = tile.dot %a, %c, %acc : ...
    ```
    becomes
    ```mlir
    %t = tile.permute %x {permutation = array<i64: 1, 0>}
        : tensor<64x128xbf16, #blocked> -> tensor<128x64xbf16, #linear>
    %d = tile.dot %a, %t, %acc : ...
    ```
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, which conversions went and which moved">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

def TileGPUAccelerateDotsPass
    : Pass<"tilegpu-accelerate-dots", "::mlir::func::FuncOp"> {
  let summary = "Choose each dot's tensor-core instruction and stage its "
                "operands in shared memory";
  let description = [{
    After `tilegpu-assign-layouts`: decides, for every `tile.dot` of a GPU
    kernel, which operands skip registers and which instruction it runs on,
    and writes both into the IR for `tilegpu-pipeline`, which turns them
    into rings, copies and `tilegpu.mma`.

    Staging. A dot operand is copied by cp.async into a ring of
    shared-memory stages, from where the dot reads it, when it reaches a
    dot in a loop's body only through views (reshapes dropping unit
    dimensions, 2-D transposes; an lhs not transposed), its loads pad with
    zeros (cp.async zero-fills), move 16-byte runs per thread (its layout),
    have 16- or 32-bit elements (fp8 ones only for a dot that runs as
    wgmma), and it is either
    - a window of loads k iterations ahead through the loop
      (`tile-pipeline-loads`): a ring of k + 1 stages, or
    - a tile loaded once before the loop: a ring of one stage.
    A loop's windows share one ring size (the wait at each iteration counts
    the stages ahead); rings are dropped from the last until all fit in
    `shared-memory-budget` bytes (by default the chip's block maximum less
    3 KiB for mbarriers and alignment and less the scratch that the ops in
    the kernel's loops keep beside the rings: 160 KiB on sm_80, 224 KiB on
    sm_90 for a loop without scratch), each counted at the size it takes: rows
    unpadded under the swizzle where its dot would run as wgmma with it,
    padded otherwise (a drop that moves a dot to mma.sync pads its other
    operand). Each staged load gets
    `tilegpu.stage = #tilegpu.stage<...>`.

    Instruction. On sm_90a a dot runs as wgmma when: the kernel's warps are
    a multiple of 4 (warpgroups); its operands are 16-bit, fp8, or f32 at
    tf32 precision; M is a multiple of 64 per warpgroup and N a multiple of 8 up
    to 256; each warpgroup's share is at least a 64x64x64 product (smaller
    ones measured faster on mma.sync); its accumulator is `#tilegpu.mma`
    with all warps along M; its rhs is staged, and its lhs is staged
    (another tile) or, for 16-bit operands, in the accumulator's layout (A
    from registers, as FA3's P); staged tiles have stored rows of 128 bytes
    and a multiple of 8 rows (the 128-byte swizzle). Its staged operands
    then use that swizzle (`swizzle = 128`). wgmma reads tf32 only K-major:
    a tf32 dot whose accumulator has the swapped wgmma layout runs on its
    transpose (its lhs staged under the swizzle as wgmma's B, its rhs
    `[K][N]` staged as loaded, rows padded, and read into registers as
    wgmma's A); where it cannot, it accumulates in an mma layout of its
    own (converted from and to its class's) and is decided as a dot in that
    layout, so that the decision made again is the same. Otherwise a tf32
    rhs loaded `[K][N]` (not read through a transpose) is staged
    transposed (`transposed = true`: stored `[N][K]`, copied element by
    element). wgmma transposes no fp8 operand, and no copy moves a single
    byte transposed: an fp8 dot needs both operands staged K-major, the
    rhs loaded `[N][K]` and read through a transpose, K a multiple of 128.
    Every other dot runs on mma.sync (fp8 operands widened to f16 by
    `tilegpu-legalize-dots`). Each dot gets
    `tilegpu.dot = #tilegpu.dot<wgmma>` or `#tilegpu.dot<mma_sync>`.

    With `remarks`, each dot says its instruction and, on mma.sync, why not
    wgmma; each loop says what it stages and in how many bytes.

    ```mlir
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %a0 = %a,
        %b0 = %b) -> (...) {
      %c = tile.dot %a0, %b0, %acc : ...
      %a1 = tile.load %va[%m, %k1] ...
      %b1 = tile.load %vb[%k1, %n] ...
      scf.yield %c, %a1, %b1 : ...
    }
    ```
    becomes, on sm_90a at 8 warps with 128x128x64 tiles of bf16,
    ```mlir
      %c = tile.dot %a0, %b0, %acc {tilegpu.dot = #tilegpu.dot<wgmma>} ...
      %a1 = tile.load %va[%m, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0,
          stages = 2, swizzle = 128>} ...
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (wgmma needs sm_90a)">,
    Option<"sharedMemoryBudget", "shared-memory-budget", "int64_t",
           /*default=*/"::tilegym::tilegpu::kChipStagingBudget",
           "Bytes of shared memory the rings of a kernel may take; -1 (the "
           "default): the chip's block maximum (163 KiB on sm_80, 227 KiB on "
           "sm_90) less 3 KiB and the scratch of the ops in its loops">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, each dot's instruction and why, and what each "
           "loop stages">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

def TileGPUAssignTmaPass
    : Pass<"tilegpu-assign-tma", "::mlir::func::FuncOp"> {
  let summary = "Choose the staged loads the TMA copies, and their tensor "
                "maps";
  let description = [{
    After `tilegpu-accelerate-dots`, before `tilegpu-pipeline`, on sm_90a.
    A staged load (`tilegpu.stage`) is copied by the TMA when its stage has
    the 128-byte swizzle and is not transposed (the TMA writes a box of
    128-byte rows under the same swizzle wgmma reads), its view is a
    parameter of the kernel (the launch encodes the tensor map from it), its
    tile has at most 5 dimensions of at most 256 elements, and the loop
    that reads the ring is not inside another loop (each stage's mbarrier
    counts its fills from the kernel's start). Such loads get
    `tilegpu.tma = m`, the position of their tensor map in the kernel's
    `tilegpu.tensor_maps`: one `#tilegpu.tensor_map<view, box>` per view
    and box, the box the tile's shape with its innermost dimension cut to
    128 bytes (a tile of several column blocks is copied one box each).
    Whether the view itself is addressable (16-byte aligned, strides
    multiples of 16 bytes) is only known at launch: the kernel falls back to
    cp.async where it is not.

    A store of a tile computed from a dot's result (a dot's epilogue) is
    the TMA's when its view is a kernel parameter and its tile has at most
    5 dimensions, rows a multiple of 128 bytes and at most 256 elements
    along the others: `tilegpu.tma = m` on the `tile.store`, its map listed
    as the loads' are. The lowering writes the tile once into 128-byte
    swizzled shared memory (its scratch, placed by
    tilegpu-allocate-shared-memory) and one thread stores each 128-byte
    column block with a bulk tensor copy, which clips the box to the view;
    where the view is not addressable it stores from registers as before.

    With `remarks`, each ring and each store of a dot's result says whether
    the TMA moves it and why not; `enable=false` moves nothing with the
    TMA, `stores=false` only the stores.

    ```mlir
    %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0,
        stages = 3, swizzle = 128, index = 0>} ...
    ```
    becomes
    ```mlir
    func.func @k(...) attributes {tilegpu.tensor_maps =
        [#tilegpu.tensor_map<view = 0, box = [128, 64]>]}
    %a0 = tile.load %va[%m, %c0] {tilegpu.stage = ..., tilegpu.tma = 0} ...
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (the TMA needs sm_90 or later)">,
    Option<"enable", "enable", "bool", /*default=*/"true",
           "Copy eligible rings with the TMA">,
    Option<"stores", "stores", "bool", /*default=*/"true",
           "Store eligible dot results (epilogues) with the TMA">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say for each ring whether the TMA copies it, and why not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

def TileGPUPipelinePass
    : Pass<"tilegpu-pipeline", "::mlir::func::FuncOp"> {
  let summary = "Turn staged dot operands into rings of shared memory filled "
                "by cp.async, and dots into tilegpu.mma";
  let description = [{
    After `tilegpu-accelerate-dots`, which marks what is staged
    (`tilegpu.stage` on loads) and each dot's instruction (`tilegpu.dot`);
    before `tilegpu-allocate-shared-memory`. In a GPU kernel (a `func.func`
    with `tile.kernel`):
    - each ring becomes a `tilegpu.local_alloc` at the kernel's entry, in
      ring order: `stages x rows x cols` of the tile as stored (its last two
      dimensions), or `rows x cols` for one stage;
    - each staged load becomes a `tilegpu.async_copy` into its stage and a
      `tilegpu.async_commit_group`: before the loop into the stage its
      `index` names, in the body into the stage after the window's last
      (`(stage + stages - 1) % stages`);
    - a loop whose windows are in shared memory no longer carries their
      tiles: it carries the index of its current stage (i32, from 0, the
      next `(stage + 1) % stages`). Before the body's first access to a
      stage (a dot reading one, a copy refilling one), a
      `tilegpu.async_wait` leaves the groups of the stages ahead in flight
      (`(stages - 2) x` the windows), then, in a kernel with wgmma, a
      `tilegpu.fence_async_shared`, then a `gpu.barrier`. After the loop,
      `tilegpu.async_wait 0`;
    - each `tile.dot` becomes a `tilegpu.mma` of its instruction (mma_sync
      where none is marked), its staged operands read from their current
      stage (`tilegpu.memdesc_index`), a transposed one through
      `tilegpu.memdesc_trans`;
    - wgmma groups: the body's first wgmma dot issues the copies ahead that
      precede it right after it, so that they overlap it, then waits for
      it (`tilegpu.mma_wait 0`). When its result only goes round the loop
      as its own accumulator and its lhs is staged, the group stays in
      flight: it waits instead for the previous iteration's group
      (`tilegpu.mma_wait 1`, a barrier before the copies refill the stage
      that group read), and its result is waited for after the loop. A dot
      on the transposed product (the swapped layout) loads its A fragments
      into the registers its last group still reads: its group is waited
      for before the barrier that precedes the next iteration's dot. A
      later wgmma dot whose result is only yielded is waited for before the
      yield, others right after them.
    IR whose marks disagree (a window's loads without their stages, a ring
    that reaches no dot of its loop, a wgmma dot whose operands are not
    staged for it) is an error at the op.

    ```mlir
    %a0 = tile.load %va[%m, %c0] {tilegpu.stage = #tilegpu.stage<ring = 0,
        stages = 2, swizzle = 0, index = 0>} ...
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %a = %a0) ... {
      %c = tile.dot %a, %b, %acc {tilegpu.dot = #tilegpu.dot<mma_sync>} ...
      %a1 = tile.load %va[%m, %k1] {tilegpu.stage = #tilegpu.stage<ring = 0,
          stages = 2, swizzle = 0>} ...
      scf.yield %c, %a1 : ...
    }
    ```
    becomes
    ```mlir
    %ring = tilegpu.local_alloc : !tilegpu.memdesc<2x128x32xbf16, swizzle = 0>
    %s0 = tilegpu.memdesc_index %ring[%i0] ...
    tilegpu.async_copy %va[%m, %c0], %s0 : ... as tensor<128x32xbf16, #blocked>
    tilegpu.async_commit_group
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z,
        %stage = %c0_i32) ... {
      tilegpu.async_wait 0
      gpu.barrier
      %s = tilegpu.memdesc_index %ring[%i] ...
      %c = tilegpu.mma mma_sync %s, %b, %acc : ...
      ...
      tilegpu.async_copy %va[%m, %k1], %ahead ...
      tilegpu.async_commit_group
      scf.yield %c, %next : ...
    }
    tilegpu.async_wait 0
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (wgmma needs sm_90a)">,
    Option<"chainCopyAddresses", "chain-copy-addresses", "bool",
           /*default=*/"false",
           "Make every copy `chained` (as a kernel with "
           "`tilegpu.chain_copy_addresses` has them)">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileGPUWarpSpecializePass
    : Pass<"tilegpu-warp-specialize", "::mlir::func::FuncOp"> {
  let summary = "Give the TMA's fills of a kernel's ring loop to producer "
                "warps";
  let description = [{
    After `tilegpu-pipeline`, before `tilegpu-allocate-shared-memory`, on
    sm_90a, in a kernel that asks for it (`tile.specialize = 1`, from
    `specialize(1)` in the source). The kernel's one loop that refills
    rings (tilegpu-pipeline's fills ahead) must have every copy on the TMA,
    at the top of the loop's body, its tile indices a function of the
    induction variable and of scalars computed before the loop; the loop
    at the top of the kernel; the kernel's warps whole warpgroups.
    `--remarks` says which of these a kernel missed.

    The kernel becomes a `tilegpu.warp_specialize`: one more warpgroup,
    the producers, whose first thread runs the loop's iterations issuing
    each fill once its stage is free (an "empty" mbarrier per stage and
    ring, waited with parity `((f / S) & 1) ^ 1` for fill `f`, so a stage's
    first fill finds it free); and the kernel's own warps, the consumers,
    whose loop keeps its waits for full stages and its dots, each fill
    replaced by every consumer thread's `tilegpu.mbarrier_arrive` on the
    stage it would have refilled (from the second iteration: that stage's
    mma has completed, as the fill's position guaranteed), without the
    cp.async waits, fences and barriers that guarded the stages. Fills
    before the loop stay the consumers' (one thread each), and so do the
    waits after it. Both sides run only where the launch encoded every
    tensor map the loop uses (`tilegpu.tensor_map_active`); elsewhere the
    consumers run the kernel as it was, with cp.async, and the producers
    idle.

    Registers: the block has `e` per thread at the entry (the 64K register
    file over its threads and its blocks per SM), and ptxas assembles each
    instruction within `e`, whatever setmaxnreg gives later. Two blocks per
    SM where the consumers' dots (accumulators and register operands, plus
    40) fit `e`: with a warpgroup of producers if they fit `e` of 384
    threads, else with a single producer warp that keeps its registers (no
    setmaxnreg; warps count in pairs: 4 + 1 warps at two blocks have 168
    registers); else one block
    with a warpgroup of producers. With a warpgroup, the producers keep the
    fewest registers (from 24) that leave the consumers a multiple of 8, so
    that the budgets add up to exactly `e` per thread (setmaxnreg hangs
    otherwise). The kernel gets `tile.min_blocks_per_sm` (fixed, as
    setmaxnreg needs) and `tilegpu.producer_warps`; a kernel's own blocks
    per SM keep the warpgroup.

    ```mlir
    scf.for %k = %c0 to %n step %c1 iter_args(..., %s = %c0_i32, %ph = ...) {
      tilegpu.async_wait 2
      tilegpu.mbarrier_wait %full[%s], %ph tensor_map 0 : ...
      tilegpu.fence_async_shared
      gpu.barrier
      %d = tilegpu.mma wgmma ...
      tilegpu.mma_wait 1
      gpu.barrier
      tilegpu.async_copy %a[%m, %k2], %stage tma(%full[%s2], 0) : ...
      tilegpu.async_commit_group
      ...
    }
    ```
    becomes
    ```mlir
    %empty = tilegpu.mbarrier_alloc : !tilegpu.mbarriers<3>
    tilegpu.mbarrier_init %empty count 256 : !tilegpu.mbarriers<3>
    %ok = tilegpu.tensor_map_active 0
    tilegpu.warp_specialize producer warps 4 registers 24 {
      scf.if %ok {
        scf.for %k = %c0 to %n step %c1 iter_args(%f = %c2_i32) {
          tilegpu.mbarrier_wait %empty[%slot], %parity : ...
          tilegpu.async_copy %a[%m, %k2], %stage tma(%full[%slot], 0) : ...
        }
      }
    } consumer registers 240 {
      scf.if %ok {
        ... scf.for ... {
          tilegpu.mbarrier_wait %full[%s], %ph tensor_map 0 : ...
          %d = tilegpu.mma wgmma ...
          tilegpu.mma_wait 1
          scf.if %notFirst { tilegpu.mbarrier_arrive %empty[%s2] : ... }
        }
      } else { ... the kernel as it was ... }
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (setmaxnreg needs sm_90a)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say whether each kernel that asks is warp-specialized, with its "
           "register budgets, or why not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileGPUMulticastPass
    : Pass<"tilegpu-multicast", "::mlir::func::FuncOp"> {
  let summary = "Pair a warp-specialized kernel's blocks into clusters that "
                "share the tiles both load";
  let description = [{
    After `tilegpu-warp-specialize`, before `tilegpu-persistent`, in a
    kernel that asks for it (`tile.cluster = 2`, from `cluster(2)` in the
    source) and that pass split. The blocks that differ only in their
    `block_id(1)` (the grid's y) pair into clusters of two where the launch
    can (the grid's y even; a persistent launch's blocks along x, whose
    walk gives consecutive tiles of a column, so the same pairs). A ring
    whose every copy's tile indices are not a function of `block_id(1)`
    (a matmul's B, its tiles along N, where y walks M) is one both blocks
    load: its copies become `multicast`, each block issuing half of the
    tile's column blocks into both blocks' stages; its empty mbarriers
    count both blocks' consumer warps (`mbarrier_init ... cluster`, the
    count in warps), each of which releases a stage at both
    (`mbarrier_arrive ... cluster`), since a block's fill now writes its
    pair's stage too. A
    `tilegpu.cluster_barrier` after the mbarriers' initialization and one
    before the kernel returns keep a block from touching its pair's
    mbarriers before they exist or after it exits. The kernel gets
    `tilegpu.cluster = 2`, which the bundle's manifest carries to the
    launch; without clusters (an odd grid y, a driver without
    cuLaunchKernelEx) the same code copies every column block itself.

    Refused, with a remark: a kernel that is not warp-specialized, whose
    loops' bounds depend on `block_id(1)` (the pair's fill counts would
    differ: causal attention), or whose rings all depend on it.

    ```mlir
    tilegpu.mbarrier_init %empty count 256 : !tilegpu.mbarriers<3>
    tilegpu.warp_specialize producer warps 4 registers 24 {
      ... tilegpu.async_copy %b[%k2, %n], %stage tma(%full[%slot], 1) ...
    } consumer registers 240 {
      ... tilegpu.mbarrier_arrive %empty[%s2] ...
    }
    ```
    becomes
    ```mlir
    tilegpu.mbarrier_init %empty count 8 cluster : !tilegpu.mbarriers<3>
    gpu.barrier
    tilegpu.cluster_barrier
    tilegpu.warp_specialize producer warps 4 registers 24 {
      ... tilegpu.async_copy %b[%k2, %n], %stage tma(%full[%slot], 1)
              multicast ...
    } consumer registers 240 {
      ... tilegpu.mbarrier_arrive %empty[%s2] cluster ...
    }
    tilegpu.cluster_barrier
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say whether each kernel that asks is clustered, with the rings "
           "its pairs share, or why not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

def TileGPUOverlapDotsPass
    : Pass<"tilegpu-overlap-dots", "::mlir::func::FuncOp"> {
  let summary = "Defer a warp-specialized loop's last dot into the next "
                "iteration, under the work on its first dot's result";
  let description = [{
    After `tilegpu-multicast`, before `tilegpu-persistent`, on the
    consumers' loops of a `tilegpu.warp_specialize` (the branch on the
    mbarriers). FlashAttention-3's intra-warpgroup overlap, for any loop
    with two or more wgmma dots whose last one's result, waited for at the
    end of the body, only goes round the loop as an accumulator
    (attention's `acc = dot(p, v, acc * alpha)`): each iteration issues the
    previous iteration's last dot right after its own first dot (the next
    scores), waits for the first with one group still in flight, and waits
    for the deferred dot only before the first op that reads the
    accumulator (the rescale by `alpha`), so that the tensor cores run
    `P V` while the warps compute the next softmax. The dot's inputs
    computed in the body (`p`, the rescaled accumulator, the index of the
    stage it reads) become iteration arguments; the releases of the stages
    it reads move after its wait; the first iteration is peeled (no dot to
    issue in it), the last deferred dot issued after the loop, all under a
    test that the loop runs at least once.

    Refused, with a remark: a loop whose wgmma dots are under control flow,
    whose last dot's result is read in the body, whose accumulator is read
    before its first dot, whose dots run on the transposed product (two
    groups each), whose last dot reads shared memory that is not a ring the
    producer fills, or a kernel that asks to be persistent.

    ```mlir
    scf.for %j = %lb to %ub step %c1 iter_args(%acc = %zero, ...) {
      %s = tilegpu.mma wgmma %q, %kt, %zero_s : ...
      %sw = tilegpu.mma_wait 0 %s : ...
      ... softmax of %sw: %p, %alpha ...
      %scaled = arith.mulf %acc, %alpha_b : ...
      %o = tilegpu.mma wgmma %p, %v, %scaled : ...
      %ow = tilegpu.mma_wait 0 %o : ...
      scf.yield %ow, ...
    }
    ```
    becomes
    ```mlir
    scf.if %runs -> (...) {
      ... the first iteration without its P V: %p0, %scaled0, %vi0 ...
      %r:... = scf.for %j = %lb1 to %ub step %c1
          iter_args(%acc = %zero, ..., %p = %p0, %sc = %scaled0, %vi = %vi0) {
        %s = tilegpu.mma wgmma %q, %kt, %zero_s : ...
        %v = tilegpu.memdesc_index %ring[%vi] : ...
        %o = tilegpu.mma wgmma %p, %v, %sc : ...
        %sw = tilegpu.mma_wait 1 %s : ...
        ... softmax of %sw: %p1, %alpha ...
        %ow = tilegpu.mma_wait 0 %o : ...
        ... the release of %v's stage ...
        %scaled = arith.mulf %ow, %alpha_b : ...
        scf.yield %acc, ..., %p1, %scaled, %vi1
      }
      ... the last P V on %r's carried inputs, waited for ...
    } else { scf.yield %zero, ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say which loops with two or more wgmma dots have their last "
           "dot deferred, or why not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUPingPongPass
    : Pass<"tilegpu-ping-pong", "::mlir::func::FuncOp"> {
  let summary = "Let a split kernel's consumer warpgroups take turns issuing "
                "their wgmma dots";
  let description = [{
    After `tilegpu-overlap-dots`, in a kernel that asks for it
    (`overlap(2)`, `tile.overlap = 2`) and whose consumers are two or more
    warpgroups. FA3's ping-pong: in the consumers' branch on the
    mbarriers, each run of wgmma issues with no wait between them (the
    overlapped loop's Q K^T and deferred P V, the peeled first Q K^T, the
    last P V) becomes a turn: the warpgroup waits for it before the first
    issue (`tilegpu.turn_wait`) and passes it to the next warpgroup right
    after the last (`tilegpu.turn_pass`). So the warpgroups issue in
    alternation, and one warpgroup's dots run on the tensor cores while the
    other computes its softmax, instead of both issuing together and then
    both leaving the tensor cores idle. A turn never holds a wait for an
    mma group: that would keep the other warpgroup out until the tensor
    cores finish. The last warpgroup passes the first turn at the start of
    the branch, and warpgroup 0 takes the turn passed after the last one at
    its end, so each named barrier completes as often as it is arrived at.

    ```mlir
    } consumer registers 240 {
      scf.if %tma {
        tilegpu.turn_pass only_last
        ...
        scf.for ... {
          tilegpu.mbarrier_wait ...
          tilegpu.turn_wait
          %s = tilegpu.mma wgmma %q, %kt, %zero : ...
          %v = tilegpu.memdesc_index %ring[%vi] : ...
          %o = tilegpu.mma wgmma %p, %v, %acc : ...
          tilegpu.turn_pass
          %sw = tilegpu.mma_wait 1 %s : ...
          ...                      // the softmax
        }
        ...
        tilegpu.turn_wait only_first
      } else { ... }
    ```

    Not done, with `--remarks` saying why: a kernel that is not
    warp-specialized, whose consumers are one warpgroup, or where no loop
    issues two wgmma dots with no wait between (the overlap did not
    apply). Every warpgroup takes the same turns, as the branches and trip
    counts around them are the block's own.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say whether each split kernel's warpgroups take turns, or why "
           "not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUPersistentPass
    : Pass<"tilegpu-persistent", "::mlir::func::FuncOp"> {
  let summary = "Run a warp-specialized kernel's tiles in turn on as many "
                "blocks as the GPU holds";
  let description = [{
    After `tilegpu-warp-specialize`, in a kernel that asks for it
    (`tile.persistent = 1`, from `persistent(1)` in the source) and that
    pass split. The launch then starts min(tiles, SMs x blocks per SM)
    blocks along x (`tilegpu.persistent` holds the blocks per SM:
    `tile.min_blocks_per_sm`, fewer where the SM's shared memory holds
    fewer; the bundle's manifest carries it to the runtime), and each block runs tiles `block_id(0)`, `+ num_blocks(0)`,
    ... of the grid, which the kernel recomputes from its grid function. A
    tile's coordinates walk groups of 8 rows (y) column by column, z
    slowest, so that the blocks running at once share the operand tiles of
    few rows and columns (the L2); within a tile, the user's `block_id` and
    `num_blocks` are the tile's and the grid's.

    Both sides of the split loop over the tiles: the producer's fills carry
    their count from tile to tile and start at each tile's first iteration
    (its loop shifted back by the `stages - 1` iterations it filled ahead),
    so it fills the next tile's stages while the consumers store this
    one's; the consumers carry their stage and phase, drop the fills before
    their loop (the producer's now) and the waits after it (no fill goes
    past a tile's last iteration), release the last iteration's stage once
    its mma has completed, and meet at a barrier after each tile's
    epilogue; a tile copied by the TMA once per tile before the loop
    (attention's Q) waits with a parity the tile loop flips. The kernel as
    it was (the branch taken where a map is not active) loops over the
    tiles the same way, a barrier between tiles, every copy on cp.async
    and the TMA's waits gone (its mbarriers' phases do not restart each
    tile).

    Refused, with `--remarks` saying why: a kernel not split, copies or
    waits outside the ring loop other than its rings' and once-per-tile
    TMA tiles before it, rings and the epilogue's scratch that together
    pass the block's shared memory (the epilogue can no longer reuse the
    rings' bytes), a grid function the kernel cannot recompute.

    ```mlir
    tilegpu.warp_specialize producer warps 4 registers 24 {
      scf.if %ok {
        %n = tile.block_id 0
        scf.for %k = %c0 to %kt step %c1 iter_args(%f = %c2_i32) { ... }
      }
    } consumer registers 240 { scf.if %ok { ... } else { ... } }
    ```
    becomes
    ```mlir
    %gx = ... // the grid function's body
    %b = tile.block_id 0
    %nb = tile.num_blocks 0
    tilegpu.warp_specialize producer warps 4 registers 24 {
      scf.if %ok {
        scf.for %t = %b to %tiles step %nb iter_args(%f0 = %c0_i32) {
          %n = ... // the tile's x
          %r = scf.for %k = %lo to %hi step %c1 iter_args(%f = %f0) { ... }
          scf.yield %r : i32
        }
      }
    } consumer registers 240 { ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (its shared memory per block)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say whether each kernel that asks is made persistent, or why "
           "not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::tilegym::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileGPUStreamKPass : Pass<"tilegpu-stream-k", "::mlir::func::FuncOp"> {
  let summary = "Cut a persistent kernel's last waves of tiles along K "
                "between its blocks (stream-K)";
  let description = [{
    After `tilegpu-persistent`, in a kernel that asks for it
    (`tile.persistent = 2`, from `persistent(2)` in the source) and that
    pass made persistent. Where the grid's tiles are not a whole number of
    the launch's blocks, the last wave leaves SMs idle; the kernel instead
    runs whole tiles but for the last two waves' worth (the partial wave and
    the one before it), whose iterations are cut into one equal range per
    block, so that every block ends at about the same time. Those tiles
    are dealt to g groups of blocks (tile c and block b to group c, b mod
    g); a group's tiles, laid end to end, are cut between its blocks, and
    g is the most groups, up to 8, that divide both the blocks and the cut
    tiles: every group is then alike, and the blocks at one position of
    every group run the same iterations of neighbouring tiles together,
    sharing their loads in the L2 (with unequal groups their ranges would
    drift apart along K).
    A tile cut between blocks is finished by the block holding its first
    iterations: the others hand it their accumulators
    (`tilegpu.partial_store`, in their first unit of work), it adds them
    (`tilegpu.partial_accumulate`, in its last) and runs the epilogue; only
    it does. Blocks then run units of work (a tile and a range of its
    iterations), both sides of the warp_specialize alike: the producer
    fills, and the consumers run, each unit's iterations, their stage,
    phase and fill count carried as before. The schedule is computed in
    the kernel from the launch's blocks and the tiles; a launch whose
    tiles are a whole number of waves, whose tiles have fewer than two
    iterations, or that has more blocks than the partials' slots (one per
    block of a launch on up to 144 SMs) runs every tile whole.

    Refused, with `--remarks` saying why: a kernel not persistent, one with
    clusters (a cluster's blocks share tiles, so they must run the same
    iterations), a ring loop whose iterations depend on the tile or that
    carries tiles other than one accumulator from zero that only mmas add
    to (the sum of the parts is then the whole), an epilogue whose values
    outlive the tile.

    ```mlir
    scf.for %t = %b to %tiles step %nb iter_args(...) {
      %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%a = %zero, ...) { ... }
      %d = tilegpu.mma_wait 0 %acc
      tile.store %d, %c[%m, %n]
      gpu.barrier
    }
    ```
    becomes, for unit `%u` of the block's share (tile `%t`, iterations
    `[%kb, %ke)`):
    ```mlir
    scf.for %u = %c0 to %units step %c1 iter_args(...) {
      %acc = scf.for %k = %from to %to step %c1 iter_args(...) { ... }
      %d = tilegpu.mma_wait 0 %acc
      %sum = scf.if %cut {
        scf.if %first { partial_accumulate of each later block's slot }
        else { tilegpu.partial_store %d, slot %b of 144 }
      } else { scf.yield %d }
      scf.if %first { tile.store %sum, %c[%m, %n] }
      gpu.barrier
    }
    ```
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say whether each kernel that asks is cut, or why not">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect",
                           "::tilegym::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileGPUAllocateSharedMemoryPass
    : Pass<"tilegpu-allocate-shared-memory", "::mlir::func::FuncOp"> {
  let summary = "Place every user of shared memory in one buffer, reusing "
                "bytes between users that are not live at once";
  let description = [{
    The GPU pipeline's last tilegpu step (after tilegpu-pipeline). In a GPU
    kernel (a `func.func` with `tile.kernel`), the users of shared memory
    are:
    - each `tilegpu.local_alloc` (the rings of staged dot operands): all
      its stages, live from the alloc to its last use or that of a view of
      it, extended to the end of the outermost loop around that use (after
      which the kernel waits for its copies and its wgmma groups);
      1024-byte aligned under the 128-byte swizzle;
    - the scratch of an op while it runs: a layout conversion that moves
      data (`tilegpu.convert_layout`, a reshape or permute whose result is
      not a renaming of registers), a reduction across warps, an mma.sync
      dot's operands staged from registers.
    Most write after a barrier, so they may take bytes an earlier user no
    longer needs. Two write without one, and may overwrite what slower
    warps still read: the copies into a ring and a reduction outside loops.
    Those are live from the kernel's start. Buffers that are live at once
    get disjoint bytes, larger buffers placed first at the lowest offset
    that fits (16-byte aligned). Each user gets
    `tilegpu.shared = #tilegpu.shared<offset = ..., bytes = ...>`, the
    kernel `tilegpu.shared_memory`, the buffer's size: static up to 48 KiB,
    dynamic above (the launch opts in up to the chip's limit).

    A kernel needing more than its chip gives a block (sm_80 163 KiB,
    sm_90 227 KiB) is an error naming the limit, with a note on each of
    the largest users. With `remarks`, each user says its bytes and offset
    and the kernel its total.

    ```mlir
    %c = tilegpu.convert_layout %a : tensor<64x64xf32, #mma>
        -> tensor<64x64xf32, #blocked>
    ```
    becomes, after a loop whose two rings take 48 KiB,
    ```mlir
    %c = tilegpu.convert_layout %a {tilegpu.shared =
        #tilegpu.shared<offset = 0, bytes = 16384>} : ...
    ```
    (the rings' bytes, free after the loop).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target GPU architecture (its shared memory per block)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Say, as remarks, each user's bytes and offset and the kernel's "
           "total">,
  ];
  let dependentDialects = ["::tilegym::tilegpu::TileGPUDialect"];
}

#endif // TILEGYM_DIALECT_TILEGPU_TRANSFORMS_PASSES
