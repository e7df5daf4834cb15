//===- TileDialect.cpp - tile dialect and view type -----------------------===//
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilegym::tile;

#include "tilegym/Dialect/Tile/IR/TileEnums.cpp.inc"
#include "tilegym/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilegym/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilegym/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilegym/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}

/// A kernel's symbol names its PTX entry, its bundle files and its C
/// symbol: it must be a C identifier, as a `.tile` kernel's name is.
static bool isIdentifier(StringRef name) {
  if (name.empty() || name.size() > 255 ||
      !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

ViewAccess tilegym::tile::getViewAccess(BlockArgument view) {
  ViewAccess access;
  for (Operation *user : view.getUsers()) {
    if (isa<LoadOp, GatherOp>(user))
      access.read = true;
    else if (isa<StoreOp, ScatterOp>(user))
      access.written = true;
    else if (isa<AtomicRMWOp, AtomicCASOp>(user))
      access.read = access.written = true;
  }
  return access;
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned region,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kDimNamesAttr && name != kDefaultAttr)
    return op->emitError() << "unknown tile argument attribute '" << name
                           << "'";
  if (op->getNumRegions() <= region || op->getRegion(region).empty() ||
      op->getRegion(region).getNumArguments() <= argIndex)
    return op->emitError() << "'" << name << "' on a missing argument";
  Type type = op->getRegion(region).getArgument(argIndex).getType();
  if (name == kDimNamesAttr) {
    auto view = dyn_cast<ViewType>(type);
    auto names = dyn_cast<ArrayAttr>(attr.getValue());
    if (!view || !names || int64_t(names.size()) != view.getRank())
      return op->emitError() << "'" << name
                             << "' must be an array of one string per "
                                "dimension of a view argument";
    for (auto [axis, a] : llvm::enumerate(names)) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s || (!s.getValue().empty() && !isIdentifier(s.getValue())))
        return op->emitError() << "'" << name << "' entry " << axis
                               << " must be \"\" or an identifier";
      if (!s.getValue().empty() && !view.isDynamicDim(axis))
        return op->emitError() << "'" << name << "' names static dimension "
                               << axis << "; only dynamic ones take a name";
    }
    return success();
  }
  auto value = dyn_cast<TypedAttr>(attr.getValue());
  if (!value || value.getType() != type || !isa<IntegerAttr, FloatAttr>(value))
    return op->emitError() << "'" << name
                           << "' must be a number of the argument's type ("
                           << type << ")";
  return success();
}

LogicalResult tilegym::tile::verifyProgram(
    Operation *module, StringRef programName, Attribute kernelList,
    llvm::function_ref<InFlightDiagnostic()> emitError) {
  auto kernels = dyn_cast<ArrayAttr>(kernelList);
  if (!isIdentifier(programName))
    return emitError() << "program name '" << programName
                       << "' must be an identifier";
  if (SymbolTable::lookupSymbolIn(module, programName))
    return emitError() << "program '" << programName
                       << "' has the name of a kernel or function";
  if (!kernels || kernels.empty())
    return emitError() << "program '" << programName
                       << "' must be a non-empty array of kernels";
  // Parameter name -> (type, dimension names, kernel that declared it).
  llvm::StringMap<std::tuple<Type, ArrayAttr, StringRef>> seen;
  for (Attribute a : kernels) {
    auto ref = dyn_cast<FlatSymbolRefAttr>(a);
    auto kernel = ref ? dyn_cast_or_null<FunctionOpInterface>(
                            SymbolTable::lookupSymbolIn(module, ref.getAttr()))
                      : FunctionOpInterface();
    if (!kernel || !kernel->hasAttr(kKernelAttr))
      return emitError() << "program '" << programName << "': " << a
                         << " is not a kernel of the module";
    StringRef kernelName = ref.getValue();
    auto names = kernel->getAttrOfType<ArrayAttr>(kParamNamesAttr);
    if (!names) {
      if (kernels.size() > 1)
        return emitError() << "program '" << programName << "': kernel '"
                           << kernelName
                           << "' has no parameter names, which a program of "
                              "several kernels needs";
      continue;
    }
    // Malformed names are the kernel's own error (its attribute verifier,
    // which may run after this one): nothing to compare here.
    if (names.size() != kernel.getNumArguments() ||
        !llvm::all_of(names, [](Attribute n) { return isa<StringAttr>(n); }))
      continue;
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      StringRef param = cast<StringAttr>(names[i]).getValue();
      Type type = kernel.getArgumentTypes()[i];
      auto dims = kernel.getArgAttrOfType<ArrayAttr>(i, kDimNamesAttr);
      auto [it, inserted] =
          seen.try_emplace(param, std::make_tuple(type, dims, kernelName));
      if (inserted)
        continue;
      auto [firstType, firstDims, firstKernel] = it->second;
      if (firstType != type)
        return emitError() << "program '" << programName << "': parameter '"
                           << param << "' is " << type << " in kernel '"
                           << kernelName << "' but " << firstType
                           << " in kernel '" << firstKernel << "'";
      for (unsigned d = 0;
           dims && firstDims && d < std::min(dims.size(), firstDims.size());
           ++d) {
        auto hereAttr = dyn_cast<StringAttr>(dims[d]);
        auto thereAttr = dyn_cast<StringAttr>(firstDims[d]);
        if (!hereAttr || !thereAttr)
          continue; // the kernel's own verifier says what is wrong
        StringRef here = hereAttr.getValue(), there = thereAttr.getValue();
        if (!here.empty() && !there.empty() && here != there)
          return emitError() << "program '" << programName << "': parameter '"
                             << param << "' names dimension " << d << " "
                             << here << " in kernel '" << kernelName << "' but "
                             << there << " in kernel '" << firstKernel << "'";
      }
      if (!firstDims)
        it->second = std::make_tuple(type, dims, kernelName);
    }
  }
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kProgramsAttr) {
    auto programs = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !programs)
      return op->emitError()
             << "'" << name << "' must be a dictionary on a module";
    for (NamedAttribute program : programs)
      if (failed(verifyProgram(op, program.getName().getValue(),
                               program.getValue(),
                               [&] { return op->emitError(); })))
        return failure();
    return success();
  }
  if (name == kTuneSpaceAttr) {
    auto space = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !space)
      return op->emitError()
             << "'" << name << "' must be a dictionary on a module";
    for (NamedAttribute entry : space) {
      auto values = dyn_cast<ArrayAttr>(entry.getValue());
      if (!values || values.empty() ||
          !llvm::all_of(values, [](Attribute a) { return isa<StringAttr>(a); }))
        return op->emitError()
               << "'" << name << "' entry '" << entry.getName().getValue()
               << "' must be a non-empty array of strings";
    }
    return success();
  }
  if (name == kParamNamesAttr) {
    auto func = dyn_cast<FunctionOpInterface>(op);
    auto names = dyn_cast<ArrayAttr>(attr.getValue());
    if (!func || !names || names.size() != func.getNumArguments())
      return op->emitError() << "'" << name
                             << "' must be an array of one string per "
                                "argument of a function";
    for (Attribute a : names) {
      auto s = dyn_cast<StringAttr>(a);
      if (!s || !isIdentifier(s.getValue()))
        return op->emitError()
               << "'" << name << "' entries must be identifiers";
    }
    return success();
  }
  auto intIn = [&](int64_t lo, int64_t hi, bool powerOfTwo) -> LogicalResult {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value)
      return op->emitError() << "'" << name << "' must be an integer";
    int64_t v = value.getValue().getSExtValue();
    if (v < lo || v > hi || (powerOfTwo && (v & (v - 1))))
      return op->emitError() << "'" << name << "' must be "
                             << (powerOfTwo ? "a power of two " : "") << "from "
                             << lo << " to " << hi << ", got " << v;
    return success();
  };
  if (name == kKernelAttr) {
    auto func = dyn_cast<FunctionOpInterface>(op);
    if (!func)
      return op->emitError() << "'" << name << "' is only valid on a function";
    if (!isIdentifier(SymbolTable::getSymbolName(op).getValue()))
      return op->emitError()
             << "kernel name '" << SymbolTable::getSymbolName(op).getValue()
             << "' must be an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 255 "
                "characters)";
    if (func.isExternal())
      return op->emitError()
             << "kernel '" << SymbolTable::getSymbolName(op).getValue()
             << "' is only a declaration; a kernel needs a body";
    return success();
  }
  if (name == kNumWarpsAttr)
    return intIn(1, 32, /*powerOfTwo=*/true);
  if (name == kMinBlocksPerSMAttr)
    return intIn(0, 32, false);
  if (name == kPipelineBytesAttr)
    return intIn(0, INT32_MAX, false);
  if (name == kPipelineStagesAttr)
    return intIn(kMinPipelineStages, kMaxPipelineStages, false);
  if (name == kPreciseMathAttr || name == kDebugAttr || name == kUseTmaAttr)
    return intIn(0, 1, false);
  return success();
}

//===----------------------------------------------------------------------===//
// ViewType: `!tile.view<?x128xf32>`
//===----------------------------------------------------------------------===//

Type ViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return parser.getChecked<ViewType>(parser.getContext(), shape, elementType);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printDimensionList(getShape());
  if (!getShape().empty())
    printer << "x";
  printer << getElementType() << ">";
}

bool tilegym::tile::checkTileShape(ArrayRef<int64_t> shape,
                                   std::string &message) {
  if (int64_t(shape.size()) > kMaxRank) {
    message = "tile rank " + std::to_string(shape.size()) +
              " exceeds the limit of " + std::to_string(kMaxRank);
    return false;
  }
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d <= 0) {
      message = "tile sizes must be positive, got " + std::to_string(d);
      return false;
    }
    // Checked before multiplying: the product must not wrap.
    if (d > kMaxTileElements / elements) {
      std::string sizes;
      for (int64_t s : shape)
        sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
      message = "tile [" + sizes + "] exceeds the limit of " +
                std::to_string(kMaxTileElements) + " (2^20) elements per tile";
      return false;
    }
    elements *= d;
  }
  return true;
}

bool tilegym::tile::isFP8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool tilegym::tile::isElementType(Type type) {
  return type.isF64() || type.isF32() || type.isF16() || type.isBF16() ||
         isFP8(type) || type.isSignlessInteger(64) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(1);
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty())
    return emitError() << "view must have rank at least 1";
  if (int64_t(shape.size()) > kMaxRank)
    return emitError() << "view rank " << shape.size()
                       << " exceeds the limit of " << kMaxRank;
  for (int64_t d : shape)
    if (d < 0 && !ShapedType::isDynamic(d))
      return emitError() << "view sizes must be >= 0 or ?, got " << d;
  if (!isElementType(elementType))
    return emitError() << "view element type must be f64, f32, f16, bf16, "
                          "f8E4M3FN, f8E5M2, i64, i32, i8 or i1, got "
                       << elementType;
  return success();
}
