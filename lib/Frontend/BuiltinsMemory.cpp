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
      // (fp8 e4m3 has no infinity: its overflow is NaN.)
      if ((value.isInfinity() || value.isNaN()) &&
          std::isfinite(c.asDouble())) {
        error(pad->getLoc())
            << "pad value " << c.asDouble() << " is out of range for "
            << element << " (it would round to "
            << (value.isNaN() ? "NaN" : "infinity") << ")";
        return std::nullopt;
      }
      return TypedAttr(builder.getFloatAttr(ft, c.asDouble()));
    }
  if (isIntegerLike(element) && c.kind == Const::Kind::Int &&
      fitsSigned(c.i, element.getIntOrFloatBitWidth()))
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
  auto shape = tileShapeArg(*call.getArgs()[2], viewType, /*reduce=*/true);
  if (!shape)
    return Val::failure();
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  // A shape shorter than the view's rank takes the leading dimensions at
  // size 1 and drops them from the tile.
  SmallVector<int64_t> full(viewType.getRank() - shape->size(), 1);
  llvm::append_range(full, *shape);
  auto type = RankedTensorType::get(full, viewType.getElementType());
  Value tile = t::LoadOp::create(builder, loc, type, view, indices, *pad);
  if (full.size() != shape->size())
    tile = t::ReshapeOp::create(
        builder, loc, RankedTensorType::get(*shape, viewType.getElementType()),
        tile);
  return Val{tile, {}};
}

/// The tile shape argument of a load or prefetch from `view`: one positive
/// constant per view dimension, or (`reduce`) per trailing dimension.
std::optional<SmallVector<int64_t>>
MLIRGenImpl::tileShapeArg(const ExprAST &expr, t::ViewType view, bool reduce) {
  auto shape = constIntList(expr, "tile shape");
  if (!shape)
    return std::nullopt;
  int64_t n = shape->size();
  if (reduce ? (n == 0 || n > view.getRank()) : n != view.getRank()) {
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

/// A tile stored into `view`: its element type, and its rank (at most the
/// view's with `lowerRank`, the view's otherwise).
LogicalResult MLIRGenImpl::checkStoredTile(RankedTensorType type,
                                           t::ViewType view, Location loc,
                                           bool lowerRank) {
  if (lowerRank ? type.getRank() > view.getRank() || type.getRank() == 0
                : type.getRank() != view.getRank())
    return error(loc) << "cannot store a tile of rank " << type.getRank()
                      << " into a view of rank " << view.getRank()
                      << "; use reshape";
  if (type.getElementType() != view.getElementType())
    return error(loc) << "cannot store " << describe(type) << " into "
                      << describe(view) << "; use cast";
  return success();
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
  if (failed(checkStoredTile(type, viewType, call.getArgs()[2]->getLoc(),
                             /*lowerRank=*/true)))
    return Val::failure();
  // A tile of lower rank fills the trailing dimensions, the leading ones at
  // size 1.
  if (type.getRank() < viewType.getRank()) {
    SmallVector<int64_t> full(viewType.getRank() - type.getRank(), 1);
    llvm::append_range(full, type.getShape());
    value = t::ReshapeOp::create(builder, loc, type.clone(full), value);
  }
  t::StoreOp::create(builder, loc, value, view, indices);
  return Val::failure(); // no value: only statements call store
}

/// The view, coordinates, values and mask of an access at element
/// coordinates (gather, scatter, the atomics): arguments 0 and 1, the
/// `values` after them, and `mask =`, broadcast together. Atomics take
/// scalars too (coordinates i32 or index, values of the view's type,
/// constants adapting); gather and scatter take tiles.
std::optional<ElementAccessArgs>
MLIRGenImpl::elementAccessArgs(const CallExprAST &call, unsigned values,
                               bool scalars) {
  StringRef name = call.getCallee();
  ElementAccessArgs out;
  out.view = viewArg(*call.getArgs()[0], name);
  if (!out.view)
    return std::nullopt;
  auto viewType = cast<t::ViewType>(out.view.getType());
  Type elem = viewType.getElementType();
  auto *list = dyn_cast<ListExprAST>(call.getArgs()[1].get());
  if (!list ||
      static_cast<int64_t>(list->getElements().size()) != viewType.getRank()) {
    error(call.getArgs()[1]->getLoc())
        << "'" << name << "' expects a list of " << viewType.getRank()
        << " coordinate tiles, one per view dimension";
    return std::nullopt;
  }
  auto addShape = [&](Value v, Location loc) -> LogicalResult {
    auto s = broadcastShapes(out.shape, shapeOf(v.getType()), loc);
    if (!s)
      return failure();
    out.shape = *s;
    return success();
  };
  // A scalar operand of an atomic, `type` or (coordinates) index too.
  auto scalarArg = [&](const ExprAST &e, Type type, StringRef what) -> Value {
    Val v = genExpr(e);
    if (v.failed())
      return {};
    if (!v.isConst() && isa<t::ViewType>(v.value.getType())) {
      error(e.getLoc()) << "'" << name << "' expects a tile or a scalar as "
                        << what << ", got " << describe(v.value.getType());
      return {};
    }
    if (!v.isConst() && isa<RankedTensorType>(v.value.getType()))
      return v.value;
    return convertScalarTo(v, type, e.getLoc());
  };
  for (const auto &e : list->getElements()) {
    Value c = scalars ? scalarArg(*e, builder.getI32Type(), "a coordinate")
                      : tileArg(*e, name, "a coordinate");
    if (!c)
      return std::nullopt;
    if (!elementTypeOf(c.getType()).isInteger(32)) {
      error(e->getLoc()) << "coordinates must be i32 tiles, got "
                         << describe(c.getType());
      return std::nullopt;
    }
    if (failed(addShape(c, e->getLoc())))
      return std::nullopt;
    out.coords.push_back(c);
  }
  for (unsigned k = 0; k < values; ++k) {
    const ExprAST &e = *call.getArgs()[2 + k];
    Value v =
        scalars ? scalarArg(e, elem, "a value") : tileArg(e, name, "the value");
    if (!v)
      return std::nullopt;
    if (elementTypeOf(v.getType()) != elem) {
      error(e.getLoc()) << "cannot " << name << " " << describe(v.getType())
                        << " into " << describe(viewType) << "; use cast";
      return std::nullopt;
    }
    if (failed(addShape(v, call.getLoc())))
      return std::nullopt;
    out.values.push_back(v);
  }
  if (const ExprAST *m = keyword(call, "mask")) {
    Val mv = genExpr(*m);
    if (mv.failed())
      return std::nullopt;
    out.mask = materializeDefault(mv, m->getLoc());
    if (!out.mask)
      return std::nullopt;
    if (!elementTypeOf(out.mask.getType()).isInteger(1)) {
      error(m->getLoc()) << "mask must be i1, got "
                         << describe(out.mask.getType());
      return std::nullopt;
    }
    if (failed(addShape(out.mask, m->getLoc())))
      return std::nullopt;
  }
  // Scalars alone address one element: a tile of one.
  if (out.shape.empty())
    out.shape.push_back(1);
  for (Value &c : out.coords)
    c = broadcastTo(c, out.shape, call.getLoc());
  for (Value &v : out.values)
    v = broadcastTo(v, out.shape, call.getLoc());
  if (out.mask)
    out.mask = broadcastTo(out.mask, out.shape, call.getLoc());
  return out;
}

Val MLIRGenImpl::genGatherScatter(const CallExprAST &call) {
  Location loc = call.getLoc();
  bool isScatter = call.getCallee() == "scatter";
  if (failed(checkArgs(call, isScatter ? 3 : 2, isScatter ? 3 : 2,
                       isScatter ? ArrayRef<StringRef>{"mask"}
                                 : ArrayRef<StringRef>{"mask", "pad"})))
    return Val::failure();
  auto args = elementAccessArgs(call, isScatter ? 1 : 0, /*scalars=*/false);
  if (!args)
    return Val::failure();
  if (isScatter) {
    t::ScatterOp::create(builder, loc, args->values[0], args->view,
                         args->coords, args->mask);
    return Val::failure();
  }
  Type elem = cast<t::ViewType>(args->view.getType()).getElementType();
  auto pad = paddingAttr(call, elem);
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(args->shape, elem);
  return Val{t::GatherOp::create(builder, loc, type, args->view, args->coords,
                                 args->mask, *pad),
             {}};
}

/// atomic_add, atomic_max, atomic_min, atomic_xchg (view, coordinates,
/// value) and atomic_cas (view, coordinates, expected, desired): the old
/// values.
Val MLIRGenImpl::genAtomic(const CallExprAST &call) {
  StringRef name = call.getCallee();
  bool isCas = name == "atomic_cas";
  unsigned values = isCas ? 2 : 1;
  if (failed(checkArgs(call, 2 + values, 2 + values, {"mask"})))
    return Val::failure();
  auto args = elementAccessArgs(call, values, /*scalars=*/true);
  if (!args)
    return Val::failure();
  auto viewType = cast<t::ViewType>(args->view.getType());
  Type elem = viewType.getElementType();
  if (!(isa<FloatType>(elem) && !t::isFP8(elem)) && !elem.isInteger(32) &&
      !elem.isInteger(64)) {
    error(call.getArgs()[0]->getLoc())
        << "'" << name
        << "' takes a view of f64, f32, f16, bf16, i64 or i32, got "
        << describe(viewType);
    return Val::failure();
  }
  Location loc = call.getLoc();
  if (isCas)
    return Val{t::AtomicCASOp::create(builder, loc, args->values[0],
                                      args->values[1], args->view, args->coords,
                                      args->mask),
               {}};
  t::AtomicKind kind = llvm::StringSwitch<t::AtomicKind>(name)
                           .Case("atomic_add", t::AtomicKind::Add)
                           .Case("atomic_max", t::AtomicKind::Max)
                           .Case("atomic_min", t::AtomicKind::Min)
                           .Default(t::AtomicKind::Xchg);
  return Val{t::AtomicRMWOp::create(builder, loc, kind, args->values[0],
                                    args->view, args->coords, args->mask),
             {}};
}

/// The element coordinates of a tile's first element (argument 1): scalars
/// (index, i32 or constants), as i32 tiles over `shape`, element e of
/// dimension d at coordinate origin[d] + e.
std::optional<SmallVector<Value>>
MLIRGenImpl::elementCoordinates(const CallExprAST &call, t::ViewType view,
                                ArrayRef<int64_t> shape) {
  StringRef callee = call.getCallee();
  auto origin = indexList(*call.getArgs()[1], callee, view.getRank());
  if (!origin)
    return std::nullopt;
  Location loc = call.getLoc();
  SmallVector<Value> coords;
  for (auto [d, o] : llvm::enumerate(*origin)) {
    // The coordinates along d: an iota shaped [1, .., n, .., 1].
    SmallVector<int64_t> along(shape.size(), 1);
    along[d] = shape[d];
    Value iota = t::IotaOp::create(
        builder, loc, RankedTensorType::get({shape[d]}, builder.getI32Type()));
    if (along.size() > 1)
      iota = t::ReshapeOp::create(
          builder, loc, RankedTensorType::get(along, builder.getI32Type()),
          iota);
    Value start = castTo(o, builder.getI32Type(), loc);
    Value c = arith::AddIOp::create(builder, loc, iota,
                                    broadcastTo(start, along, loc));
    coords.push_back(broadcastTo(c, shape, loc));
  }
  return coords;
}

/// load_at(v, [i0, ...], shape, pad = x): the tile of `shape` whose first
/// element is v[i0, ...]; without a shape, that element as a scalar.
/// Elements outside the view read `x`.
Val MLIRGenImpl::genLoadAt(const CallExprAST &call) {
  Location loc = call.getLoc();
  if (failed(checkArgs(call, 2, 3, {"pad"})))
    return Val::failure();
  Value view = viewArg(*call.getArgs()[0], "load_at");
  if (!view)
    return Val::failure();
  auto viewType = cast<t::ViewType>(view.getType());
  bool scalar = call.getArgs().size() == 2;
  SmallVector<int64_t> shape(viewType.getRank(), 1);
  if (!scalar) {
    auto s = tileShapeArg(*call.getArgs()[2], viewType);
    if (!s)
      return Val::failure();
    shape = *s;
  }
  auto coords = elementCoordinates(call, viewType, shape);
  if (!coords)
    return Val::failure();
  auto pad = paddingAttr(call, viewType.getElementType());
  if (!pad)
    return Val::failure();
  auto type = RankedTensorType::get(shape, viewType.getElementType());
  Value tile =
      t::GatherOp::create(builder, loc, type, view, *coords, Value(), *pad);
  if (scalar)
    return Val{t::ItemOp::create(builder, loc, tile), {}};
  return Val{tile, {}};
}

/// store_at(v, [i0, ...], t): t stored with its first element at
/// v[i0, ...]; elements outside the view are skipped.
Val MLIRGenImpl::genStoreAt(const CallExprAST &call) {
  if (failed(checkArgs(call, 3, 3, {})))
    return Val::failure();
  Value view = viewArg(*call.getArgs()[0], "store_at");
  if (!view)
    return Val::failure();
  auto viewType = cast<t::ViewType>(view.getType());
  Value value = tileArg(*call.getArgs()[2], "store_at", "the value to store");
  if (!value)
    return Val::failure();
  auto type = cast<RankedTensorType>(value.getType());
  if (failed(checkStoredTile(type, viewType, call.getArgs()[2]->getLoc(),
                             /*lowerRank=*/false)))
    return Val::failure();
  auto coords = elementCoordinates(call, viewType, type.getShape());
  if (!coords)
    return Val::failure();
  t::ScatterOp::create(builder, call.getLoc(), value, view, *coords, Value());
  return Val::failure(); // no value: only statements call store_at
}

/// item(t): the element of a one-element tile as a scalar.
Val MLIRGenImpl::genItem(const CallExprAST &call) {
  if (failed(checkArgs(call, 1, 1, {})))
    return Val::failure();
  Value t = tileArg(*call.getArgs()[0], "item", "its argument");
  if (!t)
    return Val::failure();
  auto type = cast<RankedTensorType>(t.getType());
  if (type.getNumElements() != 1) {
    error(call.getArgs()[0]->getLoc())
        << "'item' takes a tile of one element, got " << describe(type);
    return Val::failure();
  }
  return Val{t::ItemOp::create(builder, call.getLoc(), t), {}};
}
