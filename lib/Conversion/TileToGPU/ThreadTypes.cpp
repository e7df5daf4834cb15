//===- ThreadTypes.cpp - what a kernel's values are to one thread ---------===//
#include "ThreadTypes.h"

#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::detail;

bool ThreadTypeConverter::packsPairs(RankedTensorType type, int64_t registers) {
  Type elem = type.getElementType();
  return registers % 2 == 0 && (elem.isF16() || elem.isBF16());
}

ThreadTypeConverter::ThreadTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  // A tile: the thread's registers of its layout, the layout's base
  // register bits and the bits that repeat it over the tile. Without a
  // layout a tile has no thread's share: not converted.
  addConversion([](RankedTensorType t,
                   SmallVectorImpl<Type> &out) -> std::optional<LogicalResult> {
    tilegpu::DistributedLayoutAttr layout = tilegpu::getLayout(t);
    if (!layout)
      return failure();
    int64_t registers = int64_t(1) << tilegpu::getRegisterBits(
                                          layout.getLinearBases(), t.getShape())
                                          .size();
    out.append(registers, t.getElementType());
    return success();
  });
  // A tile in shared memory: where it starts, and its offset in bytes into
  // the kernel's buffer (stages of a ring are found from it).
  addConversion([ctx](tilegpu::MemDescType, SmallVectorImpl<Type> &out) {
    out.append({LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3),
                IndexType::get(ctx)});
    return success();
  });
  // A ring's mbarriers: the same (where they start, their offset).
  addConversion([ctx](tilegpu::MBarriersType, SmallVectorImpl<Type> &out) {
    out.append({LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3),
                IndexType::get(ctx)});
    return success();
  });
  // A view: the expanded memref descriptor (allocated and aligned global
  // pointers, offset, sizes, strides), as lib/Runtime packs it.
  addConversion([ctx](tile::ViewType v, SmallVectorImpl<Type> &out) {
    auto global = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
    auto i64 = IntegerType::get(ctx, 64);
    out.append({global, global, i64});
    out.append(2 * v.getRank(), i64);
    return success();
  });
}

SmallVector<Type> ThreadTypeConverter::carriedTypes(Type type) const {
  SmallVector<Type> types;
  auto tile = dyn_cast<RankedTensorType>(type);
  if (!tile || failed(convertType(type, types)))
    return {type};
  if (!packsPairs(tile, types.size()))
    return types;
  return SmallVector<Type>(types.size() / 2,
                           VectorType::get({2}, tile.getElementType()));
}

SmallVector<Type> ThreadTypeConverter::kernelParameters(TypeRange types) const {
  SmallVector<Type> out;
  for (Type t : types) {
    if (t.isIndex()) {
      out.push_back(IntegerType::get(t.getContext(), 64));
      continue;
    }
    if (failed(convertType(t, out)))
      out.push_back(t);
  }
  return out;
}
