//===- MLIRGen.cpp - .tile AST to the tile dialect ------------------------===//
//
// Walks the AST with a scoped symbol table and emits `tile` ops, upstream
// `arith`/`math` ops on tiles (ranked tensors) and scalars, and `scf` loops.
// This file holds the declarations (kernels, consts, types, programs) and
// the entry points; MLIRGenImpl.h names the files of the rest.
//
//===----------------------------------------------------------------------===//
#include "MLIRGenImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "tilegym/Frontend/Lexer.h"
#include "tilegym/Runtime/Runtime.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::mlirgen;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

LogicalResult MLIRGenImpl::declare(StringRef name, Val val, bool isVar,
                                   Location loc) {
  if (!declared.back().insert(name).second)
    return error(loc) << "redefinition of '" << name << "' in the same scope";
  bindings.push_back({val, isVar, declared.size()});
  symbols.insert(name, &bindings.back());
  if (declared.size() == 1)
    globals[name] = &bindings.back();
  return success();
}

Attribute MLIRGenImpl::constAttr(const Const &c) {
  switch (c.kind) {
  case Const::Kind::Int:
    return builder.getI64IntegerAttr(c.i);
  case Const::Kind::Float:
    return builder.getF64FloatAttr(c.f);
  case Const::Kind::Bool:
    return builder.getBoolAttr(c.b);
  case Const::Kind::Type:
    return TypeAttr::get(c.type);
  }
  return {};
}

std::optional<Const> MLIRGenImpl::parseDefine(StringRef name, StringRef text,
                                              Location loc) {
  int64_t i;
  double f;
  if (!text.getAsInteger(0, i))
    return Const::ofInt(i);
  // Digits alone that did not convert are an integer out of range, not a
  // float: BLOCK=99999999999999999999 must not become 1e20.
  StringRef digits = text.starts_with("-") ? text.drop_front() : text;
  if (!digits.empty() &&
      digits.find_first_not_of("0123456789") == StringRef::npos) {
    error(loc) << "-D " << name << "=" << text
               << ": integer out of range (64-bit signed)";
    return std::nullopt;
  }
  if (text == "true" || text == "false")
    return Const::ofBool(text == "true");
  if (parseFloatLiteral(text, f))
    return Const::ofFloat(f);
  if (builtinScalarType(text))
    return Const::ofType(resolveType(text, loc));
  error(loc) << "-D " << name << "=" << text
             << ": expected an integer, a float, true/false or a type name";
  return std::nullopt;
}

LogicalResult MLIRGenImpl::genConstDecl(const ConstDeclAST &decl) {
  Location loc = decl.getLoc();
  std::optional<Const> value;
  auto it = defines.find(decl.getName().str());
  if (it != defines.end() && declared.size() == 1) {
    // -D overrides only the file-level consts.
    usedDefines.insert(decl.getName());
    value = parseDefine(decl.getName(), it->second, loc);
  } else if (!decl.getAlternatives().empty()) {
    value = parseDefine(decl.getName(), decl.getAlternatives().front(), loc);
  } else if (const TypeAST *type = decl.getType()) {
    if (type->isView())
      return error(loc) << "const '" << decl.getName()
                        << "' must be a scalar type, not a view type";
    if (Type ty = genType(*type))
      value = Const::ofType(ty);
  } else {
    Val v = genExpr(*decl.getValue());
    if (v.failed())
      return failure();
    if (!v.isConst())
      return error(decl.getValue()->getLoc())
             << "const '" << decl.getName()
             << "' needs a compile-time constant value, found a runtime "
             << describe(v.value.getType());
    value = v.cst;
  }
  if (!value)
    return failure();
  if (declared.size() == 1)
    fileConsts.set(decl.getName(), constAttr(*value));
  if (!decl.getAlternatives().empty()) {
    SmallVector<Attribute> values;
    for (const std::string &v : decl.getAlternatives())
      values.push_back(builder.getStringAttr(v));
    tuneSpace.set(decl.getName(), builder.getArrayAttr(values));
  }
  return declare(decl.getName(), Val{Value(), value}, /*isVar=*/false, loc);
}

Type MLIRGenImpl::resolveType(StringRef name, Location loc) {
  Type type = resolveTypeAsWritten(name, loc);
  if (options.floatsAsF64 && isa_and_nonnull<FloatType>(type))
    return builder.getF64Type();
  return type;
}

Type MLIRGenImpl::builtinScalarType(StringRef name) {
  MLIRContext *ctx = builder.getContext();
  return llvm::StringSwitch<Type>(name)
      .Case("f64", Float64Type::get(ctx))
      .Case("f32", Float32Type::get(ctx))
      .Case("f16", Float16Type::get(ctx))
      .Case("bf16", BFloat16Type::get(ctx))
      .Case("f8e4m3", Float8E4M3FNType::get(ctx))
      .Case("f8e5m2", Float8E5M2Type::get(ctx))
      .Case("i64", IntegerType::get(ctx, 64))
      .Case("i32", IntegerType::get(ctx, 32))
      .Case("i8", IntegerType::get(ctx, 8))
      .Case("i1", IntegerType::get(ctx, 1))
      .Case("index", IndexType::get(ctx))
      .Default(Type());
}

Type MLIRGenImpl::resolveTypeAsWritten(StringRef name, Location loc) {
  if (Type type = builtinScalarType(name))
    return type;
  Binding *b = lookup(name);
  if (b && b->val.isConst() && b->val.cst->kind == Const::Kind::Type)
    return b->val.cst->type;
  if (b)
    error(loc) << "'" << name << "' is not a type";
  else {
    InFlightDiagnostic diag = error(loc);
    diag << "unknown type '" << name << "'; expected ";
    llvm::interleaveComma(kScalarTypeNames, diag);
    diag << " or a type const";
  }
  return {};
}

LogicalResult MLIRGenImpl::checkShape(ArrayRef<int64_t> shape, Location loc) {
  std::string message;
  if (!t::checkTileShape(shape, message))
    return error(loc) << message;
  return success();
}

Type MLIRGenImpl::genType(const TypeAST &type) {
  Type element = resolveType(type.getElementType(), type.getLoc());
  if (!element || !type.isView())
    return element;
  if (element.isIndex()) {
    error(type.getLoc()) << "view element type must be a float or i64, i32, "
                            "i8 or i1, not index";
    return {};
  }
  SmallVector<int64_t> shape;
  for (auto [d, name] : llvm::zip(type.getDims(), type.getDimNames())) {
    if (name.empty()) {
      shape.push_back(d == TypeAST::kDynamic ? ShapedType::kDynamic : d);
      continue;
    }
    // A name is a const (the size is static) or a size the launch gives.
    Binding *b = lookup(name);
    if (!b) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (!b->val.isConst() || b->val.cst->kind != Const::Kind::Int) {
      error(type.getLoc()) << "view dimension '" << name << "' names "
                           << (b->val.isConst() ? kindName(*b->val.cst)
                                                : StringRef("a parameter"))
                           << "; expected a new size name or an integer const";
      return {};
    }
    if (b->val.cst->i < 0) {
      error(type.getLoc()) << "view dimension '" << name << "' is "
                           << b->val.cst->i << "; a size cannot be negative";
      return {};
    }
    shape.push_back(b->val.cst->i);
  }
  if (shape.empty()) {
    error(type.getLoc()) << "view must have at least one dimension";
    return {};
  }
  if (int64_t(shape.size()) > t::kMaxRank) {
    error(type.getLoc()) << "view rank " << shape.size()
                         << " exceeds the limit of " << t::kMaxRank;
    return {};
  }
  return t::ViewType::get(builder.getContext(), shape, element);
}

LogicalResult MLIRGenImpl::genKernel(const KernelAST &kernel, ModuleOp module) {
  Location loc = kernel.getLoc();
  Scope scope(*this);
  SmallVector<Type> paramTypes;
  for (const ParamAST &param : kernel.getParams()) {
    Type type = genType(param.type);
    if (!type)
      return failure();
    paramTypes.push_back(type);
  }

  std::string gridName = (kernel.getName() + "__grid").str();
  if (failed(genGridFunction(kernel, paramTypes, gridName, module)))
    return failure();

  int64_t warps = 4;
  if (const ExprAST *w = kernel.getWarps()) {
    std::optional<int64_t> n = constInt(*w, "warps");
    if (!n)
      return failure();
    if (*n < 1 || *n > 32 || (*n & (*n - 1)))
      return error(w->getLoc()) << "warps must be a power of two from 1 to "
                                   "32, got "
                                << *n;
    warps = *n;
  }
  std::optional<int64_t> stages;
  if (const ExprAST *s = kernel.getStages()) {
    stages = constInt(*s, "stages");
    if (!stages)
      return failure();
    if (*stages < t::kMinPipelineStages || *stages > t::kMaxPipelineStages)
      return error(s->getLoc())
             << "stages must be from " << t::kMinPipelineStages << " to "
             << t::kMaxPipelineStages << ", got " << *stages;
  }

  // A clause of levels lowest..N (`tma`, `specialize`: 0 or 1;
  // `persistent`, `overlap`: up to 2; `cluster`: 1 or 2), `meanings[i]`
  // saying what level lowest + i does: its value, none when absent.
  auto readLevel =
      [&](const ExprAST *e, StringRef name, ArrayRef<StringRef> meanings,
          int64_t lowest = 0) -> FailureOr<std::optional<int64_t>> {
    if (!e)
      return std::optional<int64_t>();
    std::optional<int64_t> v = constInt(*e, name);
    if (!v)
      return failure();
    int64_t top = lowest + meanings.size() - 1;
    if (*v < lowest || *v > top) {
      InFlightDiagnostic d = error(e->getLoc());
      d << name << " must be ";
      for (int64_t level = top; level >= lowest; --level)
        d << (level == top      ? ""
              : level == lowest ? " or "
                                : ", ")
          << level << " (" << meanings[level - lowest] << ")";
      d << ", got " << *v;
      return failure();
    }
    return v;
  };
  FailureOr<std::optional<int64_t>> tma = readLevel(
      kernel.getTma(), "tma",
      {"cp.async only", "the TMA copies staged dot operands where it can"});
  FailureOr<std::optional<int64_t>> specialize = readLevel(
      kernel.getSpecialize(), "specialize",
      {"every warp runs the whole body",
       "producer warps issue the TMA's copies where the kernel allows"});
  FailureOr<std::optional<int64_t>> persistent = readLevel(
      kernel.getPersistent(), "persistent",
      {"one block per tile",
       "as many blocks as the GPU holds at once run the grid's tiles in turn",
       "as 1, and the last waves' tiles are cut along K between the blocks: "
       "stream-K"});
  FailureOr<std::optional<int64_t>> overlap = readLevel(
      kernel.getOverlap(), "overlap",
      {"each iteration's dots waited for in it",
       "a specialized loop's last dot runs under the next iteration's work",
       "as 1, and the consumer warpgroups take turns issuing their dots"});
  FailureOr<std::optional<int64_t>> cluster = readLevel(
      kernel.getCluster(), "cluster",
      {"none", "blocks paired along the grid's y share the tiles both load"},
      /*lowest=*/1);
  if (failed(tma) || failed(specialize) || failed(persistent) ||
      failed(overlap) || failed(cluster))
    return failure();

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc, kernel.getName(),
                                   builder.getFunctionType(paramTypes, {}));
  func->setAttr(t::kKernelAttr, builder.getUnitAttr());
  func->setAttr(t::kGridFnAttr,
                FlatSymbolRefAttr::get(builder.getContext(), gridName));
  func->setAttr(t::kNumWarpsAttr, builder.getI64IntegerAttr(warps));
  SmallVector<Attribute> names;
  for (const ParamAST &param : kernel.getParams())
    names.push_back(builder.getStringAttr(param.name));
  func->setAttr(t::kParamNamesAttr, builder.getArrayAttr(names));
  if (stages)
    func->setAttr(t::kPipelineStagesAttr, builder.getI64IntegerAttr(*stages));
  if (*tma)
    func->setAttr(t::kUseTmaAttr, builder.getI64IntegerAttr(**tma));
  if (*specialize)
    func->setAttr(t::kSpecializeAttr, builder.getI64IntegerAttr(**specialize));
  if (*persistent)
    func->setAttr(t::kPersistentAttr, builder.getI64IntegerAttr(**persistent));
  if (*cluster)
    func->setAttr(t::kClusterAttr, builder.getI64IntegerAttr(**cluster));
  if (*overlap)
    func->setAttr(t::kOverlapAttr, builder.getI64IntegerAttr(**overlap));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  Scope body(*this);
  for (auto [param, arg] :
       llvm::zip(kernel.getParams(), entry->getArguments())) {
    // Each argument keeps its parameter's location, for errors about it.
    arg.setLoc(param.loc);
    if (failed(declare(param.name, Val{arg, {}}, false, param.loc)))
      return failure();
  }
  if (failed(declareDimNames(kernel, entry, func)) ||
      failed(genParamDefaults(kernel, func)))
    return failure();
  // A return inside a loop or branch sets the return flag: what follows it
  // runs only if it did not.
  bool nestedReturn =
      llvm::any_of(kernel.getBody(), [](const std::unique_ptr<StmtAST> &s) {
        return !isa<ReturnStmtAST>(s.get()) && (jumpsOf(*s) & kReturn);
      });
  if (nestedReturn && failed(declareFlag(kReturnFlag, loc)))
    return failure();
  if (failed(genBlock(kernel.getBody(), /*kernelBody=*/true)))
    return failure();
  func::ReturnOp::create(builder, loc);
  return success();
}

/// Binds each dynamic dimension name to its size (`tile.dim` of the first
/// view that names it), as an index scalar usable in the body and the grid;
/// on the kernel function (`kernelFn`), records the names as kDimNamesAttr.
LogicalResult MLIRGenImpl::declareDimNames(const KernelAST &kernel,
                                           Block *entry,
                                           func::FuncOp kernelFn) {
  llvm::StringSet<> bound;
  for (auto [i, param] : llvm::enumerate(kernel.getParams())) {
    if (!param.type.isView())
      continue;
    const std::vector<std::string> &names = param.type.getDimNames();
    if (llvm::all_of(names, [](const std::string &n) { return n.empty(); }))
      continue;
    Value view = entry->getArgument(i);
    auto viewType = cast<t::ViewType>(view.getType());
    SmallVector<Attribute> attrs;
    for (auto [axis, name] : llvm::enumerate(names)) {
      // A name given by a const made the dimension static: nothing to bind.
      bool isSizeName = !name.empty() && viewType.isDynamicDim(axis);
      attrs.push_back(builder.getStringAttr(isSizeName ? name : ""));
      if (!isSizeName || !bound.insert(name).second)
        continue;
      if (declared.back().contains(name))
        return error(param.loc)
               << "view dimension '" << name << "' has the name of a parameter";
      Value size = t::DimOp::create(builder, param.loc, view, axis);
      if (failed(declare(name, Val{size, {}}, false, param.loc)))
        return failure();
    }
    if (kernelFn)
      kernelFn.setArgAttr(i, t::kDimNamesAttr, builder.getArrayAttr(attrs));
  }
  return success();
}

/// Folds each scalar parameter's `= expr` to a constant of its type and
/// records it as the argument's kDefaultAttr.
LogicalResult MLIRGenImpl::genParamDefaults(const KernelAST &kernel,
                                            func::FuncOp kernelFn) {
  for (auto [i, param] : llvm::enumerate(kernel.getParams())) {
    if (!param.defaultValue)
      continue;
    Type type = kernelFn.getArgumentTypes()[i];
    Val v;
    {
      // Folding builds no ops, but a runtime expression would: keep them
      // out of the kernel.
      Block scratch;
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&scratch);
      v = genExpr(*param.defaultValue);
    }
    if (v.failed())
      return failure();
    Location loc = param.defaultValue->getLoc();
    if (!v.isConst() || v.cst->kind == Const::Kind::Type)
      return error(loc) << "default of '" << param.name
                        << "' must be a compile-time number or boolean";
    const Const &c = *v.cst;
    TypedAttr attr;
    if (auto f = dyn_cast<FloatType>(type)) {
      if (!c.isNumber())
        return error(loc) << "default of '" << param.name << "' must be a "
                          << "number for a " << describe(type) << " parameter";
      attr = builder.getFloatAttr(f, c.asDouble());
    } else if (type.isInteger(1)) {
      if (c.kind != Const::Kind::Bool)
        return error(loc) << "default of '" << param.name
                          << "' must be true or false for an i1 parameter";
      attr = builder.getBoolAttr(c.b);
    } else {
      if (c.kind != Const::Kind::Int)
        return error(loc) << "default of '" << param.name
                          << "' must be an integer for a " << describe(type)
                          << " parameter";
      if (!type.isIndex() && !fitsSigned(c.i, type.getIntOrFloatBitWidth()))
        return error(loc) << "default " << c.i << " of '" << param.name
                          << "' does not fit in " << describe(type);
      attr = builder.getIntegerAttr(type, c.i);
    }
    kernelFn.setArgAttr(i, t::kDefaultAttr, attr);
  }
  return success();
}

/// `@<kernel>__grid(params) -> (index, index, index)`: the launch grid as a
/// function of the arguments, so every backend evaluates the same thing.
LogicalResult MLIRGenImpl::genGridFunction(const KernelAST &kernel,
                                           ArrayRef<Type> paramTypes,
                                           StringRef name, ModuleOp module) {
  Location loc = kernel.getLoc();
  builder.setInsertionPointToEnd(module.getBody());
  Type index = builder.getIndexType();
  auto func = func::FuncOp::create(
      builder, loc, name,
      builder.getFunctionType(paramTypes, {index, index, index}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Scope scope(*this);
  for (auto [param, arg] : llvm::zip(kernel.getParams(), entry->getArguments()))
    if (failed(declare(param.name, Val{arg, {}}, false, param.loc)))
      return failure();
  if (failed(declareDimNames(kernel, entry, /*kernelFn=*/{})))
    return failure();
  SmallVector<Value> sizes;
  llvm::SaveAndRestore<bool> gridScope(inGrid, true);
  static const char *axes[] = {"x", "y", "z"};
  const int64_t *limits = runtime::kMaxGridSize;
  for (const auto &expr : kernel.getGrid()) {
    Val v = genExpr(*expr);
    if (v.failed())
      return failure();
    // A constant size is checked against CUDA's launch limits here, where
    // the source can be pointed at; runtime sizes are checked at launch
    // (runtime::checkGridLimits), which accepts an empty grid. A constant 0
    // is refused: the kernel would never run.
    if (v.isConst() && v.cst->kind == Const::Kind::Int) {
      size_t d = sizes.size();
      if (v.cst->i < 1 || v.cst->i > limits[d])
        return error(expr->getLoc())
               << "grid size " << axes[d] << " = " << v.cst->i
               << " is outside [1, " << limits[d] << "] (CUDA's launch limit)";
    }
    Value size = indexValue(v, expr->getLoc(), "grid size");
    if (!size)
      return failure();
    sizes.push_back(size);
  }
  while (sizes.size() < 3)
    sizes.push_back(arith::ConstantIndexOp::create(builder, loc, 1));
  func::ReturnOp::create(builder, loc, sizes);
  return success();
}

/// The kernels of `program` as an array of symbols, or null after an error
/// at the program or at the kernel it is about.
Attribute MLIRGenImpl::genProgram(const ProgramDeclAST &program,
                                  ModuleOp module,
                                  const llvm::StringSet<> &kernelNames,
                                  const NamedAttrList &earlier) {
  StringRef name = program.getName();
  if (earlier.get(name)) {
    error(program.getLoc()) << "redefinition of program '" << name << "'";
    return nullptr;
  }
  if (kernelNames.contains(name)) {
    error(program.getLoc())
        << "program '" << name << "' has the name of a kernel";
    return nullptr;
  }
  SmallVector<Attribute> kernels;
  for (const ProgramDeclAST::KernelRef &k : program.getKernels()) {
    if (!kernelNames.contains(k.name)) {
      error(k.loc) << "program '" << name << "' runs '" << k.name
                   << "', which is not a kernel of this file";
      return nullptr;
    }
    kernels.push_back(FlatSymbolRefAttr::get(builder.getContext(), k.name));
  }
  ArrayAttr list = builder.getArrayAttr(kernels);
  if (failed(t::verifyProgram(module, name, list,
                              [&] { return error(program.getLoc()); })))
    return nullptr;
  return list;
}

OwningOpRef<ModuleOp> MLIRGenImpl::generate(const ModuleAST &ast) {
  MLIRContext *ctx = builder.getContext();
  ctx->loadDialect<t::TileDialect, arith::ArithDialect, math::MathDialect,
                   scf::SCFDialect, func::FuncDialect>();
  Location fileLoc = builder.getUnknownLoc();
  if (!ast.getDecls().empty())
    fileLoc = ast.getDecls().front()->getLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);

  Scope global(*this);
  // Functions first: a kernel may call one defined after it.
  for (const auto &decl : ast.getDecls())
    if (auto *fn = dyn_cast<FunctionAST>(decl.get()))
      (void)declareFunction(*fn);
  llvm::StringSet<> kernelNames;
  for (const auto &decl : ast.getDecls()) {
    if (auto *c = dyn_cast<ConstDeclAST>(decl.get())) {
      // A file-level const whose value is not constant (`block_id(0) - 1`)
      // builds runtime ops before it is refused: they go into a scratch
      // block, destroyed with it, instead of leaking unattached.
      Block scratch;
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&scratch);
      (void)genConstDecl(*c);
      continue;
    }
    if (isa<ProgramDeclAST, FunctionAST, ImportDeclAST>(decl.get()))
      continue; // Programs after every kernel: they may name later ones.
    auto *k = cast<KernelAST>(decl.get());
    if (!kernelNames.insert(k->getName()).second) {
      error(k->getLoc()) << "redefinition of kernel '" << k->getName() << "'";
      continue;
    }
    if (k->getName().ends_with("__grid")) {
      error(k->getLoc()) << "kernel names ending in '__grid' are reserved for "
                            "grid functions";
      continue;
    }
    (void)genKernel(*k, *module);
  }
  for (const auto &define : defines)
    if (!usedDefines.contains(define.first))
      error(fileLoc) << "-D " << define.first
                     << " does not name a file-level const";
  // Programs are checked against the kernels' signatures, so only once
  // every kernel was generated.
  NamedAttrList programs;
  for (const auto &decl : ast.getDecls())
    if (auto *p = dyn_cast<ProgramDeclAST>(decl.get()); p && !numErrors)
      if (Attribute kernels = genProgram(*p, *module, kernelNames, programs))
        programs.append(p->getName(), kernels);
  if (numErrors)
    return nullptr;
  (*module)->setAttr(t::kConstsAttr, fileConsts.getDictionary(ctx));
  if (!programs.empty())
    (*module)->setAttr(t::kProgramsAttr, programs.getDictionary(ctx));
  if (!tuneSpace.empty())
    (*module)->setAttr(t::kTuneSpaceAttr, tuneSpace.getDictionary(ctx));
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

bool tilegym::parseDefines(const std::vector<std::string> &args,
                           Defines &defines, std::string &error) {
  for (const std::string &arg : args) {
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "-D expects NAME=VALUE, got '" + arg + "'";
      return false;
    }
    defines[arg.substr(0, eq)] = arg.substr(eq + 1);
  }
  return true;
}

OwningOpRef<ModuleOp> tilegym::mlirGen(MLIRContext &context,
                                       const ModuleAST &module,
                                       const Defines &defines,
                                       const FrontendOptions &options) {
  return MLIRGenImpl(context, defines, options).generate(module);
}
