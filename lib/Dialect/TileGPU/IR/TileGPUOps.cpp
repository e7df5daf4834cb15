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
