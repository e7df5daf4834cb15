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

def TilePipelineLoadsPass : Pass<"tile-pipeline-loads"> {
  let summary = "Load the next iteration's tiles of a loop while this one computes";
  let description = [{
    Software pipelining of `scf.for` loops over tiles: a `tile.load` in a
    loop body whose indices depend only on the induction variable and on
    values defined outside the loop is issued one iteration ahead. The first
    iteration's tile is loaded before the loop; each iteration loads the
    next one (indices at `iv + step`) at its start and carries it to the
    next iteration as an `iter_arg`, so its memory latency overlaps this
    iteration's work instead of stalling the next one.

    The last iteration's look-ahead load may fall past the data; loads mask
    their edges, so it reads nothing out of bounds. Loops whose body may
    write memory are left alone (a store could feed a later load), and a
    loop is pipelined only while the tiles carried ahead fit
    `max-bytes-per-thread` (registers are the budget: on the GPU each
    thread of the kernel's `tile.num_warps` warps holds its share). A
    kernel's `tile.pipeline_bytes` attribute (`tilegym-cc --pipeline-bytes`)
    overrides the option; 0 turns look-ahead off. With
    `dot-operands-in-shared-memory` (the GPU pipeline), tiles that only feed
    dots cost nothing against the budget: the backend copies them into
    shared memory (cp.async) instead of registers, and they go
    `shared-memory-stages - 1` iterations ahead (kernel attribute
    `tile.pipeline_stages`, `tilegym-cc --pipeline-stages`; by default 3 in
    a loop with one dot, while its rings fit 160 KiB, and 2 in a loop with
    more): the loop then
    carries a window of that many tiles per load, loaded before the loop
    iteration by iteration, uses the first and yields the window shifted.

    ```mlir
    scf.for %k = %c0 to %n step %c1 {
      %a = tile.load %x[%m, %k] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
      ...
    }
    ```
    becomes
    ```mlir
    %a0 = tile.load %x[%m, %c0] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
    scf.for %k = %c0 to %n step %c1 iter_args(%a = %a0) -> (tensor<128x32xbf16>) {
      %k1 = arith.addi %k, %c1 : index
      %next = tile.load %x[%m, %k1] : !tile.view<?x?xbf16> -> tensor<128x32xbf16>
      ...
      scf.yield %next : tensor<128x32xbf16>
    }
    ```
  }];
  let options = [
    Option<"maxBytesPerThread", "max-bytes-per-thread", "int64_t",
           /*default=*/"64",
           "Most bytes of look-ahead tiles per GPU thread a loop may carry">,
    Option<"dotOperandsInSharedMemory", "dot-operands-in-shared-memory",
           "bool", /*default=*/"false",
           "Look-ahead tiles used only as a dot operand (zero padding; "
           "through reshapes dropping unit dimensions and transposes) do "
           "not count against the budget: the GPU backend keeps them in "
           "shared memory">,
    Option<"sharedMemoryStages", "shared-memory-stages", "int64_t",
           /*default=*/"0",
           "With dot-operands-in-shared-memory: buffers per such tile, i.e. "
           "it is loaded this many iterations less one ahead; 0 chooses per "
           "loop: 3 for a loop with one dot whose rings fit 160 KiB, else 2">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TileStripDebugPass : Pass<"tile-strip-debug"> {
  let summary = "Erase tile.print and tile.assert from functions not built for debugging";
  let description = [{
    Debug output is compiled out unless asked for: in every function without
    `tile.debug = 1` (`tilegym-cc --debug`, `tilegym-run --debug`), each
    `tile.print` and `tile.assert` is erased, so that a kernel with them
    costs nothing in a release build and its other ops are scheduled as if
    they were not there. Both pipelines, CPU and GPU, run it first. The
    values they read stay for canonicalization to remove.

    ```mlir
    func.func @k(%x: tensor<64xf32>) attributes {tile.kernel} {
      tile.print "x" : %x : tensor<64xf32>
      ...
    }
    ```
    becomes the same function without the print; with
    `attributes {tile.kernel, tile.debug = 1 : i64}` it is left as it is.
  }];
}

#endif // TILEGYM_DIALECT_TILE_TRANSFORMS_PASSES
