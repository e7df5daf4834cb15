//===- TileGPUOps.cpp - tilegpu operations --------------------------------===//
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilegym::tilegpu;

/// A dot's instruction as its bare keyword: `tilegpu.mma wgmma ...`.
static ParseResult parseDotInstruction(OpAsmParser &parser,
                                       DotInstructionAttr &instruction) {
  SMLoc at = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<DotInstruction> value = symbolizeDotInstruction(keyword);
  if (!value)
    return parser.emitError(at) << "expected a dot instruction, mma_sync or "
                                   "wgmma, got '"
                                << keyword << "'";
  instruction = DotInstructionAttr::get(parser.getContext(), *value);
  return success();
}

static void printDotInstruction(OpAsmPrinter &printer, Operation *,
                                DotInstructionAttr instruction) {
  printer << stringifyDotInstruction(instruction.getValue());
}

#define GET_OP_CLASSES
#include "tilegym/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

LogicalResult ConvertLayoutOp::verify() {
  if (!getLayout(getSource().getType()))
    return emitOpError() << "source has no distributed layout: "
                         << getSource().getType();
  if (!getLayout(getType()))
    return emitOpError() << "result has no distributed layout: " << getType();
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  // A tile stored transposed is a K-major wgmma operand (a tf32 B).
  if (getType().getTransposed() && getType().getSwizzle() != 128)
    return emitOpError() << "allocates a transposed tile, a K-major wgmma "
                            "operand, which needs swizzle = 128";
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType source = getSource().getType(), result = getType();
  if (source.getRank() < 2)
    return emitOpError() << "indexes the stages of a ring: its source needs a "
                            "leading dimension, got "
                         << source;
  if (result.getShape() != source.getShape().drop_front() ||
      result.getElementType() != source.getElementType() ||
      result.getSwizzle() != source.getSwizzle() ||
      result.getTransposed() != source.getTransposed())
    return emitOpError() << "result must be one stage of " << source << ", got "
                         << result;
  // A constant stage is checked here; a computed one is the pipeline's
  // modulo the ring's stages.
  APInt stage;
  int64_t stages = source.getShape().front();
  if (matchPattern(getIndex(), m_ConstantInt(&stage)) &&
      (stage.isNegative() || stage.sge(stages)))
    return emitOpError() << "stage " << stage.getSExtValue()
                         << " is outside the ring's " << stages << " stages";
  return success();
}

LogicalResult MemDescTransOp::verify() {
  MemDescType source = getSource().getType(), result = getType();
  ArrayRef<int64_t> s = source.getShape();
  if (s.size() != 2)
    return emitOpError() << "transposes 2-D tiles, got " << source;
  if (result.getShape() != ArrayRef<int64_t>{s[1], s[0]} ||
      result.getElementType() != source.getElementType() ||
      result.getSwizzle() != source.getSwizzle() ||
      result.getTransposed() == source.getTransposed())
    return emitOpError() << "result must be " << source
                         << " with its dimensions and storage order swapped, "
                            "got "
                         << result;
  return success();
}

/// The kernel around `op` takes tensor map `index` (tilegpu.tensor_maps).
static LogicalResult verifyTensorMapUse(Operation *op, int64_t index) {
  Operation *kernel = op->getParentOfType<FunctionOpInterface>();
  int64_t count = kernel ? getTensorMaps(kernel).size() : 0;
  if (index >= count)
    return op->emitOpError()
           << "uses tensor map " << index
           << " but its kernel's tilegpu.tensor_maps has " << count;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto view = cast<tile::ViewType>(getView().getType());
  MemDescType dest = getDest().getType();
  auto layout = cast<RankedTensorType>(getLayout());
  if ((int64_t)getIndices().size() != view.getRank())
    return emitOpError() << "needs " << view.getRank()
                         << " tile indices for its view, got "
                         << getIndices().size();
  if (view.getElementType() != dest.getElementType() ||
      layout.getElementType() != dest.getElementType())
    return emitOpError() << "copies " << view.getElementType()
                         << " elements: the view, the destination and the "
                            "layout must agree";
  if (layout.getRank() != view.getRank())
    return emitOpError() << "layout must be a tile of the view's rank "
                         << view.getRank() << ", got " << layout;
  // A transposed destination (a tf32 B held K-major) takes one 4-byte
  // cp.async per element: cp.async has no narrower copy.
  if (dest.getTransposed() && elementBytes(dest.getElementType()) != 4)
    return emitOpError() << "copies into a transposed tile element by "
                            "element, which needs 32-bit elements, got "
                         << dest.getElementType();
  // Leading unit dimensions of the tile are not stored.
  ArrayRef<int64_t> tileShape = layout.getShape();
  while (tileShape.size() > dest.getShape().size() && tileShape.front() == 1)
    tileShape = tileShape.drop_front();
  if (tileShape != dest.getShape())
    return emitOpError() << "layout " << layout
                         << " must have the destination's shape (leading "
                            "unit dimensions aside), got "
                         << dest;
  if (!dest.getTransposed() && !holdsSixteenByteRuns(layout))
    return emitOpError() << "layout must give each thread runs of 16 "
                            "contiguous bytes, one cp.async each: "
                         << layout;
  if (bool(getBarriers()) != bool(getBarrier()) ||
      bool(getBarriers()) != getTensorMap().has_value())
    return emitOpError() << "copies with the TMA given mbarriers, the index "
                            "of one and a tensor map together";
  if (getMulticast() && !getTensorMap())
    return emitOpError() << "multicasts only the TMA's copies (tma(...))";
  if (!getTensorMap())
    return success();
  if (dest.getSwizzle() != 128 || dest.getTransposed())
    return emitOpError() << "copies with the TMA, which writes stages with "
                            "the 128-byte swizzle, not transposed; got "
                         << dest;
  return verifyTensorMapUse(*this, *getTensorMap());
}

LogicalResult MBarrierWaitOp::verify() {
  if (std::optional<uint64_t> m = getTensorMap())
    return verifyTensorMapUse(*this, *m);
  return success();
}

LogicalResult TensorMapActiveOp::verify() {
  return verifyTensorMapUse(*this, getTensorMap());
}

/// setmaxnreg's range: 24 to 256 registers, a multiple of 8.
static bool isRegisterBudget(int64_t registers) {
  return registers >= 24 && registers <= 256 && registers % 8 == 0;
}

LogicalResult WarpSpecializeOp::verify() {
  if (getProducerRegisters().has_value() != getConsumerRegisters().has_value())
    return emitOpError() << "takes register budgets for both sides or for "
                            "neither";
  if (!getProducerRegisters())
    return success();
  if (getProducerWarps() % 4)
    return emitOpError() << "producer warps must be whole warpgroups (a "
                            "multiple of 4) to resize their registers, got "
                         << getProducerWarps();
  for (auto [name, registers] :
       {std::pair{"producer", *getProducerRegisters()},
        std::pair{"consumer", *getConsumerRegisters()}})
    if (!isRegisterBudget(registers))
      return emitOpError() << name
                           << " registers must be a multiple of 8 from 24 to "
                              "256 (setmaxnreg), got "
                           << registers;
  return success();
}

/// Turns are taken by the consumer warpgroups of a split kernel: the ops
/// sit in the consumer region of a tilegpu.warp_specialize.
static LogicalResult verifyInConsumers(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto ws = dyn_cast<WarpSpecializeOp>(p)) {
      if (ws.getConsumer().isAncestor(op->getParentRegion()))
        return success();
      break;
    }
  return op->emitOpError()
         << "must be in the consumer region of a tilegpu.warp_specialize";
}

LogicalResult TurnWaitOp::verify() { return verifyInConsumers(*this); }
LogicalResult TurnPassOp::verify() { return verifyInConsumers(*this); }

/// A stream-K partial: an f32 tile with a distributed layout (its registers
/// are what a slot holds), in the consumers of a warp-specialized kernel
/// (whose threads are the block's first).
static LogicalResult verifyPartial(Operation *op, Type type) {
  auto tile = cast<RankedTensorType>(type);
  if (!tile.getElementType().isF32())
    return op->emitOpError() << "value must be an f32 tile, got " << type;
  if (!getLayout(tile))
    return op->emitOpError() << "value has no distributed layout: " << type;
  return verifyInConsumers(op);
}

LogicalResult PartialStoreOp::verify() {
  return verifyPartial(*this, getValue().getType());
}
LogicalResult PartialAccumulateOp::verify() {
  return verifyPartial(*this, getValue().getType());
}

LogicalResult LocalLoadOp::verify() {
  MemDescType source = getSource().getType();
  if (getType().getShape() != source.getShape() ||
      getType().getElementType() != source.getElementType())
    return emitOpError() << "result must have the shape and elements of "
                         << source << ", got " << getType();
  if (!getLayout(getType()))
    return emitOpError() << "result has no distributed layout: " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor-core dots
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> MmaOp::getOperandShape(Value operand) {
  if (auto tile = dyn_cast<RankedTensorType>(operand.getType()))
    return tile.getShape();
  return cast<MemDescType>(operand.getType()).getShape();
}

/// An operand's elements, in registers or shared memory.
static Type elementTypeOf(Value operand) {
  if (auto tile = dyn_cast<RankedTensorType>(operand.getType()))
    return tile.getElementType();
  return cast<MemDescType>(operand.getType()).getElementType();
}

Type MmaOp::getOperandElementType() { return elementTypeOf(getLhs()); }

bool MmaOp::isLhsItsOwnFragments() {
  auto lhs = dyn_cast<RankedTensorType>(getLhs().getType());
  return getInstruction() == DotInstruction::MmaSync && lhs &&
         tilegpu::isLhsItsOwnFragments(lhs, getType().getEncoding());
}

bool MmaOp::isSwapped() {
  auto rhs = dyn_cast<MemDescType>(getRhs().getType());
  return getInstruction() == DotInstruction::Wgmma &&
         getOperandElementType().isF32() && rhs && !rhs.getTransposed() &&
         isSwappedWgmmaLayout(getType().getEncoding());
}

LogicalResult MmaOp::verify() {
  ArrayRef<int64_t> lhs = getOperandShape(getLhs());
  ArrayRef<int64_t> rhs = getOperandShape(getRhs());
  Type lhsElem = elementTypeOf(getLhs()), rhsElem = elementTypeOf(getRhs());
  ArrayRef<int64_t> acc = getAcc().getType().getShape();
  if (lhs.size() != 2 || rhs.size() != 2 || acc.size() != 2)
    return emitOpError() << "multiplies 2-D tiles: one stage, not a ring";
  if (lhs[1] != rhs[0] || acc[0] != lhs[0] || acc[1] != rhs[1])
    return emitOpError() << "needs lhs M x K, rhs K x N and acc M x N, got "
                         << lhs[0] << "x" << lhs[1] << ", " << rhs[0] << "x"
                         << rhs[1] << " and " << acc[0] << "x" << acc[1];
  bool fp8 = tile::isFP8(lhsElem) && tile::isFP8(rhsElem);
  if (!fp8 && (lhsElem != rhsElem ||
               !(lhsElem.isF16() || lhsElem.isBF16() || lhsElem.isF32())))
    return emitOpError() << "operands must both be f16, bf16, f32 or fp8, got "
                         << lhsElem << " and " << rhsElem;
  if (!getAcc().getType().getElementType().isF32())
    return emitOpError() << "accumulates in f32, got "
                         << getAcc().getType().getElementType();
  auto lhsDesc = dyn_cast<MemDescType>(getLhs().getType());
  auto rhsDesc = dyn_cast<MemDescType>(getRhs().getType());
  if (lhsDesc && lhsDesc.getTransposed())
    return emitOpError() << "reads its lhs as stored, [M][K]: not transposed";
  bool wgmma = getInstruction() == DotInstruction::Wgmma;
  if (fp8 && !wgmma)
    return emitOpError() << "mma_sync takes no fp8 operands: widen them to "
                            "f16 (tilegpu-legalize-dots)";
  // The transposed product reads its rhs [K][N] by plain loads from a
  // swizzled stage; N is wgmma's M (64 rows a warpgroup), M its N.
  bool swapped = isSwapped();
  if (swapped && (!lhsDesc || getPrecision() != tile::Precision::TF32))
    return emitOpError() << "wgmma on the transposed product (the swapped "
                            "accumulator layout) reads a tf32 lhs from shared "
                            "memory";
  if (swapped) {
    auto layout = cast<LinearLayoutAttr>(getType().getEncoding());
    int64_t groups = (int64_t(1) << layout.getLinearBases().warp.size()) / 4;
    if (!isSwappedWgmmaShape(acc[0], acc[1], lhs[1], groups))
      return emitOpError()
             << "wgmma on the transposed product takes N a multiple of "
             << 64 * groups << " (64 for each warpgroup), M a multiple of 8 "
             << "up to 256 and K of 8, got M x N x K = " << acc[0] << "x"
             << acc[1] << "x" << lhs[1];
  }
  for (MemDescType desc : {lhsDesc, rhsDesc})
    if (desc && (desc.getSwizzle() == 128) != wgmma)
      return emitOpError() << (wgmma ? "wgmma reads" : "mma_sync reads")
                           << " shared-memory tiles "
                           << (wgmma ? "under the 128-byte swizzle"
                                     : "unswizzled, rows padded")
                           << ", got " << desc;
  if (wgmma) {
    if (!rhsDesc)
      return emitOpError() << "wgmma reads its rhs from shared memory";
    if (lhsElem.isF32() && !swapped &&
        (getPrecision() != tile::Precision::TF32 || !lhsDesc ||
         !rhsDesc.getTransposed()))
      return emitOpError()
             << "wgmma takes f32 operands as tf32, both from shared memory, "
                "K-major (the rhs transposed), or the rhs [K][N] with the "
                "accumulator in the swapped layout";
    if (fp8 && (!lhsDesc || !rhsDesc.getTransposed()))
      return emitOpError() << "wgmma takes fp8 operands both from shared "
                              "memory, K-major (the rhs transposed)";
    if (!lhsDesc && cast<RankedTensorType>(getLhs().getType()).getEncoding() !=
                        getAcc().getType().getEncoding())
      return emitOpError() << "wgmma reads an lhs in registers only in the "
                              "accumulator's layout";
  }
  return success();
}

LogicalResult MmaWaitOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          ValueRange operands, DictionaryAttr,
                                          OpaqueProperties, RegionRange,
                                          SmallVectorImpl<Type> &inferred) {
  for (Value v : operands)
    inferred.push_back(v.getType());
  return success();
}
