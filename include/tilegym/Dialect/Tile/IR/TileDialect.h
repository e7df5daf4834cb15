//===- TileDialect.h - tile dialect -----------------------------*- C++ -*-===//
#ifndef TILEGYM_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEGYM_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilegym/Dialect/Tile/IR/TileEnums.h.inc"
#include "tilegym/Dialect/Tile/IR/TileOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilegym/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "tilegym/Dialect/Tile/IR/TileOps.h.inc"

namespace tilegym::tile {
/// Attribute names the frontend puts on kernel functions.
constexpr llvm::StringLiteral kKernelAttr = "tile.kernel";
constexpr llvm::StringLiteral kGridFnAttr = "tile.grid";
constexpr llvm::StringLiteral kNumWarpsAttr = "tile.num_warps";
/// Optional (tilegym-cc --min-blocks-per-sm): the blocks per SM ptxas must
/// fit; 0 asks nothing. Without it the GPU backend decides.
constexpr llvm::StringLiteral kMinBlocksPerSMAttr = "tile.min_blocks_per_sm";
/// Optional (tilegym-cc --pipeline-bytes): tile-pipeline-loads' budget of
/// look-ahead bytes per thread for this kernel's loops; 0 turns it off.
constexpr llvm::StringLiteral kPipelineBytesAttr = "tile.pipeline_bytes";
/// Optional (`stages(N)` in the source, tilegym-cc --pipeline-stages): shared
/// memory buffers per dot operand loaded ahead, for this kernel's loops,
/// from kMinPipelineStages to kMaxPipelineStages.
constexpr llvm::StringLiteral kPipelineStagesAttr = "tile.pipeline_stages";
constexpr int64_t kMinPipelineStages = 2, kMaxPipelineStages = 4;
/// Optional (tilegym-cc and tilegym-run --precise-math): 1 lowers f32 exp
/// and exp2 on the GPU to libdevice's (range-reduced, within 2 ulp) and
/// division to div.rn (IEEE), instead of the SFU's ex2.approx and div.full;
/// 0 or absent keeps the fast ones.
constexpr llvm::StringLiteral kPreciseMathAttr = "tile.precise_math";
/// Optional (tilegym-cc and tilegym-run --debug): 1 keeps the kernel's
/// tile.print and tile.assert; 0 or absent lets tile-strip-debug erase them.
constexpr llvm::StringLiteral kDebugAttr = "tile.debug";
/// Optional (tilegym-cc and tilegym-run --no-tma): 0 copies this kernel's
/// staged dot operands with cp.async only (tilegpu-assign-tma chooses
/// none); 1 or absent lets the TMA copy them where it can.
constexpr llvm::StringLiteral kUseTmaAttr = "tile.tma";
/// Optional (`specialize(E)` in the source): 1 asks tilegpu-warp-specialize
/// to give this kernel producer warps that issue the TMA's copies; 0 or
/// absent keeps every warp on the whole body.
constexpr llvm::StringLiteral kSpecializeAttr = "tile.specialize";
/// Optional (`persistent(E)` in the source): 1 asks tilegpu-persistent for
/// a persistent kernel, whose blocks (as many as the GPU runs at once) each
/// run tile after tile of the grid; 2 also asks tilegpu-stream-k to cut the
/// last waves' tiles along K between the blocks; 0 or absent: one block per
/// tile.
constexpr llvm::StringLiteral kPersistentAttr = "tile.persistent";
/// Optional (`cluster(E)` in the source): 2 asks tilegpu-multicast to pair
/// a warp-specialized kernel's blocks along the grid's y into clusters that
/// share the tiles both load (the TMA's multicast); 1 or absent: none.
constexpr llvm::StringLiteral kClusterAttr = "tile.cluster";
/// Optional (`overlap(E)` in the source): 1 asks tilegpu-overlap-dots to
/// issue a warp-specialized loop's last dot in the next iteration, under the
/// work on its first dot's result (FlashAttention-3's intra-warpgroup
/// overlap); 2 as 1, and tilegpu-ping-pong makes the consumer warpgroups
/// take turns issuing their dots (FA3's ping-pong); 0 or absent: each
/// iteration waits for its own dots.
constexpr llvm::StringLiteral kOverlapAttr = "tile.overlap";

/// The most elements a tile may hold (2^20, Triton's limit too): a tile is
/// one block's working set, in registers on the GPU; past this, compiling
/// and running it would take unbounded time and memory.
constexpr int64_t kMaxTileElements = int64_t(1) << 20;
/// The highest rank of a tile or a view (the runtime's TG_MAX_RANK).
constexpr int64_t kMaxRank = 8;

/// Whether `type` is an element type of tiles and views: f64, f32, f16, bf16,
/// the fp8 types f8E4M3FN and f8E5M2, or the signless integers i64, i32, i8
/// and i1.
bool isElementType(mlir::Type type);
/// Whether `type` is one of the fp8 types (f8E4M3FN, f8E5M2).
bool isFP8(mlir::Type type);

/// Checks `shape` against those limits, each size positive; on failure
/// returns false and sets `message` ("tile of 2097152 elements exceeds ...").
bool checkTileShape(llvm::ArrayRef<int64_t> shape, std::string &message);
/// On a lowered gpu.func: the dynamic shared memory per block its launch
/// must ask for (async dot operand stages).
constexpr llvm::StringLiteral kDynamicSharedBytesAttr =
    "tile.dynamic_shared_bytes";
/// Module attribute: the file-level consts a module was compiled with.
constexpr llvm::StringLiteral kConstsAttr = "tile.consts";
/// Module attribute: the source's tuning space (`tune NAME in [...]`), a
/// dictionary from each tuned const to the array of its alternatives, as
/// strings -D takes.
constexpr llvm::StringLiteral kTuneSpaceAttr = "tile.tune";
/// Module attribute: the programs of the source (`program NAME = a, b;`), a
/// dictionary from each program's name to the array of its kernels' symbols,
/// run in that order; parameters of one name across them are one argument.
constexpr llvm::StringLiteral kProgramsAttr = "tile.programs";
/// On a kernel's view argument: an array of strings, one per dimension, the
/// name the source gave it ("" for none). Dimensions sharing a name must
/// have equal sizes at launch (checked by the runtime, not by the kernel).
constexpr llvm::StringLiteral kDimNamesAttr = "tile.dims";
/// On a kernel: an array of strings, each parameter's name in the source,
/// for launch errors, bundles and the command line (`--shape x=...`).
constexpr llvm::StringLiteral kParamNamesAttr = "tile.param_names";
/// On a kernel's scalar argument: a typed attribute, the value a launch
/// binds when it gives none (`eps: f32 = 1e-5`).
constexpr llvm::StringLiteral kDefaultAttr = "tile.default";

/// Verifies one entry of kProgramsAttr: `kernels` is a non-empty array of
/// symbols of kernels in `module`, `name` is an identifier no symbol has, and
/// parameters of one name across the kernels have one type and agree in the
/// names of their dimensions. Errors go through `emitError`.
mlir::LogicalResult
verifyProgram(mlir::Operation *module, llvm::StringRef name,
              mlir::Attribute kernels,
              llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// How a kernel uses a view argument: read by load/gather, written by
/// store/scatter. An argument both read and written is updated in place;
/// one neither read nor written only gives sizes.
struct ViewAccess {
  bool read = false;
  bool written = false;
};
ViewAccess getViewAccess(mlir::BlockArgument view);
} // namespace tilegym::tile

#endif
