//===- TileGPUDialect.cpp - tilegpu dialect and layouts -------------------===//
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilegym::tilegpu;

#include "tilegym/Dialect/TileGPU/IR/TileGPUAttrInterfaces.cpp.inc"
#include "tilegym/Dialect/TileGPU/IR/TileGPUEnums.cpp.inc"
#include "tilegym/Dialect/TileGPU/IR/TileGPUOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUOpsTypes.cpp.inc"

namespace {
/// Layouts print as aliases (`#blocked`, `#mma1`, ...) defined once at the
/// top of the module, as Triton's do: a tile type stays one line.
struct TileGPUAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr))
      os << "blocked";
    else if (isa<MmaLayoutAttr>(attr))
      os << "mma";
    else if (isa<LinearLayoutAttr>(attr))
      os << "linear";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilegym/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilegym/Dialect/TileGPU/IR/TileGPUOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilegym/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Parsing and printing helpers
//===----------------------------------------------------------------------===//

static ParseResult parseKey(AsmParser &p, StringRef key) {
  return failure(p.parseKeyword(key) || p.parseEqual());
}

static ParseResult parseIntList(AsmParser &p, SmallVectorImpl<int64_t> &out) {
  return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    int64_t v;
    if (p.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

static void printIntList(AsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

/// A distributed layout's bases are powers of two along each dimension, so
/// the tiles it lays out must be too (coordinates wrap modulo the size).
static LogicalResult
verifyTileShape(ArrayRef<int64_t> shape, int64_t rank,
                function_ref<InFlightDiagnostic()> emitError) {
  if ((int64_t)shape.size() != rank)
    return emitError() << "layout of rank " << rank << " on a tile of rank "
                       << shape.size();
  for (int64_t s : shape)
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return emitError() << "distributed layouts need power-of-two tile "
                            "sizes, got "
                         << s;
  return success();
}

static Basis unitBasis(int64_t rank, int64_t d, int64_t v) {
  Basis basis(rank, 0);
  basis[d] = v;
  return basis;
}

//===----------------------------------------------------------------------===//
// Bases
//===----------------------------------------------------------------------===//

SmallVector<int64_t> tilegym::tilegpu::getCoverage(const LinearBases &bases) {
  SmallVector<int64_t> coverage(bases.rank, 1);
  for (auto *bits : {&bases.reg, &bases.lane, &bases.warp})
    for (const Basis &basis : *bits)
      for (int64_t d = 0; d < bases.rank; ++d)
        coverage[d] = std::max(coverage[d], 2 * basis[d]);
  return coverage;
}

SmallVector<Basis> tilegym::tilegpu::getRegisterBits(const LinearBases &bases,
                                                     ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coverage = getCoverage(bases);
  SmallVector<Basis> bits(bases.reg);
  for (int64_t d = bases.rank - 1; d >= 0; --d)
    for (int64_t v = coverage[d]; v < shape[d]; v *= 2)
      bits.push_back(unitBasis(bases.rank, d, v));
  return bits;
}

int64_t tilegym::tilegpu::getContiguousWidth(ArrayRef<Basis> bits,
                                             ArrayRef<int64_t> shape) {
  int64_t last = shape.size() - 1, w = 1;
  for (const Basis &bb : bits) {
    if (bb[last] != w || w >= shape[last])
      break;
    if (!llvm::all_of(llvm::ArrayRef<int64_t>(bb).drop_back(),
                      [](int64_t v) { return v == 0; }))
      break;
    w *= 2;
  }
  return w;
}

bool tilegym::tilegpu::holdsSixteenByteRuns(RankedTensorType type) {
  DistributedLayoutAttr layout = getLayout(type);
  if (!layout || type.getRank() == 0)
    return false;
  auto bits = getRegisterBits(layout.getLinearBases(), type.getShape());
  return getContiguousWidth(bits, type.getShape()) *
             elementBytes(type.getElementType()) >=
         16;
}

int64_t tilegym::tilegpu::getPaddedRowElements(int64_t cols, int64_t bytes) {
  int64_t units = cols * bytes / 16;
  return units % 2 ? cols : cols + 16 / bytes;
}

bool tilegym::tilegpu::isLhsItsOwnFragments(RankedTensorType lhsType,
                                            Attribute accLayout) {
  auto acc = dyn_cast_or_null<MmaLayoutAttr>(accLayout);
  return !lhsType.getElementType().isF32() && acc && acc.getWarpsN() == 1 &&
         lhsType.getEncoding() == acc;
}

std::optional<unsigned> tilegym::tilegpu::parseChipVersion(StringRef chip) {
  unsigned version;
  if (!chip.consume_front("sm_") ||
      chip.drop_back(chip.ends_with("a") ? 1 : 0).getAsInteger(10, version))
    return std::nullopt;
  return version;
}

FailureOr<bool> tilegym::tilegpu::isGpuKernelFor(Operation *func,
                                                 StringRef chip) {
  auto callable = dyn_cast<CallableOpInterface>(func);
  if (!func->hasAttr("tile.kernel") || !callable ||
      !callable.getCallableRegion() || callable.getCallableRegion()->empty())
    return false;
  if (!parseChipVersion(chip)) {
    func->emitError() << "invalid chip '" << chip
                      << "'; expected sm_<N> or sm_<N>a";
    return failure();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

Attribute BlockedLayoutAttr::parse(AsmParser &p, Type) {
  SMLoc loc = p.getCurrentLocation();
  SmallVector<int64_t> spt, tpw, wpb;
  if (p.parseLess() || p.parseLBrace() || parseKey(p, "sizePerThread") ||
      parseIntList(p, spt) || p.parseComma() || parseKey(p, "threadsPerWarp") ||
      parseIntList(p, tpw) || p.parseComma() || parseKey(p, "warpsPerBlock") ||
      parseIntList(p, wpb) || p.parseRBrace() || p.parseGreater())
    return {};
  return getChecked([&] { return p.emitError(loc); }, p.getContext(), spt, tpw,
                    wpb);
}

void BlockedLayoutAttr::print(AsmPrinter &p) const {
  p << "<{sizePerThread = ";
  printIntList(p, getSizePerThread());
  p << ", threadsPerWarp = ";
  printIntList(p, getThreadsPerWarp());
  p << ", warpsPerBlock = ";
  printIntList(p, getWarpsPerBlock());
  p << "}>";
}

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> spt, ArrayRef<int64_t> tpw,
                          ArrayRef<int64_t> wpb) {
  if (spt.size() != tpw.size() || spt.size() != wpb.size())
    return emitError() << "sizePerThread, threadsPerWarp and warpsPerBlock "
                          "must have one entry per dimension, got "
                       << spt.size() << ", " << tpw.size() << " and "
                       << wpb.size();
  int64_t threads = 1;
  for (ArrayRef<int64_t> list : {spt, tpw, wpb})
    for (int64_t v : list) {
      if (v <= 0 || !llvm::isPowerOf2_64(v))
        return emitError() << "blocked layout sizes must be powers of two, "
                              "got "
                           << v;
      if (v > kMaxLayoutSize)
        return emitError() << "blocked layout size " << v
                           << " is past the largest tile dimension, "
                           << kMaxLayoutSize;
    }
  for (int64_t v : tpw)
    threads *= v;
  if (!spt.empty() && threads != (int64_t(1) << kLaneBits))
    return emitError() << "threadsPerWarp must multiply to 32, got " << threads;
  return success();
}

int64_t BlockedLayoutAttr::getRank() const { return getSizePerThread().size(); }

LinearBases BlockedLayoutAttr::getLinearBases() const {
  LinearBases bases;
  int64_t rank = bases.rank = getRank();
  ArrayRef<int64_t> spt = getSizePerThread(), tpw = getThreadsPerWarp(),
                    wpb = getWarpsPerBlock();
  // The last dimension fastest: its register, lane and warp bits first.
  for (int64_t d = rank - 1; d >= 0; --d) {
    for (int64_t v = 1; v < spt[d]; v *= 2)
      bases.reg.push_back(unitBasis(rank, d, v));
    for (int64_t v = 1; v < tpw[d]; v *= 2)
      bases.lane.push_back(unitBasis(rank, d, v * spt[d]));
    for (int64_t v = 1; v < wpb[d]; v *= 2)
      bases.warp.push_back(unitBasis(rank, d, v * spt[d] * tpw[d]));
  }
  return bases;
}

LogicalResult BlockedLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTileShape(shape, getRank(), emitError);
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t warpsM, int64_t warpsN) {
  for (int64_t v : {warpsM, warpsN})
    if (v <= 0 || !llvm::isPowerOf2_64(v))
      return emitError() << "mma warps must be powers of two, got " << v;
  if (warpsM > 32 || warpsN > 32)
    return emitError() << "mma layout of " << warpsM << "x" << warpsN
                       << " warps; a block has at most 32";
  if (warpsM * warpsN > 32)
    return emitError() << "mma layout of " << warpsM * warpsN
                       << " warps; a block has at most 32";
  return success();
}

int64_t MmaLayoutAttr::getRank() const { return 2; }

LinearBases MmaLayoutAttr::getLinearBases() const {
  // Register bit 0 is column 1, bit 1 row 8 (c0..c3 of m16n8); lane bits
  // columns 2, 4 then rows 1, 2, 4; warps split N first, then M.
  LinearBases bases;
  bases.rank = 2;
  bases.reg = {unitBasis(2, 1, 1), unitBasis(2, 0, 8)};
  bases.lane = {unitBasis(2, 1, 2), unitBasis(2, 1, 4), unitBasis(2, 0, 1),
                unitBasis(2, 0, 2), unitBasis(2, 0, 4)};
  for (int64_t v = 1; v < getWarpsN(); v *= 2)
    bases.warp.push_back(unitBasis(2, 1, 8 * v));
  for (int64_t v = 1; v < getWarpsM(); v *= 2)
    bases.warp.push_back(unitBasis(2, 0, 16 * v));
  return bases;
}

LinearLayoutAttr tilegym::tilegpu::getSwappedWgmmaLayout(MLIRContext *ctx,
                                                         int64_t numWarps) {
  // wgmma's D^T fragments, rows and columns swapped: a D^T column (one of
  // our M) is register bit 0 and lane bits 0-1 (2 columns of each quad,
  // 4 quads); a D^T row (one of our N) is lane bits 2-4, register bit 1
  // (row + 8) and the warp bits (16 rows a warp, 64 a warpgroup). Within a
  // warpgroup's 64 rows, row bit 2 (lane bit 4) is n + 16 and row bit 3
  // (the + 8 half) is n + 4: the lanes of one fragment load then read
  // columns n..n+3 and n+16..n+19 of 4 rows of the N-major rhs, and with
  // its rows padded to 4 (mod 32) words the 32 addresses fall in 32
  // distinct banks, where rows n..n+7 would put two lanes in each of 16.
  LinearBases bases;
  bases.rank = 2;
  bases.reg = {unitBasis(2, 0, 1), unitBasis(2, 1, 4)};
  bases.lane = {unitBasis(2, 0, 2), unitBasis(2, 0, 4), unitBasis(2, 1, 1),
                unitBasis(2, 1, 2), unitBasis(2, 1, 16)};
  bases.warp = {unitBasis(2, 1, 8), unitBasis(2, 1, 32)};
  for (int64_t g = 1; g < numWarps / 4; g *= 2)
    bases.warp.push_back(unitBasis(2, 1, 64 * g));
  return LinearLayoutAttr::get(ctx, bases);
}

bool tilegym::tilegpu::isSwappedWgmmaLayout(Attribute layout) {
  auto linear = dyn_cast_or_null<LinearLayoutAttr>(layout);
  if (!linear || linear.getRank() != 2)
    return false;
  int64_t warpBits = linear.getLinearBases().warp.size();
  if (warpBits < 2 || warpBits > 5)
    return false;
  return linear ==
         getSwappedWgmmaLayout(layout.getContext(), int64_t(1) << warpBits);
}

LogicalResult MmaLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTileShape(shape, 2, emitError);
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> flatten(ArrayRef<Basis> bases) {
  SmallVector<int64_t> flat;
  for (const Basis &basis : bases)
    llvm::append_range(flat, basis);
  return flat;
}

static SmallVector<Basis> unflatten(ArrayRef<int64_t> flat, int64_t rank) {
  SmallVector<Basis> bases;
  for (size_t i = 0; rank > 0 && i + rank <= flat.size(); i += rank)
    bases.emplace_back(flat.slice(i, rank));
  return bases;
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *ctx,
                                       const LinearBases &bases) {
  return get(ctx, bases.rank, flatten(bases.reg), flatten(bases.lane),
             flatten(bases.warp));
}

Attribute LinearLayoutAttr::parse(AsmParser &p, Type) {
  SMLoc loc = p.getCurrentLocation();
  SmallVector<Basis> lists[3];
  int64_t rank = -1;
  bool ragged = false;
  auto parseBases = [&](SmallVector<Basis> &out) {
    return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
      Basis basis;
      if (parseIntList(p, basis))
        return failure();
      if (rank < 0)
        rank = basis.size();
      ragged |= (int64_t)basis.size() != rank;
      out.push_back(std::move(basis));
      return success();
    });
  };
  if (p.parseLess() || p.parseLBrace() || parseKey(p, "register") ||
      parseBases(lists[0]) || p.parseComma() || parseKey(p, "lane") ||
      parseBases(lists[1]) || p.parseComma() || parseKey(p, "warp") ||
      parseBases(lists[2]) || p.parseRBrace() || p.parseGreater())
    return {};
  if (ragged) {
    p.emitError(loc) << "linear layout bases must all have one entry per "
                        "dimension";
    return {};
  }
  if (rank <= 0) {
    p.emitError(loc) << "linear layouts need bases of rank 1 or more";
    return {};
  }
  return getChecked([&] { return p.emitError(loc); }, p.getContext(), rank,
                    flatten(lists[0]), flatten(lists[1]), flatten(lists[2]));
}

void LinearLayoutAttr::print(AsmPrinter &p) const {
  auto printBases = [&](StringRef key, ArrayRef<int64_t> flat) {
    p << key << " = [";
    llvm::interleaveComma(unflatten(flat, getNumDims()), p,
                          [&](const Basis &b) { printIntList(p, b); });
    p << ']';
  };
  p << "<{";
  printBases("register", getRegisterBases());
  p << ", ";
  printBases("lane", getLaneBases());
  p << ", ";
  printBases("warp", getWarpBases());
  p << "}>";
}

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t rank, ArrayRef<int64_t> reg,
                         ArrayRef<int64_t> lane, ArrayRef<int64_t> warp) {
  if (rank <= 0)
    return emitError() << "linear layouts need bases of rank 1 or more";
  for (ArrayRef<int64_t> flat : {reg, lane, warp}) {
    if (flat.size() % rank)
      return emitError() << "linear layout bases must all have one entry per "
                            "dimension";
    for (int64_t v : flat) {
      if (v < 0 || (v && !llvm::isPowerOf2_64(v)))
        return emitError() << "linear layout basis entries must be 0 or "
                              "powers of two, got "
                           << v;
      if (v > kMaxLayoutSize)
        return emitError() << "linear layout basis entry " << v
                           << " is past the largest tile dimension, "
                           << kMaxLayoutSize;
    }
  }
  if ((int64_t)reg.size() > kMaxRegisterBits * rank)
    return emitError() << "a linear layout has at most " << kMaxRegisterBits
                       << " register bases (256 registers), got "
                       << reg.size() / rank;
  if ((int64_t)lane.size() != kLaneBits * rank)
    return emitError() << "a linear layout has 5 lane bases (32 lanes), got "
                       << lane.size() / rank;
  if ((int64_t)warp.size() > kLaneBits * rank)
    return emitError() << "a linear layout has at most 5 warp bases (32 "
                          "warps), got "
                       << warp.size() / rank;
  return success();
}

int64_t LinearLayoutAttr::getRank() const { return getNumDims(); }

LinearBases LinearLayoutAttr::getLinearBases() const {
  LinearBases bases;
  bases.rank = getNumDims();
  bases.reg = unflatten(getRegisterBases(), bases.rank);
  bases.lane = unflatten(getLaneBases(), bases.rank);
  bases.warp = unflatten(getWarpBases(), bases.rank);
  return bases;
}

LogicalResult LinearLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyTileShape(shape, getNumDims(), emitError);
}

//===----------------------------------------------------------------------===//
// Decisions of tilegpu-accelerate-dots
//===----------------------------------------------------------------------===//

/// The shared-memory layouts a stage or a memdesc may have: 0, rows padded
/// for ldmatrix; 128, the 128-byte swizzle.
static LogicalResult verifySwizzle(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t swizzle) {
  if (swizzle != 0 && swizzle != 128)
    return emitError() << "swizzle must be 0 (padded rows) or 128, got "
                       << swizzle;
  return success();
}

LogicalResult
SharedStageAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t ring, int64_t stages, int64_t swizzle,
                        std::optional<int64_t> index, bool transposed) {
  if (ring < 0)
    return emitError() << "ring number must not be negative, got " << ring;
  if (stages < 1)
    return emitError() << "a ring needs at least 1 stage, got " << stages;
  if (failed(verifySwizzle(emitError, swizzle)))
    return failure();
  if (index && (*index < 0 || *index >= std::max<int64_t>(1, stages - 1)))
    return emitError() << "stage index " << *index << " is outside the "
                       << std::max<int64_t>(1, stages - 1)
                       << " stages loaded before the loop";
  if (!index && stages == 1)
    return emitError() << "a one-stage ring is filled before the loop and "
                          "needs index = 0";
  if (transposed && swizzle != 128)
    return emitError() << "a transposed stage is a wgmma operand and needs "
                          "swizzle = 128, got "
                       << swizzle;
  return success();
}

LogicalResult
TensorMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t view, ArrayRef<int64_t> box) {
  if (view < 0)
    return emitError() << "view must be a parameter's position, got " << view;
  if (box.empty() || int64_t(box.size()) > kMaxTensorMapRank)
    return emitError() << "a tensor map's box has 1 to " << kMaxTensorMapRank
                       << " dimensions, got " << box.size();
  for (int64_t b : box)
    if (b < 1 || b > kMaxTensorMapBox)
      return emitError() << "box sizes must be in [1, " << kMaxTensorMapBox
                         << "], got " << b;
  return success();
}

LogicalResult
MBarriersType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t count) {
  if (count < 1)
    return emitError() << "needs at least 1 mbarrier, got " << count;
  return success();
}

SmallVector<TensorMapAttr> tilegym::tilegpu::getTensorMaps(Operation *kernel) {
  SmallVector<TensorMapAttr> maps;
  if (auto list = kernel->getAttrOfType<ArrayAttr>(kTensorMapsAttr))
    for (Attribute a : list)
      if (auto map = dyn_cast<TensorMapAttr>(a))
        maps.push_back(map);
  return maps;
}

LogicalResult
SharedAllocationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             int64_t offset, int64_t bytes) {
  if (offset < 0 || offset % 16)
    return emitError() << "offset must be a non-negative multiple of 16, got "
                       << offset;
  if (bytes < 1)
    return emitError() << "an allocation needs at least 1 byte, got " << bytes;
  return success();
}

LogicalResult TileGPUDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  StringRef opName = op->getName().getStringRef();
  if (name == kDotAttr) {
    if (opName != "tile.dot")
      return op->emitOpError() << "'" << name << "' belongs on a tile.dot";
    if (!isa<DotInstructionAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #tilegpu.dot<...> instruction";
    return success();
  }
  if (name == kStageAttr) {
    if (opName != "tile.load")
      return op->emitOpError() << "'" << name << "' belongs on a tile.load";
    if (!isa<SharedStageAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #tilegpu.stage<...>";
    return success();
  }
  if (name == kSharedAttr) {
    if (!isa<SharedAllocationAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #tilegpu.shared<...>";
    return success();
  }
  if (name == kSharedMemoryAttr) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !bytes || bytes.getInt() < 0)
      return op->emitOpError() << "'" << name
                               << "' belongs on a kernel, as the bytes of "
                                  "its shared-memory buffer (an integer >= 0)";
    return success();
  }
  if (name == kChainCopyAddressesAttr) {
    if (!isa<FunctionOpInterface>(op) || !isa<BoolAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name
             << "' belongs on a kernel, as whether its copies chain their "
                "run addresses (a bool)";
    return success();
  }
  if (name == kTensorMapsAttr) {
    auto list = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !list ||
        !llvm::all_of(list, llvm::IsaPred<TensorMapAttr>))
      return op->emitOpError()
             << "'" << name
             << "' belongs on a kernel, as an array of #tilegpu.tensor_map";
    return success();
  }
  if (name == kTmaAttr) {
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    bool staged = opName == "tile.load" && op->hasAttr(kStageAttr);
    if (!(staged || opName == "tile.store") || !index || index.getInt() < 0)
      return op->emitOpError()
             << "'" << name
             << "' belongs on a staged tile.load or a tile.store, as the "
                "position of its tensor map (an integer >= 0)";
    return success();
  }
  if (name == kTensorMapParamsAttr) {
    if (!isa<FunctionOpInterface>(op) ||
        !isa<DenseI32ArrayAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' belongs on a lowered kernel, as the "
                                  "positions of its tensor-map parameters";
    return success();
  }
  if (name == kProducerWarpsAttr) {
    auto warps = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !warps || warps.getInt() <= 0)
      return op->emitOpError()
             << "'" << name
             << "' belongs on a kernel, as the warps its producer adds (an "
                "integer > 0)";
    return success();
  }
  if (name == kPersistentAttr) {
    auto blocks = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !blocks || blocks.getInt() <= 0 ||
        blocks.getInt() > 32)
      return op->emitOpError()
             << "'" << name
             << "' belongs on a kernel, as the blocks per SM its persistent "
                "launch runs (1 to 32)";
    return success();
  }
  if (name == kClusterAttr) {
    auto blocks = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !blocks ||
        blocks.getInt() != kClusterBlocks)
      return op->emitOpError()
             << "'" << name
             << "' belongs on a kernel, as the blocks of its clusters ("
             << kClusterBlocks << ")";
    return success();
  }
  if (name == kWarpRoleAttr) {
    auto role = dyn_cast<StringAttr>(attr.getValue());
    if (opName != "scf.if" || !role ||
        (role.getValue() != "producer" && role.getValue() != "consumer"))
      return op->emitOpError()
             << "'" << name
             << "' belongs on an scf.if of a lowered warp-specialized "
                "kernel, as \"producer\" or \"consumer\"";
    return success();
  }
  return op->emitOpError() << "unknown tilegpu attribute '" << name << "'";
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  int64_t swizzle = 0;
  bool transposed = false;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parseKey(parser, "swizzle") || parser.parseInteger(swizzle))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("transposed"))
      return {};
    transposed = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        swizzle, transposed);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  printer << "x" << getElementType() << ", swizzle = " << getSwizzle();
  if (getTransposed())
    printer << ", transposed";
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  int64_t swizzle, bool transposed) {
  if (shape.empty())
    return emitError() << "a shared-memory tile needs at least one dimension";
  // A ring's stages (leading dimensions) may be any number; the tile's rows
  // and columns are powers of two, as every tile's.
  for (auto [i, d] : llvm::enumerate(shape))
    if (d <= 0 || (i + 2 >= shape.size() && !llvm::isPowerOf2_64(d)))
      return emitError() << "shared-memory tile sizes must be powers of two "
                            "(stages positive), got "
                         << d;
  if (!elementType.isIntOrFloat() ||
      (elementType.getIntOrFloatBitWidth() != 16 &&
       elementType.getIntOrFloatBitWidth() != 32 && !tile::isFP8(elementType)))
    return emitError() << "shared-memory tiles hold fp8, 16- or 32-bit "
                          "elements, got "
                       << elementType;
  // Far past any block's shared memory, and small enough that byte counts
  // (padded rows included: at most twice the elements' bytes) cannot
  // overflow: a bound checked before anything multiplies the sizes out.
  constexpr uint64_t kMaxSharedTileBytes = uint64_t(1) << 31;
  uint64_t bound = 2 * elementType.getIntOrFloatBitWidth() / 8;
  for (int64_t d : shape) {
    if (bound > kMaxSharedTileBytes / uint64_t(d)) {
      InFlightDiagnostic diag = emitError();
      diag << "a shared-memory tile holds at most " << kMaxSharedTileBytes
           << " bytes; ";
      llvm::interleave(shape, diag, "x");
      return diag << " elements are more";
    }
    bound *= d;
  }
  if (failed(verifySwizzle(emitError, swizzle)))
    return failure();
  if (transposed && shape.size() < 2)
    return emitError() << "a transposed tile needs two dimensions";
  if (swizzle == 128) {
    // The rows as stored: a transposed tile's are its columns.
    int64_t rank = shape.size();
    int64_t cols = transposed ? shape[rank - 2] : shape[rank - 1];
    int64_t rows = rank < 2     ? 1
                   : transposed ? shape[rank - 1]
                                : shape[rank - 2];
    if (cols * elementType.getIntOrFloatBitWidth() / 8 % 128 || rows % 8)
      return emitError() << "the 128-byte swizzle needs stored rows of a "
                            "multiple of 128 bytes and a multiple of 8 rows";
  }
  return success();
}
