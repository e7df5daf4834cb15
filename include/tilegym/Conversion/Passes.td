//===- Passes.td - TileGym conversion passes ---------------*- tablegen -*-===//
#ifndef TILEGYM_CONVERSION_PASSES
#define TILEGYM_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTileToLinalgPass
    : Pass<"convert-tile-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the tile dialect to linalg, tensor, memref and bufferization";
  let description = [{
    The CPU backend's first step. Views become memrefs with dynamic strides
    and offset (`!tile.view<?x128xf32>` becomes
    `memref<?x128xf32, strided<[?, ?], offset: ?>>`) in every function
    signature. Each kernel (a `func.func` with `tile.kernel`) gets six
    trailing `index` arguments, the block id along x, y, z then the grid size
    along x, y, z, which replace `tile.block_id` and `tile.num_blocks`; the
    kernel is marked `tile.grid_args` once they are appended.

    Tiles stay value-semantic tensors:
    - `tile.load` fills a tile with the padding value and copies the
      in-bounds window of the view (a `memref.subview` seen through
      `bufferization.to_tensor restrict`) into it with `linalg.copy`;
    - `tile.store` copies the in-bounds part of the tile into the window of
      the view (`bufferization.to_buffer read_only` + `linalg.copy`);
    - `tile.gather`/`tile.scatter` become `scf.for` nests that check bounds
      and mask before each `memref.load`/`memref.store`;
    - `tile.splat`, `tile.iota`, `tile.broadcast`, `tile.permute`,
      `tile.reduce` and `tile.dot` become `linalg` ops; `tile.reshape`
      becomes `tensor.collapse_shape`/`tensor.expand_shape`.

    Windows are clamped to the view, so tiles partly or wholly outside it
    never address memory outside it. The output bufferizes with
    `one-shot-bufferize` and needs no runtime library for copies.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // TILEGYM_CONVERSION_PASSES
