//===- DebugFormat.cpp - what tile.print and tile.assert say --------------===//
#include "tilegym/Dialect/Tile/IR/DebugFormat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilegym::tile;

FileLineColLoc tilegym::tile::findSourcePosition(Location loc) {
  while (true) {
    if (auto site = dyn_cast<CallSiteLoc>(loc))
      loc = site.getCallee();
    else if (auto name = dyn_cast<NameLoc>(loc))
      loc = name.getChildLoc();
    else if (auto fused = dyn_cast<FusedLoc>(loc);
             fused && !fused.getLocations().empty())
      loc = fused.getLocations().front();
    else
      return dyn_cast<FileLineColLoc>(loc);
  }
}

std::string tilegym::tile::describeSourceLocation(Location loc) {
  FileLineColLoc file = findSourcePosition(loc);
  if (!file)
    return "<unknown>";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << file.getFilename().getValue() << ":" << file.getLine() << ":"
     << file.getColumn();
  return text;
}

/// `text` as literal printf text.
static std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

static StringRef conversionOf(Type type) {
  if (isa<FloatType>(type))
    return "%g";
  if (type.isIndex() || type.getIntOrFloatBitWidth() > 32)
    return "%lld";
  return "%d";
}

std::string tilegym::tile::printFormat(PrintOp op) {
  std::string format = escapePercent(describeSourceLocation(op.getLoc())) +
                       ": block (%d, %d, %d)";
  for (Value v : op.getValues())
    if (auto tile = dyn_cast<RankedTensorType>(v.getType())) {
      format += " [";
      for (int64_t d = 0; d < tile.getRank(); ++d)
        format += d ? ", %d" : "%d";
      format += "]";
    }
  if (!op.getPrefix().empty())
    format += " " + escapePercent(op.getPrefix());
  for (Value v : op.getValues())
    format += " " + conversionOf(getElementTypeOrSelf(v.getType())).str();
  return format + "\n";
}

Value tilegym::tile::printfArgument(OpBuilder &b, Location loc, Value scalar) {
  Type type = scalar.getType();
  if (isa<FloatType>(type)) {
    // 16-bit floats through f32: the GPU converts bf16 to f32 alone.
    if (type.getIntOrFloatBitWidth() < 32)
      scalar = arith::ExtFOp::create(b, loc, b.getF32Type(), scalar);
    return type.isF64() ? scalar
                        : arith::ExtFOp::create(b, loc, b.getF64Type(), scalar);
  }
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), scalar);
  unsigned width = type.getIntOrFloatBitWidth();
  if (width == 32 || width == 64)
    return scalar;
  if (width == 1)
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), scalar);
  Type wide = width < 32 ? b.getI32Type() : b.getI64Type();
  if (width < 64)
    return arith::ExtSIOp::create(b, loc, wide, scalar);
  return arith::TruncIOp::create(b, loc, wide, scalar);
}

std::string tilegym::tile::assertMessage(AssertOp op) {
  return describeSourceLocation(op.getLoc()) + ": " + op.getMessage().str();
}
