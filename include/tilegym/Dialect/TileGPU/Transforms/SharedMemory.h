//===- SharedMemory.h - what each op of a GPU kernel stages -----*- C++ -*-===//
//
// The shared memory the ops of a GPU kernel need, as
// tilegpu-allocate-shared-memory places it and convert-tile-to-gpu uses it:
// one rule per kind of user, shared by both so that the bytes placed are
// the bytes used.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_DIALECT_TILEGPU_TRANSFORMS_SHAREDMEMORY_H
#define TILEGYM_DIALECT_TILEGPU_TRANSFORMS_SHAREDMEMORY_H

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

namespace tilegym::tilegpu {

/// The most shared memory a block of compute capability `version` may have,
/// static and dynamic together, with the driver's opt-in (CUDA programming
/// guide, "Technical Specifications per Compute Capability").
int64_t getMaxSharedBytesPerBlock(unsigned version);

/// A block may have 48 KiB of static shared memory; more is dynamic, which
/// the launch opts in to.
constexpr int64_t kStaticSharedBytesLimit = 48 * 1024;

/// What a block's shared memory keeps beside its rings, at least: the
/// mbarriers and the slack of placing buffers on their alignments.
constexpr int64_t kStagingReserveBytes = 3 * 1024;

/// The shared memory tilegpu-accelerate-dots may stage dot operands in on
/// compute capability `version`, before what the kernel's loops keep live
/// beside the rings (their scratch): the block's maximum less
/// kStagingReserveBytes. 160 KiB on sm_80, 224 KiB on sm_90 (where Q and
/// three stages of K and V of a 128x128 attention tile at D = 128 fit).
inline int64_t getStagingBudget(unsigned version) {
  return getMaxSharedBytesPerBlock(version) - kStagingReserveBytes;
}

/// `shared-memory-budget`'s default: getStagingBudget of the pass's chip,
/// less the scratch of the ops in the kernel's loops.
constexpr int64_t kChipStagingBudget = -1;

/// The 128-byte swizzle repeats every 8 rows of 128 bytes: a wgmma operand
/// stage starts on such a boundary.
constexpr int64_t kSwizzleAtomBytes = 1024;

/// Whether a stored tile of `rows` x `cols` elements of `elementBytes` each
/// fits the 128-byte swizzle: whole rows of 128 bytes, whole groups of 8
/// rows.
inline bool fitsSwizzle128(int64_t rows, int64_t cols, int64_t elementBytes) {
  return (cols * elementBytes) % 128 == 0 && rows % 8 == 0;
}

/// Whether an M x N x K dot has the shapes wgmma takes in a kernel of
/// `numWarps` warps: whole warpgroups, M a multiple of 64 per warpgroup, N
/// a multiple of 8 up to 256, and each warpgroup's share at least a
/// 64x64x64 product (smaller ones measured faster on mma.sync).
inline bool fitsWgmmaShape(int64_t M, int64_t N, int64_t K, int64_t numWarps) {
  int64_t groups = numWarps / 4;
  return numWarps % 4 == 0 && M % (64 * groups) == 0 && N % 8 == 0 &&
         N <= 256 && M / groups * N * K >= 64 * 64 * 64;
}

/// Whether a tf32 M x N x K dot has the shapes wgmma takes on its
/// transpose (getSwappedWgmmaLayout): N as wgmma's M, M as its N, and K a
/// multiple of 32, for the lhs's rows of 128 bytes under the swizzle.
inline bool fitsSwappedWgmmaShape(int64_t M, int64_t N, int64_t K,
                                  int64_t numWarps) {
  return fitsWgmmaShape(N, M, K, numWarps) && K % 32 == 0;
}

/// Why the operands of fp8 `dot` keep it from wgmma, empty when they do not:
/// wgmma reads fp8 only K-major from 128-byte-swizzled rows, so K must be a
/// multiple of 128, A read as stored [M][K] and B stored [N][K] and read
/// through a transpose, each by this dot alone (cp.async copies no single
/// byte transposed).
std::string whyNotFP8WgmmaOperands(tile::DotOp dot);

/// Whether moving a tile of type `from` to `to` (a reshape, a permutation
/// when `permutation` is given, a reduction dropping its axis, a
/// convert_layout) leaves every element in the register, lane and warp that
/// holds it: a renaming of registers, no shared memory.
bool movesNoData(mlir::RankedTensorType from, mlir::RankedTensorType to,
                 llvm::ArrayRef<int64_t> permutation = {});

/// One stage's bytes of a staged dot operand of `type` (its last two
/// dimensions): rows padded for ldmatrix (getPaddedRowElements), or
/// unpadded under the 128-byte swizzle.
int64_t getStageBytes(mlir::RankedTensorType type, bool swizzled);
/// The same for a stored tile of `rows` x `cols` elements of
/// `elementBytes` each.
int64_t getStageBytes(int64_t rows, int64_t cols, int64_t elementBytes,
                      bool swizzled);

/// The shared memory an mma.sync dot of `M` x `N` x `K` on operands of
/// `elementBytes` takes for those it reads from registers (`lhs`, `rhs`;
/// an lhs that is its own A fragments is not one): each goes through
/// shared memory for ldmatrix, rows padded, at every run of the dot.
int64_t getMmaSyncOperandBytes(int64_t M, int64_t N, int64_t K,
                               int64_t elementBytes, bool lhs, bool rhs);

/// The bytes of a tile (or ring of tiles) in shared memory: each stage's
/// stored rows padded for ldmatrix, or unpadded under the 128-byte swizzle.
int64_t getSharedTileBytes(MemDescType type);

/// How a scan along `axis` of a tile of `type` runs on `threads` threads
/// (Scan.cpp): `lines` lines of `length` elements, consecutive elements of a
/// line `inner` apart row-major, each line cut into `segments`; `bytes` of
/// shared memory for the tile and the segments' totals, 32-bit each.
struct ScanGeometry {
  int64_t lines, length, inner, segments, bytes;
};
ScanGeometry getScanGeometry(mlir::RankedTensorType type, int64_t axis,
                             int64_t threads);

/// What an op of a GPU kernel needs of shared memory while it runs.
struct Scratch {
  int64_t bytes = 0;
  /// Whether it writes without a barrier before: it may overwrite what
  /// other warps still read, so it must not share bytes with a buffer used
  /// before it.
  bool writesWithoutBarrier = false;
  /// Bytes its offset is a multiple of: 1024 for a 128-byte-swizzled tile
  /// (the swizzle takes its row from address bits 7-9).
  int64_t alignment = 16;
  /// What it is for, for remarks and errors.
  const char *what = "";
};

/// The scratch `op` needs at `numWarps` warps: a conversion that moves data
/// (convert_layout, a reshape or permute not renaming registers), a
/// reduction across warps, an mma.sync dot's operands staged from
/// registers, an atomic's old values where used, a scan, a sort. Nothing
/// (bytes 0) for every other op; tilegpu.local_alloc has its bytes for as
/// long as its tile is used, not as scratch.
Scratch getScratch(mlir::Operation *op, int64_t numWarps);

/// Shared memory `kernel` needs as a persistent kernel, whose epilogue no
/// longer reuses the rings' bytes (the producer fills them for the next
/// tile meanwhile): every allocation and mbarrier array, each on its own
/// 1 KiB, and the largest scratch (on the kernel's tile.num_warps warps).
/// tilegpu-persistent refuses a kernel where this exceeds the block's
/// shared memory.
int64_t getPersistentSharedBytes(mlir::Operation *kernel);

} // namespace tilegym::tilegpu

#endif
