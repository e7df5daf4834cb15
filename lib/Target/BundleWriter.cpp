//===- BundleWriter.cpp - writing kernel bundles from tile IR -------------===//
#include "tilegym/Target/BundleWriter.h"
#include "tilegym/Target/CopyAddresses.h"

// Only for the format constants; the reader defines the format.
#include "tilegym/Bundle/Bundle.h"
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Runtime/Program.h"
#include "tilegym/Target/Signature.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilegym;

/// A JSON object's members in the order they are written: the manifest
/// keeps "op" or "kind" first, and puts each small object on one line.
using Fields = std::vector<std::pair<std::string, llvm::json::Value>>;

static std::string compact(const Fields &fields) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream j(os);
  j.object([&] {
    for (const auto &[key, value] : fields)
      j.attribute(key, value);
  });
  return text;
}

static llvm::Error errorAt(Location loc, const llvm::Twine &message) {
  std::string where;
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    where = (file.getFilename().str() + ":" + llvm::Twine(file.getLine()) +
             ":" + llvm::Twine(file.getColumn()) + ": ")
                .str();
  return llvm::createStringError(where + message.str());
}

/// Element and scalar type names as the runtime spells them; index is 64-bit
/// on the GPU.
/// Width of an integer or index value; 0 for anything else.
static unsigned bitsOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(type))
    return i.getWidth();
  return 0;
}

namespace {

/// Serializes a grid function into the manifest's SSA op list. Values are
/// numbered in the order they are emitted; scalar parameters become "arg"
/// ops when first used.
class GridSerializer {
public:
  GridSerializer(func::FuncOp kernel, func::FuncOp grid)
      : kernel(kernel), grid(grid) {}

  llvm::Error run() {
    for (Operation &op : grid.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands()) {
          auto id = idOf(v, &op);
          if (!id)
            return id.takeError();
          results.push_back(*id);
        }
        continue;
      }
      if (llvm::Error err = serialize(op))
        return err;
    }
    return llvm::Error::success();
  }

  std::vector<std::string> ops; // Compact JSON objects.
  std::vector<int64_t> results;

private:
  func::FuncOp kernel, grid;
  llvm::DenseMap<Value, int64_t> ids;

  llvm::Error unsupported(Operation *op, const llvm::Twine &why) {
    return errorAt(op->getLoc(),
                   "kernel '" + kernel.getSymName() + "': grid function op '" +
                       op->getName().getStringRef() + "' " + why +
                       " (a bundle's grid supports tile.dim, tile.num_tiles, "
                       "tile.cdiv, arith.constant and integer arith ops on "
                       "index and i32)");
  }

  llvm::Expected<int64_t> idOf(Value v, Operation *user) {
    auto it = ids.find(v);
    if (it != ids.end())
      return it->second;
    auto arg = dyn_cast<BlockArgument>(v);
    // Only block arguments can be missing: ops are numbered in order.
    if (!arg || !bitsOf(arg.getType()))
      return unsupported(user,
                         "uses a parameter that is not an integer scalar");
    Fields op{{"op", "arg"}, {"arg", arg.getArgNumber()}};
    return emit(v, std::move(op));
  }

  int64_t emit(Value result, Fields op) {
    unsigned bits = bitsOf(result.getType());
    if (bits != 64)
      op.push_back({"bits", bits});
    ops.push_back(compact(op));
    return ids[result] = int64_t(ops.size()) - 1;
  }

  llvm::Expected<unsigned> viewArg(Operation *op, Value view) {
    auto arg = dyn_cast<BlockArgument>(view);
    if (!arg)
      return unsupported(op, "reads a view that is not a parameter");
    return arg.getArgNumber();
  }

  llvm::Error serialize(Operation &op) {
    if (op.getNumResults() != 1 || !bitsOf(op.getResult(0).getType()))
      return unsupported(&op, "does not give one integer or index value");
    Value result = op.getResult(0);
    if (auto dim = dyn_cast<tile::DimOp>(op)) {
      auto arg = viewArg(&op, dim.getView());
      if (!arg)
        return arg.takeError();
      emit(result,
           Fields{{"op", "dim"}, {"arg", *arg}, {"axis", dim.getAxis()}});
      return llvm::Error::success();
    }
    if (auto tiles = dyn_cast<tile::NumTilesOp>(op)) {
      auto arg = viewArg(&op, tiles.getView());
      if (!arg)
        return arg.takeError();
      emit(result, Fields{{"op", "num_tiles"},
                          {"arg", *arg},
                          {"axis", tiles.getAxis()},
                          {"tile", tiles.getTileSize()}});
      return llvm::Error::success();
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      auto value = dyn_cast<IntegerAttr>(cst.getValue());
      if (!value)
        return unsupported(&op, "is not an integer constant");
      emit(result,
           Fields{{"op", "const"}, {"value", value.getValue().getSExtValue()}});
      return llvm::Error::success();
    }

    // Every other op takes its operands as SSA values.
    llvm::SmallVector<int64_t> in;
    for (Value v : op.getOperands()) {
      auto id = idOf(v, &op);
      if (!id)
        return id.takeError();
      in.push_back(*id);
    }
    if (isa<tile::CdivOp>(op)) {
      emit(result, Fields{{"op", "cdiv"}, {"lhs", in[0]}, {"rhs", in[1]}});
      return llvm::Error::success();
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      emit(result, Fields{{"op", "cmpi"},
                          {"predicate",
                           arith::stringifyCmpIPredicate(cmp.getPredicate())},
                          {"lhs", in[0]},
                          {"rhs", in[1]}});
      return llvm::Error::success();
    }
    if (isa<arith::SelectOp>(op)) {
      emit(result, Fields{{"op", "select"},
                          {"cond", in[0]},
                          {"lhs", in[1]},
                          {"rhs", in[2]}});
      return llvm::Error::success();
    }
    if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(op)) {
      emit(result, Fields{{"op", "cast"}, {"signed", true}, {"lhs", in[0]}});
      return llvm::Error::success();
    }
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op)) {
      emit(result, Fields{{"op", "cast"}, {"signed", false}, {"lhs", in[0]}});
      return llvm::Error::success();
    }
    static const llvm::StringSet<> binaryOps = {
        "arith.addi",       "arith.subi",  "arith.muli",  "arith.divsi",
        "arith.divui",      "arith.remsi", "arith.remui", "arith.ceildivsi",
        "arith.floordivsi", "arith.maxsi", "arith.minsi", "arith.maxui",
        "arith.minui",      "arith.andi",  "arith.ori",   "arith.xori"};
    llvm::StringRef name = op.getName().getStringRef();
    if (!binaryOps.contains(name))
      return unsupported(&op, "cannot be evaluated by the runtime");
    emit(result, Fields{{"op", name.drop_front(strlen("arith."))},
                        {"lhs", in[0]},
                        {"rhs", in[1]}});
    return llvm::Error::success();
  }
};

/// The manifest's view of one kernel, gathered before anything is written.
struct KernelEntry {
  func::FuncOp kernel;
  const GpuKernelBinary *binary;
  std::vector<std::string> params; // Compact JSON objects.
  std::vector<std::string> gridOps;
  std::vector<int64_t> gridResults;
};

} // namespace

static llvm::Error collectKernel(ModuleOp module, func::FuncOp kernel,
                                 const GpuKernelBinary &binary,
                                 KernelEntry &entry) {
  entry.kernel = kernel;
  entry.binary = &binary;
  llvm::StringRef name = kernel.getSymName();
  if (binary.ptx.empty())
    return errorAt(kernel.getLoc(), "kernel '" + name + "' has no PTX");
  auto signature = kernelSignature(kernel);
  if (!signature)
    return signature.takeError();
  for (const runtime::Param &p : *signature) {
    Fields fields{{"kind", p.kind == TG_ARG_VIEW ? "view" : "scalar"},
                  {"dtype", runtime::dtypeName(p.dtype)}};
    if (!p.name.empty())
      fields.push_back({"name", p.name});
    if (p.kind == TG_ARG_SCALAR) {
      if (!p.defaultValue.empty())
        fields.push_back({"default", p.defaultValue});
      entry.params.push_back(compact(fields));
      continue;
    }
    llvm::json::Array sizes, dims;
    for (int64_t s : p.sizes)
      sizes.push_back(s);
    for (const std::string &d : p.dims)
      dims.push_back(d);
    fields.push_back({"rank", int64_t(p.sizes.size())});
    fields.push_back({"sizes", std::move(sizes)});
    if (!p.dims.empty())
      fields.push_back({"dims", std::move(dims)});
    fields.push_back({"access", p.read && p.written ? "readwrite"
                                : p.written         ? "write"
                                : p.read            ? "read"
                                                    : "none"});
    entry.params.push_back(compact(fields));
  }

  auto gridRef = kernel->getAttrOfType<FlatSymbolRefAttr>(tile::kGridFnAttr);
  if (!gridRef)
    return errorAt(kernel.getLoc(),
                   "kernel '" + name + "' has no " + tile::kGridFnAttr);
  auto grid = module.lookupSymbol<func::FuncOp>(gridRef.getAttr());
  if (!grid || grid.isExternal() || grid.getNumResults() != 3 ||
      grid.getArgumentTypes() != kernel.getArgumentTypes())
    return errorAt(kernel.getLoc(),
                   "kernel '" + name + "': grid function " +
                       gridRef.getValue() +
                       " must be defined here, take the kernel's parameters "
                       "and return three sizes");
  GridSerializer serializer(kernel, grid);
  if (llvm::Error err = serializer.run())
    return err;
  entry.gridOps = std::move(serializer.ops);
  entry.gridResults = std::move(serializer.results);
  return llvm::Error::success();
}

/// The consts as the strings the verifier's reference options use:
/// integers in decimal, booleans 1/0, types by name.
static llvm::json::Object constsOf(ModuleOp module) {
  llvm::json::Object consts;
  auto dict = module->getAttrOfType<DictionaryAttr>(tile::kConstsAttr);
  if (!dict)
    return consts;
  for (NamedAttribute attr : dict) {
    std::string value;
    llvm::raw_string_ostream os(value);
    if (auto b = dyn_cast<BoolAttr>(attr.getValue()))
      os << (b.getValue() ? "1" : "0");
    else if (auto i = dyn_cast<IntegerAttr>(attr.getValue()))
      os << i.getValue().getSExtValue();
    else if (auto f = dyn_cast<FloatAttr>(attr.getValue()))
      os << f.getValueAsDouble();
    else if (auto t = dyn_cast<TypeAttr>(attr.getValue()))
      os << t.getValue();
    else
      attr.getValue().print(os);
    consts[attr.getName().str()] = value;
  }
  return consts;
}

/// The module's programs as manifest lines, {"name", "kernels"}, each
/// checked as a launch merges its kernels' signatures.
static llvm::Error collectPrograms(ModuleOp module,
                                   std::vector<std::string> &lines) {
  auto programs = module->getAttrOfType<DictionaryAttr>(tile::kProgramsAttr);
  if (!programs)
    return llvm::Error::success();
  for (NamedAttribute program : programs) {
    std::vector<std::string> names;
    std::vector<std::vector<runtime::Param>> signatures;
    llvm::json::Array kernels;
    for (Attribute a : cast<ArrayAttr>(program.getValue())) {
      auto ref = cast<FlatSymbolRefAttr>(a);
      auto kernel = module.lookupSymbol<func::FuncOp>(ref.getAttr());
      auto signature = kernelSignature(kernel);
      if (!signature)
        return signature.takeError();
      names.push_back(ref.getValue().str());
      signatures.push_back(std::move(*signature));
      kernels.push_back(ref.getValue());
    }
    runtime::ProgramSignature merged;
    std::string error;
    if (!runtime::mergeSignatures(names, signatures, merged, error))
      return errorAt(module.getLoc(), "program '" +
                                          program.getName().getValue() +
                                          "': " + error);
    lines.push_back(compact({{"name", program.getName().getValue()},
                             {"kernels", std::move(kernels)}}));
  }
  return llvm::Error::success();
}

static llvm::Error writeFile(const llvm::Twine &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path.str(), ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write " + path.str() + ": " +
                                   ec.message());
  os << bytes;
  os.close();
  if (os.has_error())
    return llvm::createStringError("cannot write " + path.str() + ": " +
                                   os.error().message());
  return llvm::Error::success();
}

llvm::Error
tilegym::writeBundle(llvm::StringRef dir, ModuleOp tileModule,
                     llvm::StringRef target,
                     const std::map<std::string, GpuKernelBinary> &binaries) {
  std::vector<KernelEntry> entries;
  llvm::StringSet<> kernelNames;
  for (auto kernel : tileModule.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(tile::kKernelAttr))
      continue;
    std::string name = kernel.getSymName().str();
    kernelNames.insert(name);
    auto it = binaries.find(name);
    if (it == binaries.end())
      return errorAt(kernel.getLoc(),
                     "no GPU binary for kernel '" + name + "'");
    entries.emplace_back();
    if (llvm::Error err =
            collectKernel(tileModule, kernel, it->second, entries.back()))
      return err;
  }
  if (entries.empty())
    return errorAt(tileModule.getLoc(), "the module has no kernel to bundle");
  for (const auto &[name, binary] : binaries)
    if (!kernelNames.contains(name))
      return llvm::createStringError("a GPU binary is given for '" + name +
                                     "', which is not a kernel of the module");

  std::vector<std::string> programs;
  if (llvm::Error err = collectPrograms(tileModule, programs))
    return err;

  std::string source;
  if (auto file = tileModule.getLoc()->findInstanceOf<FileLineColLoc>())
    source = file.getFilename().str();

  std::string manifest;
  llvm::raw_string_ostream os(manifest);
  llvm::json::OStream j(os, /*IndentSize=*/2);
  auto oneLine = [&](llvm::StringRef key, llvm::StringRef json) {
    j.attributeBegin(key);
    j.rawValue([&](llvm::raw_ostream &out) { out << json; });
    j.attributeEnd();
  };
  // An array of small objects, one per line.
  auto lines = [&](llvm::StringRef key, const std::vector<std::string> &items) {
    j.attributeArray(key, [&] {
      for (const std::string &item : items)
        j.rawValue([&](llvm::raw_ostream &out) { out << item; });
    });
  };
  j.object([&] {
    j.attribute("format", bundle::kFormatName);
    j.attribute("version", bundle::kKernelsFormatVersion);
    j.attribute("source", source);
    j.attribute("target", target);
    j.attribute("view_abi", bundle::kViewAbi);
    j.attribute("consts", constsOf(tileModule));
    j.attributeArray("kernels", [&] {
      for (KernelEntry &e : entries) {
        llvm::StringRef name = e.kernel.getSymName();
        auto warps = e.kernel->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttr);
        int64_t numWarps = warps ? warps.getInt() : 4;
        int64_t producerWarps = e.binary->producerWarps;
        j.object([&] {
          j.attribute("name", name);
          j.attribute("entry",
                      e.binary->entry.empty() ? name.str() : e.binary->entry);
          j.attribute("num_warps", numWarps);
          if (producerWarps)
            j.attribute("producer_warps", producerWarps);
          if (int64_t blocks = e.binary->persistentBlocksPerSM)
            j.attribute("persistent_blocks_per_sm", blocks);
          if (e.binary->clusterBlocks > 1)
            j.attribute("cluster_blocks", e.binary->clusterBlocks);
          oneLine("block", "[" +
                               std::to_string((numWarps + producerWarps) * 32) +
                               ", 1, 1]");
          j.attribute("shared_bytes", e.binary->sharedBytes);
          // Dots that round more coarsely than their element types: a
          // reader comparing the kernel's f32 outputs (a tuner checking
          // variants against each other) allows tf32's error, not f32's.
          llvm::StringRef rounding =
              tile::getCoarseDotRounding(e.kernel, target);
          if (!rounding.empty())
            j.attribute("dot_rounding", rounding);
          j.attribute("ptx", (name + ".ptx").str());
          if (!e.binary->cubin.empty())
            j.attribute("cubin", (name + ".cubin").str());
          if (const auto &r = e.binary->resources)
            oneLine("ptxas", "{\"registers\": " + std::to_string(r->registers) +
                                 ", \"spill_store_bytes\": " +
                                 std::to_string(r->spillStoreBytes) +
                                 ", \"spill_load_bytes\": " +
                                 std::to_string(r->spillLoadBytes) + "}");
          lines("params", e.params);
          if (!e.binary->tensorMaps.empty()) {
            std::vector<std::string> maps;
            for (const runtime::TensorMap &t : e.binary->tensorMaps) {
              std::string box;
              for (int64_t b : t.box)
                box += (box.empty() ? "" : ", ") + std::to_string(b);
              maps.push_back(
                  "{\"param\": " + std::to_string(t.param) + ", \"box\": [" +
                  box + "], \"swizzle\": " + std::to_string(t.swizzle) + "}");
            }
            lines("tensor_maps", maps);
          }
          j.attributeObject("grid", [&] {
            lines("ops", e.gridOps);
            std::string results;
            for (int64_t r : e.gridResults)
              results += (results.empty() ? "[" : ", ") + std::to_string(r);
            oneLine("results", results + "]");
          });
        });
      }
    });
    if (!programs.empty())
      lines("programs", programs);
  });
  os << "\n";

  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create " + dir.str() + ": " +
                                   ec.message());
  for (KernelEntry &e : entries) {
    llvm::StringRef name = e.kernel.getSymName();
    if (llvm::Error err = writeFile(dir + "/" + name + ".ptx", e.binary->ptx))
      return err;
    if (!e.binary->cubin.empty())
      if (llvm::Error err =
              writeFile(dir + "/" + name + ".cubin", e.binary->cubin))
        return err;
  }
  return writeFile(dir + "/manifest.json", manifest);
}

llvm::Error tilegym::compileBundle(llvm::StringRef dir, mlir::ModuleOp module,
                                   llvm::StringRef chip) {
  // The copies' address form from ptxas: the trial that compiled the
  // module as chosen is its PTX.
  std::optional<CompiledPtx> chosen =
      chooseCopyAddresses(module, chip, /*remarks=*/false);
  std::map<std::string, GpuKernelLaunch> launches;
  mlir::FailureOr<std::string> ptx = mlir::failure();
  if (chosen) {
    ptx = std::move(chosen->ptx);
    launches = std::move(chosen->launches);
  } else {
    ptx = compileTileToGpuBinary(module, chip, "isa", &launches);
  }
  if (mlir::failed(ptx))
    return llvm::createStringError("GPU compilation failed");
  // Every kernel shares the GPU module's PTX, and its cubin when the toolkit
  // compileTileToGpuBinary uses has a ptxas to assemble one.
  // ptxas's registers and spills of each kernel go into the manifest, so
  // that a benchmark can report them beside its times.
  std::string cubin;
  std::map<std::string, PtxasResources> resources;
  std::string toolkit = findCudaToolkit();
  std::string ptxas = toolkit + "/bin/ptxas";
  if (!toolkit.empty() && llvm::sys::fs::can_execute(ptxas)) {
    auto bin = compileTileToGpuBinary(module, chip, "bin");
    if (mlir::failed(bin))
      return llvm::createStringError("ptxas failed");
    cubin = *bin;
    auto info = runPtxasInfo(ptxas, *ptx, chip);
    if (!info)
      return info.takeError();
    resources = std::move(*info);
  }
  std::map<std::string, GpuKernelBinary> binaries;
  for (auto func : module.getOps<mlir::func::FuncOp>())
    if (func->hasAttr(tile::kKernelAttr)) {
      std::string name = func.getSymName().str();
      GpuKernelBinary &binary = binaries[name];
      binary = {"",
                *ptx,
                cubin,
                launches[name].sharedBytes,
                std::nullopt,
                launches[name].tensorMaps,
                launches[name].producerWarps,
                launches[name].persistentBlocksPerSM,
                launches[name].clusterBlocks};
      if (auto it = resources.find(name); it != resources.end())
        binary.resources = it->second;
    }
  return writeBundle(dir, module, chip, binaries);
}
