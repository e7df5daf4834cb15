//===- TileGPUOps.cpp - tilegpu operations --------------------------------===//
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilegym::tilegpu;

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
  if (getType().getTransposed())
    return emitOpError() << "allocates a tile as it is stored: not transposed";
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
  if (dest.getTransposed())
    return emitOpError() << "copies into a tile as it is stored: not "
                            "transposed";
  // Leading unit dimensions of the tile are not stored.
  ArrayRef<int64_t> tileShape = layout.getShape();
  while (tileShape.size() > dest.getShape().size() && tileShape.front() == 1)
    tileShape = tileShape.drop_front();
  if (tileShape != dest.getShape())
    return emitOpError() << "layout " << layout
                         << " must have the destination's shape (leading "
                            "unit dimensions aside), got "
                         << dest;
  if (!holdsSixteenByteRuns(layout))
    return emitOpError() << "layout must give each thread runs of 16 "
                            "contiguous bytes, one cp.async each: "
                         << layout;
  return success();
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
