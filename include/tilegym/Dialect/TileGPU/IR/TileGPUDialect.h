//===- TileGPUDialect.h - tilegpu dialect -----------------------*- C++ -*-===//
#ifndef TILEGYM_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
#define TILEGYM_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

namespace tilegym::tilegpu {
/// One basis per index bit: what that bit adds to each coordinate.
using Basis = llvm::SmallVector<int64_t>;
/// A distributed layout's bases (see `#tilegpu.linear`).
struct LinearBases {
  int64_t rank = 0;
  llvm::SmallVector<Basis> reg, lane, warp;
};
/// A warp's lanes: 2^5, one lane basis each bit.
constexpr int64_t kLaneBits = 5;
constexpr int64_t kWarpSize = int64_t(1) << kLaneBits;
/// A thread holds at most 256 elements of a tile, the register file of one
/// thread (255 registers of 32 bits): 2^8. A tile past it does not fit.
constexpr int64_t kMaxRegisterBits = 8;
constexpr int64_t kMaxTileElementsPerThread = int64_t(1) << kMaxRegisterBits;
/// No layout size or basis entry goes past a tile's largest dimension
/// (tile::kMaxTileElements, 2^20).
constexpr int64_t kMaxLayoutSize = int64_t(1) << 20;
} // namespace tilegym::tilegpu

#include "tilegym/Dialect/TileGPU/IR/TileGPUAttrInterfaces.h.inc"
#include "tilegym/Dialect/TileGPU/IR/TileGPUEnums.h.inc"
#include "tilegym/Dialect/TileGPU/IR/TileGPUOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUOps.h.inc"

namespace tilegym::tilegpu {
/// Bytes an element occupies in memory (i1 takes a byte).
inline int64_t elementBytes(mlir::Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// The elements `bases` cover along each dimension: twice the largest entry
/// of any basis there, at least 1.
llvm::SmallVector<int64_t> getCoverage(const LinearBases &bases);

/// The bases of the registers a thread holds of a tile of `shape`: the
/// register bases, then a repetition of the covered box for each dimension
/// the bases do not cover (the last dimension first). Register i holds the
/// element the bases of i's set bits add up to.
llvm::SmallVector<Basis> getRegisterBits(const LinearBases &bases,
                                         llvm::ArrayRef<int64_t> shape);

/// How many of a thread's registers, from every multiple of that number,
/// hold consecutive elements along the last dimension of a tile of `shape`
/// (`bits` from getRegisterBits): the vector width of its memory accesses.
int64_t getContiguousWidth(llvm::ArrayRef<Basis> bits,
                           llvm::ArrayRef<int64_t> shape);

/// Whether a thread holds a tile of `type` (by the layout in its encoding)
/// in runs of at least 16 contiguous bytes along the last dimension, the
/// size of one cp.async; false without a layout.
bool holdsSixteenByteRuns(mlir::RankedTensorType type);

/// Elements from one row of a dot operand staged for ldmatrix to the next:
/// the row padded to an odd number of 16-byte units, so that the 8 rows one
/// ldmatrix phase reads fall into 8 distinct bank groups.
int64_t getPaddedRowElements(int64_t cols, int64_t bytes);

/// Whether an mma.sync dot's lhs of `lhsType` is its own A fragments: a
/// 16-bit tile in the accumulator's mma layout `accLayout` with all warps
/// along M, which each thread holds as mma.sync reads it (no trip through
/// shared memory).
bool isLhsItsOwnFragments(mlir::RankedTensorType lhsType,
                          mlir::Attribute accLayout);

/// The layout of a tile of `fromShape` in `layout` reshaped (row-major) to
/// `toShape` in which every element stays in the register, lane and warp
/// that holds it, so that the reshape moves no data. Null when there is
/// none: a 0-d result, or a layout whose bases do not each name a distinct
/// bit of the row-major index.
LinearLayoutAttr getReshapedLayout(DistributedLayoutAttr layout,
                                   llvm::ArrayRef<int64_t> fromShape,
                                   llvm::ArrayRef<int64_t> toShape);

/// The same for a permutation (result dimension j is source dimension
/// `permutation[j]`): the bases permuted.
LinearLayoutAttr getPermutedLayout(DistributedLayoutAttr layout,
                                   llvm::ArrayRef<int64_t> fromShape,
                                   llvm::ArrayRef<int64_t> permutation);

/// The accumulator layout of a tf32 dot that wgmma runs on its transpose
/// (D^T = B^T A^T: the [K][N] rhs, N-major, is wgmma's A read from shared
/// memory into registers, and the K-major lhs its B), in a kernel of
/// `numWarps` warps (whole warpgroups): wgmma's accumulator of the [N][M]
/// tile with rows and columns swapped, warps along N, and within each
/// warpgroup's 64 rows of N a bit order under which the fragment loads of
/// the rhs meet no bank conflict.
LinearLayoutAttr getSwappedWgmmaLayout(mlir::MLIRContext *ctx,
                                       int64_t numWarps);
/// Whether `layout` is that layout (for its warps).
bool isSwappedWgmmaLayout(mlir::Attribute layout);

/// Whether wgmma can compute an M x N x K tf32 product on its transpose
/// (C^T = B^T A^T) with `warpgroups` warpgroups: N is wgmma's M, 64 rows a
/// warpgroup; M is its N, a multiple of 8 up to 256; K a multiple of 8
/// (tf32's k). What the instruction allows; which dots take it is
/// tilegpu-accelerate-dots' choice (fitsSwappedWgmmaShape).
inline bool isSwappedWgmmaShape(int64_t M, int64_t N, int64_t K,
                                int64_t warpgroups) {
  return warpgroups > 0 && N % (64 * warpgroups) == 0 && M % 8 == 0 &&
         M <= 256 && K % 8 == 0;
}

/// Whether two tiles of one shape place every element in the same register
/// of the same lane and warp, whatever their layout attributes: a
/// conversion between them moves no data.
bool haveSamePlacement(mlir::RankedTensorType a, mlir::RankedTensorType b);

/// The discardable attributes tilegpu-accelerate-dots sets: a tile.dot's
/// instruction (DotInstructionAttr) and a staged tile.load's stage
/// (SharedStageAttr).
constexpr llvm::StringLiteral kDotAttr = "tilegpu.dot";
constexpr llvm::StringLiteral kStageAttr = "tilegpu.stage";
/// What tilegpu-assign-tma sets: on a kernel, the tensor maps it takes after
/// its parameters (an array of TensorMapAttr); on a staged tile.load, the
/// position in that list of the map that copies it (i64).
constexpr llvm::StringLiteral kTensorMapsAttr = "tilegpu.tensor_maps";
constexpr llvm::StringLiteral kTmaAttr = "tilegpu.tma";
/// The TMA's limits on a tensor map (cuTensorMapEncodeTiled): dimensions,
/// and elements of a box along each.
constexpr int64_t kMaxTensorMapRank = 5, kMaxTensorMapBox = 256;
/// The box a tensor map moves tiles of `type` in: the tile with its rows
/// cut to 128 bytes, one column block of the 128-byte swizzle.
inline llvm::SmallVector<int64_t> getTensorMapBox(mlir::RankedTensorType type) {
  llvm::SmallVector<int64_t> box(type.getShape());
  box.back() = 128 / elementBytes(type.getElementType());
  return box;
}
/// On a lowered kernel (gpu.func, then llvm.func), the positions of its
/// tensor-map parameters (i32 array), which tilegym-mark-tensor-map-params
/// makes byval __grid_constant__ parameters of 128 bytes.
constexpr llvm::StringLiteral kTensorMapParamsAttr =
    "tilegpu.tensor_map_params";
/// The kernel's tensor maps (empty without any).
llvm::SmallVector<TensorMapAttr> getTensorMaps(mlir::Operation *kernel);

/// Registers a thread has at a kernel's entry, as ptxas allocates them under
/// .maxntid `threads` and .minnctapersm `blocks`: the 64K register file over
/// the blocks' warps, counted in pairs (ptxas gave 9 warps at 2 blocks 96
/// registers, as 10), in groups of 8, at most 255. setmaxnreg moves
/// registers within that.
inline int64_t getEntryRegisters(int64_t threads, int64_t blocks) {
  int64_t warps = (threads + 2 * kWarpSize - 1) / (2 * kWarpSize) * 2;
  return std::min<int64_t>(248, 65536 / (blocks * warps * kWarpSize) / 8 * 8);
}

/// On a kernel tilegpu-warp-specialize split (i64): the warps it added,
/// after the kernel's tile.num_warps, to run the producer; the block has
/// both (the bundle's manifest says so).
constexpr llvm::StringLiteral kProducerWarpsAttr = "tilegpu.producer_warps";
/// On a kernel tilegpu-persistent made persistent (i64): the blocks per SM
/// a launch runs at once, each running tile after tile of the grid; the
/// launch starts min(tiles, SMs x this) blocks along x (the bundle's
/// manifest says so).
constexpr llvm::StringLiteral kPersistentAttr = "tilegpu.persistent";
/// On a kernel tilegpu-multicast paired (i64): the blocks of a cluster,
/// along the grid's y (a persistent launch's x), where the launch's grid
/// has a multiple of them there (the bundle's manifest says so).
constexpr llvm::StringLiteral kClusterAttr = "tilegpu.cluster";
/// The blocks of a cluster tilegpu-multicast makes.
constexpr int64_t kClusterBlocks = 2;
/// On the branches the lowering of a tilegpu.warp_specialize builds:
/// "producer" or "consumer", the warps that run it.
constexpr llvm::StringLiteral kWarpRoleAttr = "tilegpu.warp_role";

/// On a kernel, a bool: whether its copies into shared memory chain their
/// run addresses (`tilegpu.async_copy`'s `chained`, as `tilegpu-pipeline`
/// makes them); set by tilegym::chooseCopyAddresses.
constexpr llvm::StringLiteral kChainCopyAddressesAttr =
    "tilegpu.chain_copy_addresses";
/// What tilegpu-allocate-shared-memory sets: an op's bytes in the kernel's
/// shared-memory buffer (SharedAllocationAttr), and on the kernel the
/// buffer's size (an i64).
constexpr llvm::StringLiteral kSharedAttr = "tilegpu.shared";
constexpr llvm::StringLiteral kSharedMemoryAttr = "tilegpu.shared_memory";

/// The compute capability of `chip` (sm_<N> or sm_<N>a), if it is one.
std::optional<unsigned> parseChipVersion(llvm::StringRef chip);

/// A GPU kernel the tilegpu passes work on (a `func.func` with `tile.kernel`
/// and a body), after checking their `chip` option: an invalid chip is an
/// error on the kernel and `failure`; not a kernel is `false`.
mlir::FailureOr<bool> isGpuKernelFor(mlir::Operation *func,
                                     llvm::StringRef chip);

/// The distributed layout of a tile, null when its type has none.
inline DistributedLayoutAttr getLayout(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor ? llvm::dyn_cast_or_null<DistributedLayoutAttr>(
                      tensor.getEncoding())
                : DistributedLayoutAttr();
}
/// `type` with `layout` as its encoding.
inline mlir::RankedTensorType withLayout(mlir::RankedTensorType type,
                                         mlir::Attribute layout) {
  return mlir::RankedTensorType::get(type.getShape(), type.getElementType(),
                                     layout);
}
} // namespace tilegym::tilegpu

#endif
