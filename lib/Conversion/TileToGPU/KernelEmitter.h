//===- KernelEmitter.h - the TileToGPU kernel emitter -----------*- C++ -*-===//
//
// The state and helpers shared by the files of the TileToGPU conversion:
// the layouts of tiles as the lowering uses them, and the emitter that holds
// one kernel's lowering state (its layouts, thread ids, views and shared
// buffer) and emits each op. The ops are lowered by MLIR's dialect
// conversion, one pattern per op family, each file exposing its
// populate...Patterns: Elementwise.cpp, Memory.cpp, Atomics.cpp, Debug.cpp,
// SharedTiles.cpp, Reduce.cpp (reductions and layout conversions), Dot.cpp,
// Partials.cpp (stream-K's partial accumulators), ControlFlow.cpp; Tma.cpp
// holds the TMA's copies and stores, which Memory.cpp and SharedTiles.cpp call;
// WarpSpecialize.cpp splits a tilegpu.warp_specialize into its branches before
// the conversion and names the consumers' barriers after it. TileToGPU.cpp
// builds each kernel's gpu.func and runs the conversion; Layouts.cpp reads the
// layouts; ThreadTypes.cpp is the type converter.
//
// Layouts come from the tiles' types (tilegpu's #blocked, #mma, #linear) as
// their linear bases (Triton's linear layouts restricted to power-of-two
// bases): each bit of a thread's register index, lane id and warp id adds a
// fixed power of two to the coordinates, and a coordinate is the sum of what
// its set bits add, modulo the tile's size along that dimension. Blocked
// layouts serve memory access and elementwise work (each thread moves 16
// contiguous bytes); the mma layout is the accumulator of mma.sync m16n8 and
// of wgmma: a lane holds 2 columns of rows lane/4 and lane/4 + 8 of a 16x8
// tile, warps split N first, then M.
// Registers beyond a layout's base bits repeat it over the tile. A tile
// dimension smaller than what the bits cover wraps around: its elements are
// replicated over threads and registers, which is what makes a [R, 1] tile
// broadcast against a [R, C] one for free. Tile sizes are powers of two.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H
#define TILEGYM_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H

#include "ThreadTypes.h"

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilegym/Dialect/TileGPU/Transforms/SharedMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#include <deque>
#include <map>
#include <optional>

// Shared by several .cpp files, hence a named namespace rather than an
// anonymous one (a tilegym::gpu would clash with mlir::gpu).
namespace tilegym::detail {

using namespace mlir;
using namespace tilegym::tile;

using tilegpu::Basis; // what one index bit adds, per dim
using tilegpu::elementBytes;
using tilegpu::kMaxTileElementsPerThread;
using tilegpu::kWarpSize;
constexpr unsigned kGlobal = 1, kShared = 3;

using tilegpu::kStaticSharedBytesLimit;
using tilegpu::kSwizzleAtomBytes;

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

/// A layout family: the bases of a thread's lane and warp bits and of its
/// base register bits (from the tile type's layout attribute); tiles of a
/// given shape add repetition bits.
struct Layout : tilegpu::LinearBases {
  /// Elements covered by all bits along each dimension.
  SmallVector<int64_t> coverage;
  /// mma only: warps along M and N.
  int64_t warpsM = 1, warpsN = 1;
  bool mma = false;
};

/// The registers a thread holds of a tile of `shape` in `layout`: the
/// family's base register bits, then repetition bits for each dimension the
/// family does not cover (the last dimension first).
struct RegMap {
  const Layout *layout;
  SmallVector<int64_t> shape;
  SmallVector<Basis> bits;
  int64_t count;

  RegMap(const Layout &l, ArrayRef<int64_t> s)
      : layout(&l), shape(s), bits(tilegpu::getRegisterBits(l, s)),
        count(int64_t(1) << bits.size()) {}
  /// What a bit adds along `d` once wrapped to the tile: 0 for a bit that
  /// only replicates.
  int64_t wrapped(const Basis &bb, int64_t d) const {
    return bb[d] < shape[d] ? bb[d] : 0;
  }
  /// Static part of the coordinates of register `i`.
  SmallVector<int64_t> offsets(int64_t i) const {
    SmallVector<int64_t> off(shape.size(), 0);
    for (auto [j, bb] : llvm::enumerate(bits))
      if (i >> j & 1)
        for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
          off[d] += wrapped(bb, d);
    return off;
  }
  bool wraps(int64_t d) const { return shape[d] < layout->coverage[d]; }
  /// Whether a bit only replicates: it moves by the tile's size or more
  /// along every dimension, so it names no new element.
  bool replicates(const Basis &bb) const {
    for (int64_t d = 0; d < (int64_t)shape.size(); ++d)
      if (wrapped(bb, d))
        return false;
    return true;
  }
  /// Whether register `i` repeats one of the thread's lower registers (one
  /// of its set bits only replicates).
  bool isRegisterReplica(int64_t i) const {
    for (auto [j, bb] : llvm::enumerate(bits))
      if ((i >> j & 1) && replicates(bb))
        return true;
    return false;
  }
  /// Registers contiguous along the last dimension, from every multiple of
  /// the width: the vector width of memory accesses.
  int64_t vectorWidth() const {
    return tilegpu::getContiguousWidth(bits, shape);
  }
};

//===----------------------------------------------------------------------===//
// Kernel emitter
//===----------------------------------------------------------------------===//

/// What the emitter needs to know of the chip.
struct GpuTarget {
  std::string chip;   // sm_80, sm_90a, ...
  bool wgmma;         // warpgroup MMA (sm_90a)
  bool hopperOrLater; // sm_90 and later: cp.async.bulk.prefetch.L2,
                      // fence.proxy.async
  /// The most shared memory one block may have, static and dynamic
  /// together (the driver's opt-in limit).
  int64_t sharedBytesPerBlock;
};

struct ViewInfo {
  Value base;                        // !llvm.ptr<1> at the view's first element
  SmallVector<Value> sizes, strides; // index
  Type elementType;
  /// Per vector width w (elements), computed once per kernel:
  struct VectorAccess {
    Value ok;      // aligned w-vectors at offsets that are multiples of w,
                   // and a last dimension of at least w (i1)
    Value lastMax; // size of the last dimension - w: the last start in bounds
  };
  llvm::SmallDenseMap<int64_t, VectorAccess> vector;
};

/// The element offset of `coords` in `view`.
Value linearOffset(OpBuilder &b, Location loc, const ViewInfo &view,
                   ArrayRef<Value> coords);
/// The same of constant coordinates (a distance between two runs): null
/// when every one is 0, no term for a 0.
Value linearOffset(OpBuilder &b, Location loc, const ViewInfo &view,
                   ArrayRef<int64_t> offsets);

/// How a tile lies in shared memory: `stride` elements from one row to the
/// next (padded rows), or, when `swizzledRows` is set, column blocks of 128
/// bytes of that many rows with the 128-byte swizzle.
struct SharedGeometry {
  int64_t stride = 0;
  int64_t swizzledRows = 0;
};

/// How a tile of `type` (one stage of it) lies in shared memory.
SharedGeometry geometryOf(tilegpu::MemDescType type);

class KernelEmitter {
public:
  /// `wgmma`: the target has warpgroup MMA (sm_90a); `hopperOrLater`: it has
  /// cp.async.bulk.prefetch.L2 and the async-proxy fence (sm_90 and later).
  /// `remarks`: say what was chosen (dot paths, stages, shared memory).
  KernelEmitter(func::FuncOp kernel, gpu::GPUModuleOp gpuModule,
                const GpuTarget &target, bool remarks)
      : kernel(kernel), gpuModule(gpuModule), b(kernel.getContext()),
        target(target), remarks(remarks), threadTypes(kernel.getContext()) {}

  /// Builds the kernel's gpu.func and lowers its body into it.
  LogicalResult emit();

  /// Lowers `op`, whose operands are `operands` once converted (the
  /// adaptor's), by `emitOp`, which reads the operands' thread values and
  /// records the results' (`tiles`, `scalars`, `sharedTiles`); then replaces
  /// the op by them. A loaded tile is unpacked where it is first used
  /// (unpackLoad). After an error, this and every later op is replaced by
  /// placeholders, so that the conversion reports nothing more.
  LogicalResult lower(Operation *op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter,
                      function_ref<LogicalResult()> emitOp);
  const ThreadTypeConverter &typeConverter() const { return threadTypes; }
  MLIRContext *getContext() { return kernel.getContext(); }

  /// Builds the gpu.func, its signature and its per-kernel values; maps the
  /// kernel's arguments to them in `kernelValues` (a view to a stand-in
  /// listed in `viewStandIns`).
  LogicalResult emitEntry(gpu::GPUFuncOp &func, IRMapping &kernelValues,
                          SmallVector<Operation *> &viewStandIns);

  func::FuncOp kernel;
  gpu::GPUModuleOp gpuModule;
  /// The gpu.func being lowered into.
  Operation *kernelFunc = nullptr;
  OpBuilder b;
  const GpuTarget &target;
  bool remarks;
  /// What each value is to one thread: a tile its registers, a view its
  /// descriptor's fields.
  ThreadTypeConverter threadTypes;
  int64_t numWarps = 4;
  /// Every tile value's layout, read from its type's encoding; values of one
  /// layout attribute share one.
  std::deque<Layout> layouts;
  DenseMap<Value, const Layout *> layoutOfValue;
  std::map<const Layout *, SmallVector<Value>> bases;
  Value threadId, laneId, warpId;
  IRMapping scalars;
  DenseMap<Value, SmallVector<Value>> tiles;
  /// `to` names the registers of `from`. (Not `tiles[to] = tiles[from]`:
  /// inserting `to` may move the entry read.)
  void sameRegisters(Value to, Value from) {
    SmallVector<Value> regs = tiles.lookup(from);
    tiles[to] = std::move(regs);
  }
  /// The registers each wgmma dot reads as its A fragments (a lhs in
  /// registers), by the dot's result: the tensor cores read them until the
  /// group completes, so the wait that retires it reads them too, which
  /// keeps LLVM from reusing them for values computed in between (ptxas
  /// would serialize every wgmma of the kernel to be safe).
  DenseMap<Value, SmallVector<Value>> wgmmaRegisterOperands;
  /// Tiles in shared memory (tilegpu.memdesc values): where each starts.
  DenseMap<Value, Value> sharedTiles;
  /// And its offset in bytes into the kernel's buffer (index).
  DenseMap<Value, Value> sharedOffsets;
  /// The layout each tilegpu.async_copy spreads its copy over the threads by.
  DenseMap<Operation *, const Layout *> copyLayouts;
  /// Loaded tiles not unpacked yet: one vector per run (see emitLoad).
  llvm::MapVector<Value, SmallVector<Value>> pendingLoads;
  /// Unpacks the runs of `tile` into its registers before its first user
  /// (unpacking sub-word elements waits for the load).
  void unpackLoad(Value tile, ArrayRef<Value> runs);
  /// Loads unpacked before each op: the first unpacking op of each, and the
  /// index of the op's operand that reads it (0 before an op with regions,
  /// where they go in load order).
  DenseMap<Operation *, SmallVector<std::pair<int64_t, Operation *>>>
      unpackedBefore;
  /// The thread values of `v`: a tile's registers, a shared tile's address
  /// and offset, a scalar itself.
  SmallVector<Value> threadValues(Value v);
  /// Set once an op failed to lower (its error emitted).
  bool loweringFailed = false;
  DenseMap<Value, ViewInfo> views;
  /// The kernel's one shared-memory buffer, `<kernel>__smem`, of
  /// `tilegpu.shared_memory` bytes (tilegpu-allocate-shared-memory): static
  /// up to 48 KiB, dynamic above. Each user has its bytes in it
  /// (`tilegpu.shared`).
  LLVM::GlobalOp smem;
  int64_t smemBytes = 0;
  /// Set when an op needed shared memory the allocation did not give it
  /// (IR not from the pipeline): the op's error is emitted, it fails to
  /// lower.
  bool allocationFailed = false;
  int64_t loopDepth = 0; // loops (scf.for, scf.while) around the op lowered
  /// Whether a dot of the kernel runs as wgmma.
  bool anyWgmma = false;
  /// The kernel's tensor maps (tilegpu.tensor_maps), in order: the
  /// parameter holding each, and whether the launch encoded it (i1: else it
  /// is zeros and the copies take cp.async).
  struct TensorMapParam {
    Value descriptor;
    Value active;
    Value view; // the view it maps, in the gpu.func's body
  };
  SmallVector<TensorMapParam> tensorMaps;
  Value tensorMapActive(const ViewInfo &view);
  void emitTmaCopy(tilegpu::AsyncCopyOp copy, Value barrier, Value issuer);
  /// The warps a warp-specialized kernel's op runs on (tilegpu.warp_specialize,
  /// expanded by expandWarpSpecialize into branches marked kWarpRoleAttr):
  /// all of the block's elsewhere.
  enum class WarpRole { All, Consumer, Producer };
  WarpRole role = WarpRole::All; // the op lowered's
  /// The warps `op` runs on: those of the innermost branch around it that
  /// expandWarpSpecialize marked.
  WarpRole roleOf(Operation *op);
  /// Warps beyond numWarps that run a tilegpu.warp_specialize's producer.
  int64_t producerWarps = 0;
  /// tilegpu.mma_wait ops lowered so far (each wait's asm is numbered).
  int64_t mmaWaits = 0;
  /// Each tilegpu.warp_specialize as two branches on the warp index, each
  /// setting its warps' registers first (setmaxnreg); the producer's body
  /// run by its first thread.
  LogicalResult expandWarpSpecialize(Operation *root);
  /// The consumers' barriers as a named barrier of their threads only.
  void nameConsumerBarriers(Operation *root);
  /// The 32-bit shared-memory address of mbarrier `index` (i32) of
  /// `barriers`.
  Value mbarrierAddress(Value barriers, Value index);
  /// PTX with side effects, no results, of `operands`.
  void inlinePtx(StringRef ptx, StringRef constraints, ValueRange operands) {
    LLVM::InlineAsmOp::create(b, loc(), TypeRange{}, operands, ptx, constraints,
                              /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::tailcallkind::TailCallKind::None,
                              LLVM::AsmDialectAttr(), ArrayAttr());
  }

  InFlightDiagnostic fail(Operation *op) { return op->emitOpError(); }

  /// Reads the layout of every tile under `root` from its type.
  LogicalResult loadLayouts(Operation *root);
  LogicalResult declareSharedMemory();
  int64_t minBlocksPerSM();
  RegMap regMap(Value v) {
    return RegMap(*layoutOfValue.lookup(v),
                  cast<RankedTensorType>(v.getType()).getShape());
  }
  ArrayRef<Value> baseCoords(const Layout &layout);
  Value coordinate(const RegMap &map, int64_t d, int64_t offset);
  SmallVector<Value> coordinates(const RegMap &map, int64_t i);
  /// Whether this thread holds the first copy of its elements of a tile in
  /// `map`: its lane and warp bits that only replicate are 0. Null when no
  /// bit replicates (every thread holds elements of its own). Writes to
  /// shared memory go through it, so that no two threads write one address.
  Value ownsElements(const RegMap &map);
  /// Emits `body` under `cond` (unconditionally when it is null).
  template <typename Body> void emitIf(Value cond, Body body) {
    if (!cond) {
      body();
      return;
    }
    auto branch = scf::IfOp::create(b, loc(), TypeRange{}, cond, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    body();
  }

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI32Type(), v);
  }
  Location loc() { return currentLoc ? *currentLoc : kernel.getLoc(); }
  std::optional<Location> currentLoc;

  /// The start of `op`'s bytes in the kernel's buffer, which must hold
  /// `bytes`; null (after an error on `op`) when the allocation gave it
  /// fewer.
  Value sharedScratch(Operation *op, int64_t bytes);
  Value elementPtr(Value base, Type elementType, Value offset, unsigned space);
  Value combine(ReduceKind kind, Value a, Value b);
  Value combineTree(ReduceKind kind, SmallVector<Value> vals);
  Value toWide(Value v);
  Value fromWide(Value v, Type type);
  Value inBounds(const ViewInfo &view, ArrayRef<Value> coords);
  Value tileInBounds(const ViewInfo &view, ArrayRef<Value> origin,
                     RankedTensorType type);
  SmallVector<Value> tileOriginOf(ValueRange indices, RankedTensorType type);
  Value vectorAccessOk(const ViewInfo &view, ArrayRef<Value> coords,
                       int64_t width);
  SmallVector<Value> edgePathCoords(ArrayRef<Value> runStart);
  Value guardedLoad(const ViewInfo &view, ArrayRef<Value> coords, Value ok,
                    Value pad);
  void guardedStore(const ViewInfo &view, ArrayRef<Value> coords, Value ok,
                    Value value);
  struct Runs {
    SmallVector<SmallVector<Value>> coords; // each run's first element
    SmallVector<Value> ptrs;
    Value allFast;
  };
  Runs tileRuns(const ViewInfo &view, const RegMap &map, int64_t width,
                ArrayRef<Value> tileOrigin);
  /// The runs of a load or gather as `vecType` vectors, left packed for
  /// unpackLoad at `tile`'s first use: one branch loads every run as one
  /// vector when all are fast (`runs.allFast`), the other builds each with
  /// `slowRun(run)`.
  void loadRuns(Value tile, const Runs &runs, VectorType vecType,
                function_ref<Value(int64_t run)> slowRun);
  /// The runs of a store or scatter from `regs`: one branch stores each run
  /// not a register replica of `map` as one `vecType` vector when all are
  /// fast, the other runs `slowPath`.
  void storeRuns(const Runs &runs, const RegMap &map, ArrayRef<Value> regs,
                 VectorType vecType, function_ref<void()> slowPath);

  LogicalResult emitElementwise(Operation *op);
  LogicalResult emitLoad(LoadOp op);
  LogicalResult emitSharedTileOp(Operation *op);
  /// tilegpu.turn_wait and tilegpu.turn_pass: the named barriers of the
  /// consumer warpgroups' turns (WarpSpecialize.cpp).
  LogicalResult emitTurnOp(Operation *op);
  LogicalResult emitLocalLoad(tilegpu::LocalLoadOp op);
  Value swizzledOffset(int64_t swizzledRows, Value row, Value col,
                       int64_t bytes);
  /// The same, to element (row, col) itself: its unit's start plus its
  /// place in the unit.
  Value swizzledElementOffset(int64_t swizzledRows, Value row, Value col,
                              int64_t bytes);
  void emitAsyncCopy(Value view, ValueRange indices, RankedTensorType type,
                     const RegMap &map, function_ref<Value()> makeBase,
                     SharedGeometry geometry, bool chained);
  void emitTransposingCopy(Value view, ValueRange indices,
                           RankedTensorType type, const RegMap &map, Value base,
                           SharedGeometry geometry);
  LogicalResult emitStore(StoreOp op);
  /// A store from the threads' registers (vectorized where in bounds).
  LogicalResult emitRegisterStore(StoreOp op);
  LogicalResult emitTmaStore(StoreOp op, int64_t tensorMap);
  bool emitQuadTransposedStore(StoreOp op);
  /// Stores runs element by element, each guarded by its bounds; `map`, when
  /// given, names the registers that repeat lower ones (not stored).
  void storeRunsByElement(const ViewInfo &view, const RegMap *map,
                          ArrayRef<SmallVector<Value>> runStarts,
                          ArrayRef<Value> regs, int64_t width);
  void emitPrefetch(PrefetchOp op);
  Value elementAt(const ViewInfo &view, ValueRange indices, Value mask,
                  int64_t i, SmallVector<Value> &coords);
  /// The runs of `width` registers of a gather's or scatter's tile whose
  /// coordinates `indices` are contiguous along the last dimension
  /// (tile::areContiguousAlongLastDim): each run's first coordinates and
  /// address, and whether every run is aligned, in bounds and masked in.
  Runs windowRuns(const ViewInfo &view, const RegMap &map, int64_t width,
                  ValueRange indices, Value mask);
  /// The vector width of a gather's or scatter's accesses: 1 unless its
  /// coordinates are contiguous along the last dimension.
  int64_t elementAccessWidth(Operation *op, const RegMap &map, Type elem,
                             ValueRange indices);
  LogicalResult emitGather(GatherOp op);
  LogicalResult emitScatter(ScatterOp op);
  LogicalResult emitReduce(ReduceOp op);
  LogicalResult emitReshape(ReshapeOp op);
  LogicalResult emitDot(tilegpu::MmaOp op);
  LogicalResult emitWgmmaDot(tilegpu::MmaOp op);
  LogicalResult emitSwappedWgmmaDot(tilegpu::MmaOp op);
  Value wgmmaDescriptorLow(Value base, int64_t leadingBytes);
  Value wgmmaDescriptor(Value low, int64_t bytes);
  SmallVector<Value> accumulatorAFragment(Value lhs, int64_t rm, int64_t k);
  SmallVector<Value> emitReduceKeepDims(ReduceOp op, const RegMap &src,
                                        const RegMap &kept);
  SmallVector<Value> convertLayout(Operation *owner, ArrayRef<Value> regs,
                                   const RegMap &src, const RegMap &dst,
                                   ArrayRef<int64_t> permutation);
  /// The offset of `coords` in a row-major tile of `shape`.
  Value rowMajorOffset(ArrayRef<int64_t> shape, ArrayRef<Value> coords);
  SmallVector<Value> throughShared(Operation *owner, ArrayRef<Value> regs,
                                   const RegMap &src, const RegMap &dst,
                                   ArrayRef<int64_t> permutation);
  LogicalResult emitScan(ScanOp op);
  LogicalResult emitSort(SortOp op);
  LogicalResult emitPrint(PrintOp op);
  LogicalResult emitAssert(AssertOp op);
  LogicalResult emitAtomicRMW(AtomicRMWOp op);
  LogicalResult emitAtomicCAS(AtomicCASOp op);
  SmallVector<Value>
  emitAtomicElements(Operation *op, Value view, ValueRange indices, Value mask,
                     Value result,
                     function_ref<Value(Value ptr, int64_t reg)> atomic);
  Value atomicAt(Value ptr, AtomicKind kind, Value value);
  Value casLoop16(Value ptr, Type type, function_ref<Value(Value)> update);
  LogicalResult emitFor(scf::ForOp op, ConversionPatternRewriter &rewriter);
  LogicalResult emitWhile(scf::WhileOp op, ConversionPatternRewriter &rewriter);
  LogicalResult emitIf(scf::IfOp op, ConversionPatternRewriter &rewriter);
  /// A value as scf.for/scf.if carry it: scalars as they are, tiles as
  /// their registers, 16-bit floats in pairs (ThreadTypeConverter), and
  /// back.
  SmallVector<Type> carriedTypes(Value v);
  SmallVector<Value> flatten(ValueRange values);
  void bindResults(ValueRange olds, ValueRange flat);
};

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Lowers `OpT` by one of the emitter's functions (KernelEmitter::lower).
template <typename OpT> class EmitPattern : public OpConversionPattern<OpT> {
public:
  using Emit = LogicalResult (*)(KernelEmitter &, OpT,
                                 ConversionPatternRewriter &);
  EmitPattern(KernelEmitter &emitter, Emit emit)
      : OpConversionPattern<OpT>(emitter.typeConverter(), emitter.getContext()),
        emitter(emitter), emit(emit) {}

  LogicalResult
  matchAndRewrite(OpT op,
                  typename OpConversionPattern<OpT>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return emitter.lower(op, adaptor.getOperands(), rewriter,
                         [&] { return emit(emitter, op, rewriter); });
  }

private:
  KernelEmitter &emitter;
  Emit emit;
};

template <typename OpT>
void addEmitPattern(RewritePatternSet &patterns, KernelEmitter &emitter,
                    typename EmitPattern<OpT>::Emit emit) {
  patterns.add<EmitPattern<OpT>>(emitter, emit);
}

/// Lowers `OpT` by the emitter's member `emit`.
template <typename OpT, LogicalResult (KernelEmitter::*emit)(OpT)>
void addEmitPattern(RewritePatternSet &patterns, KernelEmitter &emitter) {
  addEmitPattern<OpT>(
      patterns, emitter,
      [](KernelEmitter &e, OpT op, ConversionPatternRewriter &) {
        return (e.*emit)(op);
      });
}

/// Elementwise ops on tiles, tile constants, splats, items, iotas,
/// broadcasts, and the grid's scalars (block ids, block counts, cdiv).
void populateElementwisePatterns(KernelEmitter &emitter,
                                 RewritePatternSet &patterns);
/// Loads, stores, prefetches and view sizes.
void populateMemoryPatterns(KernelEmitter &emitter,
                            RewritePatternSet &patterns);
/// Gathers and scatters at element coordinates.
void populateGatherScatterPatterns(KernelEmitter &emitter,
                                   RewritePatternSet &patterns);
/// Tiles in shared memory: buffers, stages, async copies, local loads.
void populateSharedTilePatterns(KernelEmitter &emitter,
                                RewritePatternSet &patterns);
/// Reductions, reshapes, permutes and layout conversions.
void populateReducePatterns(KernelEmitter &emitter,
                            RewritePatternSet &patterns);
/// Scans (cumsum, cumprod, running max and min).
void populateScanPatterns(KernelEmitter &emitter, RewritePatternSet &patterns);
/// Sorts and top-k.
void populateSortPatterns(KernelEmitter &emitter, RewritePatternSet &patterns);
/// Atomic read-modify-writes and compare-and-swaps.
void populateAtomicPatterns(KernelEmitter &emitter,
                            RewritePatternSet &patterns);
/// Prints (CUDA's vprintf) and asserts (__assertfail).
void populateDebugPatterns(KernelEmitter &emitter, RewritePatternSet &patterns);
/// Stream-K partial accumulators handed between blocks.
void populatePartialPatterns(KernelEmitter &emitter,
                             RewritePatternSet &patterns);
/// Dots on mma.sync and wgmma, and wgmma's waits.
void populateDotPatterns(KernelEmitter &emitter, RewritePatternSet &patterns);

/// Rebuilds the LLVM dialect ops under `root` that take or give fp8 values
/// on i8, bitcasting at their edges (FP8Storage.cpp): LLVM has no fp8 type.
void storeFP8AsBytes(Operation *root);
/// scf.for, scf.while, scf.if and their yields and conditions carrying
/// tiles; the kernel's return.
void populateControlFlowPatterns(KernelEmitter &emitter,
                                 RewritePatternSet &patterns);

} // namespace tilegym::detail

#endif // TILEGYM_LIB_CONVERSION_TILETOGPU_KERNELEMITTER_H
