//===- BuiltinsMemory.cpp - loads, stores and their kin -------------------===//
//
// Tile loads and stores by tile index, prefetches, and element gathers and
// scatters; their padding values and index lists.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

std::optional<TypedAttr> MLIRGenImpl::paddingAttr(const CallExprAST &call,
                                                  Type element) {
  const ExprAST *pad = keyword(call, "pad");
  if (!pad)
    return TypedAttr();
  Val v = genExpr(*pad);
  if (v.failed())
    return std::nullopt;
  if (!v.isConst() ||
      (!v.cst->isNumber() && v.cst->kind != Const::Kind::Bool)) {
    error(pad->getLoc()) << "pad must be a compile-time constant";
    return std::nullopt;
  }
  const Const &c = *v.cst;
  if (auto ft = dyn_cast<FloatType>(element))
    if (c.isNumber()) {
      // A finite pad that rounds to infinity in the element type would pad
      // with a value the source never wrote.
      APFloat value(c.asDouble());
      bool losesInfo;
      value.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
      if (value.isInfinity() && std::isfinite(c.asDouble())) {
        error(pad->getLoc())
            << "pad value " << c.asDouble() << " is out of range for "
            << element << " (it would round to infinity)";
        return std::nullopt;
      }
      return TypedAttr(builder.getFloatAttr(ft, c.asDouble()));
    }
  if (element.isInteger(32) && c.kind == Const::Kind::Int &&
      c.i >= std::numeric_limits<int32_t>::min() &&
      c.i <= std::numeric_limits<int32_t>::max())
    return TypedAttr(builder.getIntegerAttr(element, c.i));
  if (element.isInteger(1) && c.kind == Const::Kind::Bool)
    return TypedAttr(builder.getBoolAttr(c.b));
  error(pad->getLoc()) << "pad value (" << kindName(c)
                       << ") does not fit element type " << element;
  return std::nullopt;
}

Val MLIRGenImpl::genLoad(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {"pad"})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto viewType = cast<t::ViewType>(view.getType());
  auto shape = tileShapeArg(*call.getArgs()[2], viewType);
  if (!shape)
    return Val::failure();
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(*shape, viewType.getElementType());
  auto op = t::LoadOp::create(builder, loc, type, view, indices, *pad);
  return Val{op, {}};
}

/// The tile shape argument of a load or prefetch from `view`: one positive
/// constant per view dimension.
std::optional<SmallVector<int64_t>>
MLIRGenImpl::tileShapeArg(const ExprAST &expr, t::ViewType view) {
  auto shape = constIntList(expr, "tile shape");
  if (!shape)
    return std::nullopt;
  if (static_cast<int64_t>(shape->size()) != view.getRank()) {
    error(expr.getLoc()) << "tile shape has " << shape->size()
                         << " entries but the view has rank " << view.getRank();
    return std::nullopt;
  }
  if (failed(checkShape(*shape, expr.getLoc())))
    return std::nullopt;
  return shape;
}

/// The view (argument 0) and tile index (argument 1) of a load, store or
/// prefetch; diagnostics name the callee.
std::optional<std::pair<Value, SmallVector<Value>>>
MLIRGenImpl::tileAccessArgs(const CallExprAST &call) {
  StringRef callee = call.getCallee();
  Value view = viewArg(*call.getArgs()[0], callee);
  if (!view)
    return std::nullopt;
  auto indices = indexList(*call.getArgs()[1], callee,
                           cast<t::ViewType>(view.getType()).getRank());
  if (!indices)
    return std::nullopt;
  return std::make_pair(view, std::move(*indices));
}

Val MLIRGenImpl::genPrefetch(const CallExprAST &call) {
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto shape =
      tileShapeArg(*call.getArgs()[2], cast<t::ViewType>(view.getType()));
  if (!shape)
    return Val::failure();
  t::PrefetchOp::create(builder, call.getLoc(), view, indices, *shape);
  return Val::failure(); // no value: only statements call prefetch
}

Val MLIRGenImpl::genStore(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  auto access = tileAccessArgs(call);
  if (!access)
    return Val::failure();
  auto &[view, indices] = *access;
  auto viewType = cast<t::ViewType>(view.getType());
  Value value = tileArg(*call.getArgs()[2], "store", "the value to store");
  if (!value)
    return Val::failure();
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() != viewType.getRank()) {
    error(call.getArgs()[2]->getLoc())
        << "cannot store a tile of rank " << type.getRank()
        << " into a view of rank " << viewType.getRank() << "; use reshape";
    return Val::failure();
  }
  if (type.getElementType() != viewType.getElementType()) {
    error(call.getArgs()[2]->getLoc())
        << "cannot store " << describe(type) << " into " << describe(viewType)
        << "; use cast";
    return Val::failure();
  }
  t::StoreOp::create(builder, loc, value, view, indices);
  return Val::failure(); // no value: only statements call store
}

Val MLIRGenImpl::genGatherScatter(const CallExprAST &call) {
  Location loc = call.getLoc();
  StringRef name = call.getCallee();
  bool isScatter = name == "scatter";
  if (failed(checkArgs(call, isScatter ? 3 : 2, isScatter ? 3 : 2,
                       isScatter ? ArrayRef<StringRef>{"mask"}
                                 : ArrayRef<StringRef>{"mask", "pad"})))
    return Val::failure();
  Value view = viewArg(*call.getArgs()[0], name);
  if (!view)
    return Val::failure();
  auto viewType = cast<t::ViewType>(view.getType());
  auto *list = dyn_cast<ListExprAST>(call.getArgs()[1].get());
  if (!list ||
      static_cast<int64_t>(list->getElements().size()) != viewType.getRank()) {
    error(call.getArgs()[1]->getLoc())
        << "'" << name << "' expects a list of " << viewType.getRank()
        << " coordinate tiles, one per view dimension";
    return Val::failure();
  }
  // Coordinates, value and mask broadcast to one shape.
  SmallVector<Value> coords;
  SmallVector<int64_t> shape;
  for (const auto &e : list->getElements()) {
    Value c = tileArg(*e, name, "a coordinate");
    if (!c)
      return Val::failure();
    if (!elementTypeOf(c.getType()).isInteger(32)) {
      error(e->getLoc()) << "coordinates must be i32 tiles, got "
                         << describe(c.getType());
      return Val::failure();
    }
    auto s = broadcastShapes(shape, shapeOf(c.getType()), e->getLoc());
    if (!s)
      return Val::failure();
    shape = *s;
    coords.push_back(c);
  }
  Value value;
  if (isScatter) {
    value = tileArg(*call.getArgs()[2], name, "the value");
    if (!value)
      return Val::failure();
    auto s = broadcastShapes(shape, shapeOf(value.getType()), loc);
    if (!s)
      return Val::failure();
    shape = *s;
    if (elementTypeOf(value.getType()) != viewType.getElementType()) {
      error(call.getArgs()[2]->getLoc())
          << "cannot scatter " << describe(value.getType()) << " into "
          << describe(viewType) << "; use cast";
      return Val::failure();
    }
  }
  Value mask;
  if (const ExprAST *m = keyword(call, "mask")) {
    Val mv = genExpr(*m);
    if (mv.failed())
      return mv;
    mask = materializeDefault(mv, m->getLoc());
    if (!mask)
      return Val::failure();
    if (!elementTypeOf(mask.getType()).isInteger(1)) {
      error(m->getLoc()) << "mask must be i1, got " << describe(mask.getType());
      return Val::failure();
    }
    auto s = broadcastShapes(shape, shapeOf(mask.getType()), m->getLoc());
    if (!s)
      return Val::failure();
    shape = *s;
  }
  for (Value &c : coords)
    c = broadcastTo(c, shape, loc);
  if (mask)
    mask = broadcastTo(mask, shape, loc);
  if (isScatter) {
    t::ScatterOp::create(builder, loc, broadcastTo(value, shape, loc), view,
                         coords, mask);
    return Val::failure();
  }
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(shape, viewType.getElementType());
  return Val{t::GatherOp::create(builder, loc, type, view, coords, mask, *pad),
             {}};
}
