//===- BuiltinsDebug.cpp - print and assert -------------------------------===//
//
// `print("text", x, ...)` and `assert(cond, "message")` become tile.print
// and tile.assert. They are type-checked in every build and kept only in a
// debug one (tile-strip-debug erases them without tile.debug).
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

Val MLIRGenImpl::genPrint(const CallExprAST &call) {
  if (failed(checkArgs(call, 1, SIZE_MAX, {})))
    return Val::failure();
  ArrayRef<std::unique_ptr<ExprAST>> args = call.getArgs();
  std::string prefix;
  if (auto *text = dyn_cast<StringLitExprAST>(args.front().get())) {
    prefix = text->getValue().str();
    args = args.drop_front();
  }
  SmallVector<Value> values;
  bool hasTile = false;
  for (const std::unique_ptr<ExprAST> &arg : args) {
    if (isa<StringLitExprAST>(arg.get())) {
      error(arg->getLoc()) << "'print' takes its text first, as in print(\"x "
                              "=\", x)";
      return Val::failure();
    }
    Val v = genExpr(*arg);
    if (v.failed())
      return Val::failure();
    Value value = materializeDefault(v, arg->getLoc());
    if (!value)
      return Val::failure();
    if (isa<t::ViewType>(value.getType())) {
      error(arg->getLoc()) << "'print' cannot print a view; print a tile "
                              "loaded from it";
      return Val::failure();
    }
    if (isa<RankedTensorType>(value.getType())) {
      if (hasTile) {
        error(arg->getLoc()) << "'print' prints at most one tile; print the "
                                "others in prints of their own";
        return Val::failure();
      }
      hasTile = true;
    }
    values.push_back(value);
  }
  t::PrintOp::create(builder, call.getLoc(), prefix, values);
  return Val::failure(); // no value: only statements call print
}

Val MLIRGenImpl::genAssert(const CallExprAST &call) {
  if (failed(checkArgs(call, 1, 2, {})))
    return Val::failure();
  ArrayRef<std::unique_ptr<ExprAST>> args = call.getArgs();
  std::string message = "assertion failed";
  if (args.size() == 2) {
    auto *text = dyn_cast<StringLitExprAST>(args[1].get());
    if (!text) {
      error(args[1]->getLoc())
          << "'assert' takes a message in quotes as its second argument";
      return Val::failure();
    }
    message = text->getValue().str();
  }
  Val v = genExpr(*args[0]);
  if (v.failed())
    return Val::failure();
  Value condition = materializeDefault(v, args[0]->getLoc());
  if (!condition)
    return Val::failure();
  if (!elementTypeOf(condition.getType()).isInteger(1)) {
    error(args[0]->getLoc())
        << "'assert' expects a condition (i1 or a tile of i1), got "
        << describe(condition.getType()) << "; compare it, as in x >= 0";
    return Val::failure();
  }
  t::AssertOp::create(builder, call.getLoc(), condition, message);
  return Val::failure(); // no value: only statements call assert
}
