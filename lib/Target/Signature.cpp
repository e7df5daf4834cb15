//===- Signature.cpp - a tile kernel's signature for the runtime ----------===//

#include "tilegym/Target/Signature.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Diagnostics.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace tilegym;

std::optional<std::string> tilegym::runtimeDTypeName(Type type) {
  if (type.isF64())
    return "f64";
  if (type.isF32())
    return "f32";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (type.isIndex())
    return "i64";
  if (type.isInteger(1) || type.isInteger(8) || type.isInteger(32) ||
      type.isInteger(64))
    return "i" + std::to_string(type.getIntOrFloatBitWidth());
  return std::nullopt;
}

static std::optional<tg_dtype> runtimeDType(Type type) {
  std::optional<std::string> name = runtimeDTypeName(type);
  if (!name)
    return std::nullopt;
  return runtime::parseDType(*name);
}

static llvm::Error errorAt(Location loc, const llvm::Twine &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn() << ": ";
  os << message;
  return llvm::createStringError(text);
}

llvm::Expected<std::vector<runtime::Param>>
tilegym::kernelSignature(func::FuncOp kernel) {
  std::vector<runtime::Param> params;
  llvm::StringRef kernelName = kernel.getSymName();
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    BlockArgument arg = kernel.getArgument(i);
    runtime::Param p;
    auto names = kernel->getAttrOfType<ArrayAttr>(tile::kParamNamesAttr);
    if (names && i < names.size())
      p.name = cast<StringAttr>(names[i]).getValue().str();
    std::string label = "parameter " + std::to_string(i) +
                        (p.name.empty() ? "" : " '" + p.name + "'");
    if (auto view = dyn_cast<tile::ViewType>(type)) {
      std::optional<tg_dtype> dtype = runtimeDType(view.getElementType());
      if (!dtype)
        return errorAt(arg.getLoc(), "kernel '" + kernelName + "': " + label +
                                         " has an unsupported element type");
      p.kind = TG_ARG_VIEW;
      p.dtype = *dtype;
      for (int64_t s : view.getShape())
        p.sizes.push_back(ShapedType::isDynamic(s) ? TG_DYNAMIC : s);
      if (auto names =
              kernel.getArgAttrOfType<ArrayAttr>(i, tile::kDimNamesAttr))
        for (Attribute n : names)
          p.dims.push_back(cast<StringAttr>(n).getValue().str());
      tile::ViewAccess access = tile::getViewAccess(arg);
      p.read = access.read;
      p.written = access.written;
      params.push_back(std::move(p));
      continue;
    }
    std::optional<tg_dtype> dtype = runtimeDType(type);
    // tg_arg carries i32, i64, f32 and f64 scalars: refuse here what no
    // launch could pass.
    if (!dtype || (*dtype != TG_I32 && *dtype != TG_I64 && *dtype != TG_F32 &&
                   *dtype != TG_F64)) {
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      os << type;
      return errorAt(arg.getLoc(),
                     "kernel '" + kernelName + "': scalar " + label + " is " +
                         typeText +
                         "; kernels take i32, index or f32 scalars (pass an "
                         "f32 and cast it in the kernel)");
    }
    p.kind = TG_ARG_SCALAR;
    p.dtype = *dtype;
    if (auto def = kernel.getArgAttr(i, tile::kDefaultAttr)) {
      llvm::raw_string_ostream os(p.defaultValue);
      if (auto f = dyn_cast<FloatAttr>(def)) {
        // The shortest text that reads back as the same value of the
        // parameter's type: 1e-05, not 9.99999975e-06, for an f32 1e-5.
        double value = f.getValueAsDouble();
        bool isF32 = f.getType().isF32();
        char text[64];
        for (int digits = 1; digits <= 17; ++digits) {
          std::snprintf(text, sizeof text, "%.*g", digits, value);
          double back = std::strtod(text, nullptr);
          if (isF32 ? float(back) == float(value) : back == value)
            break;
        }
        os << text;
      } else if (auto n = dyn_cast<IntegerAttr>(def)) {
        os << (n.getType().isInteger(1) ? n.getValue().getZExtValue()
                                        : n.getValue().getSExtValue());
      }
    }
    params.push_back(std::move(p));
  }
  return params;
}
