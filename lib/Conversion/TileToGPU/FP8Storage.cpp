//===- FP8Storage.cpp - fp8 registers through LLVM ops as bytes -----------===//
//
// The lowering moves a tile's registers with LLVM dialect ops (loads,
// stores, vector inserts and extracts, poison vectors), built with the
// tile's element type. LLVM has no fp8 type: those of fp8 values are
// rebuilt here on i8 (or vectors of i8), with `arith.bitcast`s between fp8
// and i8 at their edges, which the LLVM conversion turns into nothing.
// Arithmetic on fp8 values stays fp8 and is widened later
// (arith-emulate-unsupported-floats, convert-fp8-to-integer).
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {
bool holdsFP8(Type type) {
  return tilegym::tile::isFP8(getElementTypeOrSelf(type));
}

Type asBytes(Type type) {
  if (!holdsFP8(type))
    return type;
  Type i8 = IntegerType::get(type.getContext(), 8);
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(i8);
  return i8;
}

/// A type attribute holding fp8 (a GEP's element type).
bool holdsFP8Type(NamedAttribute attr) {
  auto type = dyn_cast<TypeAttr>(attr.getValue());
  return type && holdsFP8(type.getValue());
}
} // namespace

void tilegym::detail::storeFP8AsBytes(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op->getDialect() &&
        op->getDialect()->getNamespace() ==
            LLVM::LLVMDialect::getDialectNamespace() &&
        (llvm::any_of(op->getOperandTypes(), holdsFP8) ||
         llvm::any_of(op->getResultTypes(), holdsFP8) ||
         llvm::any_of(op->getAttrs(), holdsFP8Type)))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    for (OpOperand &operand : op->getOpOperands())
      if (holdsFP8(operand.get().getType()))
        operand.set(arith::BitcastOp::create(
            b, loc, asBytes(operand.get().getType()), operand.get()));
    // Element types in attributes (a GEP's) become i8 too: fp8 is 1 byte.
    for (NamedAttribute attr : op->getAttrs())
      if (holdsFP8Type(attr))
        op->setAttr(
            attr.getName(),
            TypeAttr::get(asBytes(cast<TypeAttr>(attr.getValue()).getValue())));
    b.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      Type type = result.getType();
      if (!holdsFP8(type))
        continue;
      result.setType(asBytes(type));
      auto back = arith::BitcastOp::create(b, loc, type, result);
      result.replaceAllUsesExcept(back, back);
    }
  }
}
