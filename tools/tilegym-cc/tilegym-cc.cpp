//===- tilegym-cc.cpp - The TileGym compiler driver -----------------------===//
//
// Compiles a .tile file (docs/language.md). main() reads options and input,
// then runs processBuffer() on the whole file or, with --split-input-file,
// on each chunk; processBuffer() parses and then switches on --emit, one case
// per output stage. Diagnostics go through MLIR's diagnostic engine: printed
// with source context, or checked against `expected-*` comments with
// --verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "CompileCache.h"

#include "tilegym/Conversion/Passes.h"
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/AST.h"
#include "tilegym/Frontend/Diagnostics.h"
#include "tilegym/Frontend/Frontend.h"
#include "tilegym/Frontend/Parser.h"
#include "tilegym/Runtime/Runtime.h"
#include "tilegym/Target/BundleWriter.h"
#include "tilegym/Target/CopyAddresses.h"
#include "tilegym/Target/PtxasInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <map>
#include <optional>
#include <string>

namespace cl = llvm::cl;

namespace {

enum class EmitKind {
  AST,
  Tile,
  Layouts,
  TileGPU,
  GPU,
  LLVM,
  PTX,
  Cubin,
  Bundle
};

enum class Target { CPU, SM80, SM90, SM90a };

/// Everything processBuffer() needs besides the source.
struct CompileOptions {
  EmitKind emit;
  Target target;
  /// -D overrides of top-level consts, by name.
  std::map<std::string, std::string> defines;
};

} // namespace

static cl::OptionCategory toolCategory("tilegym-cc options");

static cl::opt<std::string>
    inputFilename(cl::Positional,
                  cl::desc("<input .tile or .mlir file, or - for stdin>"),
                  cl::init("-"), cl::cat(toolCategory));

static cl::opt<std::string>
    outputFilename("o", cl::desc("Output file (default: standard output)"),
                   cl::value_desc("filename"), cl::init("-"),
                   cl::cat(toolCategory));

static cl::list<std::string> defineArgs(
    "D", cl::Prefix,
    cl::desc("Override the top-level const NAME with VALUE, e.g. -D T=bf16 "
             "or -DBLOCK=4096 (repeatable; the last one for a name wins)"),
    cl::value_desc("NAME=VALUE"), cl::cat(toolCategory));

static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("What to produce (default: tile)"),
    cl::values(clEnumValN(EmitKind::AST, "ast",
                          "the parsed syntax tree, indented, with locations"),
               clEnumValN(EmitKind::Tile, "tile", "MLIR in the tile dialect"),
               clEnumValN(EmitKind::Layouts, "layouts",
                          "the tile dialect after tilegpu-assign-layouts: "
                          "every tile with its layout, every movement "
                          "between layouts a tilegpu.convert_layout, before "
                          "any is removed (GPU targets)"),
               clEnumValN(EmitKind::TileGPU, "tilegpu",
                          "the tile dialect after the GPU pipeline's "
                          "tile-level passes: every tile with its layout "
                          "(GPU targets)"),
               clEnumValN(EmitKind::GPU, "gpu",
                          "per-thread GPU code: a gpu.module of gpu.func "
                          "kernels, each thread's elements of a tile as "
                          "registers (GPU targets)"),
               clEnumValN(EmitKind::LLVM, "llvm",
                          "LLVM IR of the CPU lowering (--target=cpu), or "
                          "the NVVM-dialect GPU module (GPU targets)"),
               clEnumValN(EmitKind::PTX, "ptx", "PTX assembly (GPU targets)"),
               clEnumValN(EmitKind::Cubin, "cubin",
                          "a cubin assembled by ptxas (GPU targets)"),
               clEnumValN(EmitKind::Bundle, "bundle",
                          "a kernel bundle folder for the MLIR-free runtime: "
                          "manifest, PTX and, where ptxas is found, cubin "
                          "(GPU targets; -o names the folder, default "
                          "<input>.tgb)")),
    cl::init(EmitKind::Tile), cl::cat(toolCategory));

static cl::opt<Target> target(
    "target", cl::desc("Machine to compile for (default: cpu)"),
    cl::values(clEnumValN(Target::CPU, "cpu", "the host CPU"),
               clEnumValN(Target::SM80, "sm_80", "NVIDIA Ampere (A100)"),
               clEnumValN(Target::SM90, "sm_90", "NVIDIA Hopper (H100, H200)"),
               clEnumValN(Target::SM90a, "sm_90a",
                          "NVIDIA Hopper with its architecture-specific "
                          "features (wgmma, TMA)")),
    cl::init(Target::CPU), cl::cat(toolCategory));

static cl::opt<int> numWarps(
    "num-warps",
    cl::desc("Warps per block for every kernel, overriding warps(...) in the "
             "source (1 to 32, a power of two)"),
    cl::init(0), cl::cat(toolCategory));

static cl::opt<int> minBlocksPerSM(
    "min-blocks-per-sm",
    cl::desc("Blocks per SM that ptxas must fit for every kernel (bounds its "
             "registers, as CUDA's __launch_bounds__); 0 asks nothing; by "
             "default the GPU backend decides"),
    cl::init(-1), cl::cat(toolCategory));

static cl::opt<int> pipelineBytes(
    "pipeline-bytes",
    cl::desc("Bytes per thread of the next iteration's tiles that a loop may "
             "load ahead (tile-pipeline-loads); 0 turns look-ahead off; by "
             "default 64"),
    cl::init(-1), cl::cat(toolCategory));

static cl::opt<bool> preciseMath(
    "precise-math",
    cl::desc("Accurate f32 exp and exp2 (libdevice's, range-reduced) and "
             "IEEE division (div.rn) on the GPU, instead of the SFU's "
             "ex2.approx and div.full (the default, as Triton's)"),
    cl::init(false), cl::cat(toolCategory));

static cl::opt<bool>
    noTma("no-tma",
          cl::desc("Copy staged dot operands with cp.async only, never the TMA "
                   "(sm_90 and later use it by default where a view allows)"),
          cl::init(false), cl::cat(toolCategory));

static cl::opt<int> pipelineStages(
    "pipeline-stages",
    cl::desc("Shared memory buffers per dot operand loaded ahead through a "
             "loop (2 to 4), overriding stages(...) in the source: it is "
             "loaded this many iterations less one ahead; by default 3 in a "
             "loop with one dot (while its rings fit 160 KiB), 2 in a loop "
             "with more"),
    cl::init(0), cl::cat(toolCategory));

static cl::opt<bool> debugOps(
    "debug",
    cl::desc("Keep the kernels' print and assert (tile.debug = 1): a print "
             "writes lines with the source location and the block, an assert "
             "that fails stops the kernel; without --debug they are compiled "
             "out"),
    cl::init(false), cl::cat(toolCategory));

static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Folder of a compile cache: an output compiled before from the "
             "same input, options and compiler is copied from there "
             "(default: $TILEGYM_CACHE_DIR/compile; none when unset)"),
    cl::value_desc("dir"), cl::init(""), cl::cat(toolCategory));

static cl::opt<bool> remarks(
    "remarks",
    cl::desc("Say what the GPU backend chose for each kernel and why: the "
             "layout of each load, store, reduction and dot, each dot's path, "
             "the stages, the shared memory, and, when ptxas is found, the "
             "registers and spills (GPU targets)"),
    cl::cat(toolCategory));

static cl::opt<bool> splitInputFile(
    "split-input-file",
    cl::desc("Split the input at lines '// -----' and compile each chunk on "
             "its own; outputs are separated by '// -----'"),
    cl::cat(toolCategory));

static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Instead of printing diagnostics, check them against "
             "'// expected-error @+1 {{...}}' (and -warning, -note, -remark) "
             "comments in the input; fail on any mismatch"),
    cl::cat(toolCategory));

/// Compiles the main buffer of `sourceMgr` (a whole file, or one chunk of
/// --split-input-file) and writes the requested output to `os`. Errors are
/// reported to the diagnostic handler registered on `context`.
static llvm::StringRef chipOf(Target target) {
  switch (target) {
  case Target::CPU:
    break;
  case Target::SM80:
    return "sm_80";
  case Target::SM90:
    return "sm_90";
  case Target::SM90a:
    return "sm_90a";
  }
  return "";
}

/// Lowers tile IR with the CPU pipeline and translates it to LLVM IR.
static mlir::LogicalResult emitCpuLLVM(mlir::ModuleOp module,
                                       llvm::raw_ostream &os) {
  mlir::MLIRContext *ctx = module.getContext();
  mlir::DialectRegistry registry;
  tilegym::registerPipelineDependencies(registry);
  ctx->appendDialectRegistry(registry);
  mlir::PassManager pm(ctx);
  tilegym::buildTileCpuPipeline(pm);
  if (mlir::failed(pm.run(module)))
    return mlir::failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    mlir::emitError(module.getLoc()) << "translation to LLVM IR failed";
    return mlir::failure();
  }
  llvmModule->print(os, nullptr);
  return mlir::success();
}

/// The bundle folder: -o names it, default <input stem>.tgb.
static std::string bundleFolder() {
  if (outputFilename != "-")
    return outputFilename;
  llvm::StringRef stem = llvm::sys::path::stem(inputFilename);
  return ((stem == "-" ? "stdin" : stem) + ".tgb").str();
}

/// Writes a bundle folder (bundleFolder()).
static mlir::LogicalResult emitBundle(mlir::ModuleOp module,
                                      llvm::StringRef chip) {
  std::string dir = bundleFolder();
  if (llvm::Error err = tilegym::compileBundle(dir, module, chip)) {
    // The writer names the source position as "FILE:LINE:COL: message":
    // report it there, with the source line, not at the file's start.
    std::string message = llvm::toString(std::move(err));
    llvm::SmallVector<llvm::StringRef, 4> parts;
    llvm::StringRef(message).split(parts, ": ", /*MaxSplit=*/1);
    mlir::Location loc = module.getLoc();
    if (parts.size() == 2) {
      auto [rest, col] = parts[0].rsplit(':');
      auto [file, line] = rest.rsplit(':');
      unsigned l, c;
      if (!file.empty() && !line.getAsInteger(10, l) &&
          !col.getAsInteger(10, c)) {
        loc = mlir::FileLineColLoc::get(module.getContext(), file, l, c);
        message = parts[1].str();
      }
    }
    mlir::emitError(loc) << message;
    return mlir::failure();
  }
  return mlir::success();
}

/// --remarks: the GPU passes with remarks on, on a copy, so that what the
/// compile chooses is said once whatever is emitted; then, when ptxas is
/// found, each kernel's registers and spills, from the module's PTX in
/// `ptx` (compiled here and left there when it is not yet; --emit=ptx then
/// prints it instead of compiling it again).
static mlir::LogicalResult remarkGpuChoices(mlir::ModuleOp module,
                                            llvm::StringRef chip,
                                            std::optional<std::string> &ptx) {
  if (mlir::failed(tilegym::remarkTileToGpuChoices(module, chip)))
    return mlir::failure();
  std::string ptxas = tilegym::runtime::findPtxas();
  if (ptxas.empty()) {
    mlir::emitRemark(module.getLoc())
        << "ptxas not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): no "
           "registers or spills to report";
    return mlir::success();
  }
  if (!ptx) {
    auto compiled = tilegym::compileTileToGpuBinary(module, chip, "isa");
    if (mlir::failed(compiled))
      return mlir::failure();
    ptx = *compiled;
  }
  auto info = tilegym::runPtxasInfo(ptxas, *ptx, chip);
  if (!info) {
    mlir::emitWarning(module.getLoc())
        << llvm::toString(info.takeError()) << "; no registers reported";
    return mlir::success();
  }
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    auto it = info->find(func.getSymName().str());
    if (!func->hasAttr(tilegym::tile::kKernelAttr) || it == info->end())
      continue;
    mlir::emitRemark(func.getLoc())
        << "ptxas: " << it->second.registers << " registers, "
        << it->second.spillStoreBytes << " bytes spill stores, "
        << it->second.spillLoadBytes << " bytes spill loads";
  }
  return mlir::success();
}

/// The GPU stages: --emit=gpu stops after convert-tile-to-gpu, llvm after
/// the NVVM lowering, ptx/cubin serialize the GPU module.
static mlir::LogicalResult emitGpu(mlir::ModuleOp module,
                                   const CompileOptions &options,
                                   llvm::raw_ostream &os) {
  llvm::StringRef chip = chipOf(options.target);
  mlir::MLIRContext *ctx = module.getContext();
  mlir::DialectRegistry registry;
  tilegym::registerPipelineDependencies(registry);
  ctx->appendDialectRegistry(registry);
  std::optional<std::string> ptx;
  // The copies' address form is the pipeline's input from ptxas; the IR
  // after layout assignment comes before any copy. A trial that compiled
  // the module as chosen is its PTX.
  // (compileBundle chooses for itself; with --remarks the choice is said
  // here.)
  bool choosesItself = options.emit == EmitKind::Bundle && !remarks;
  if (options.emit != EmitKind::Layouts && !choosesItself)
    if (auto chosen = tilegym::chooseCopyAddresses(module, chip, remarks))
      ptx = std::move(chosen->ptx);
  if (remarks && mlir::failed(remarkGpuChoices(module, chip, ptx)))
    return mlir::failure();
  if (options.emit == EmitKind::Bundle)
    return emitBundle(module, chip);
  if (options.emit == EmitKind::PTX && ptx) {
    os << *ptx;
    return mlir::success();
  }
  if (options.emit == EmitKind::PTX || options.emit == EmitKind::Cubin) {
    auto binary = tilegym::compileTileToGpuBinary(
        module, chip, options.emit == EmitKind::PTX ? "isa" : "bin");
    if (mlir::failed(binary))
      return mlir::failure();
    os << *binary;
    return mlir::success();
  }
  mlir::PassManager pm(ctx);
  if (options.emit == EmitKind::Layouts)
    tilegym::buildTileToLayoutsPasses(pm, chip);
  else if (options.emit == EmitKind::TileGPU)
    tilegym::buildTileToTileGpuPasses(pm, chip);
  else if (options.emit == EmitKind::GPU)
    tilegym::buildTileToGpuPasses(pm, chip);
  else
    tilegym::buildTileGpuPipeline(pm, chip);
  if (mlir::failed(pm.run(module)))
    return mlir::failure();
  module.print(os);
  os << "\n";
  return mlir::success();
}

static mlir::LogicalResult processBuffer(llvm::SourceMgr &sourceMgr,
                                         mlir::MLIRContext &context,
                                         const CompileOptions &options,
                                         llvm::raw_ostream &os) {
  if (options.emit == EmitKind::AST) {
    std::unique_ptr<tilegym::ModuleAST> ast =
        tilegym::parseModule(sourceMgr, sourceMgr.getMainFileID(), context);
    if (!ast)
      return mlir::failure();
    tilegym::dumpAST(*ast, os);
    return mlir::success();
  }

  mlir::OwningOpRef<mlir::ModuleOp> module =
      tilegym::loadTileModule(sourceMgr, context, options.defines);
  if (!module)
    return mlir::failure();
  // Command-line settings override the source's on every kernel.
  auto setOnKernels = [&](llvm::StringRef name, int64_t value) {
    for (auto func : module->getOps<mlir::func::FuncOp>())
      if (func->hasAttr(tilegym::tile::kKernelAttr))
        func->setAttr(name, mlir::IntegerAttr::get(
                                mlir::IntegerType::get(&context, 64), value));
  };
  // --debug goes on before the CPU branch too: the CPU keeps the ops.
  if (debugOps)
    setOnKernels(tilegym::tile::kDebugAttr, 1);
  switch (options.emit) {
  case EmitKind::AST:
    break;
  case EmitKind::Tile:
    module->print(os);
    os << "\n";
    return mlir::success();
  case EmitKind::Layouts:
  case EmitKind::TileGPU:
  case EmitKind::GPU:
  case EmitKind::LLVM:
  case EmitKind::PTX:
  case EmitKind::Cubin:
  case EmitKind::Bundle:
    break;
  }
  if (options.target == Target::CPU) {
    if (options.emit != EmitKind::LLVM) {
      mlir::emitError(module->getLoc())
          << "--emit=layouts, tilegpu, gpu, ptx, cubin and bundle need a GPU "
             "--target "
             "(sm_80, "
             "sm_90, sm_90a)";
      return mlir::failure();
    }
    if (remarks) {
      mlir::emitError(module->getLoc())
          << "--remarks says what the GPU backend chose; it needs a GPU "
             "--target (sm_80, sm_90, sm_90a)";
      return mlir::failure();
    }
    return emitCpuLLVM(*module, os);
  }
  if (numWarps.getNumOccurrences())
    setOnKernels(tilegym::tile::kNumWarpsAttr, numWarps);
  if (minBlocksPerSM.getNumOccurrences())
    setOnKernels(tilegym::tile::kMinBlocksPerSMAttr, minBlocksPerSM);
  if (pipelineBytes.getNumOccurrences())
    setOnKernels(tilegym::tile::kPipelineBytesAttr, pipelineBytes);
  if (pipelineStages.getNumOccurrences())
    setOnKernels(tilegym::tile::kPipelineStagesAttr, pipelineStages);
  if (preciseMath)
    setOnKernels(tilegym::tile::kPreciseMathAttr, 1);
  if (noTma)
    setOnKernels(tilegym::tile::kUseTmaAttr, 0);
  return emitGpu(*module, options, os);
}

/// The kernel settings given on the command line, checked before any input
/// is read: a value out of range is an error, never "unset". Returns the
/// message, or "" when every value is valid.
static std::string checkKernelOptions() {
  if (numWarps.getNumOccurrences() &&
      (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))))
    return "--num-warps must be a power of two from 1 to 32, got " +
           std::to_string(numWarps);
  if (minBlocksPerSM.getNumOccurrences() &&
      (minBlocksPerSM < 0 || minBlocksPerSM > 32))
    return "--min-blocks-per-sm must be from 0 to 32, got " +
           std::to_string(minBlocksPerSM);
  if (pipelineBytes.getNumOccurrences() && pipelineBytes < 0)
    return "--pipeline-bytes must be >= 0 (0 turns look-ahead off), got " +
           std::to_string(pipelineBytes);
  if (pipelineStages.getNumOccurrences() &&
      (pipelineStages < tilegym::tile::kMinPipelineStages ||
       pipelineStages > tilegym::tile::kMaxPipelineStages))
    return "--pipeline-stages must be from " +
           std::to_string(tilegym::tile::kMinPipelineStages) + " to " +
           std::to_string(tilegym::tile::kMaxPipelineStages) + ", got " +
           std::to_string(pipelineStages);
  if (outputFilename.getNumOccurrences() && outputFilename.empty())
    return "-o is empty; expected a file (or a folder for --emit=bundle)";
  return "";
}

/// A chunk of --split-input-file, named by MLIR "within split at FILE:LINE
/// offset ", becomes a buffer named FILE whose text starts at line LINE (the
/// lines before it left empty): diagnostics then read FILE:LINE:COL of the
/// whole file, as without the split. Whole files pass through unchanged.
static std::unique_ptr<llvm::MemoryBuffer>
asWholeFileLines(std::unique_ptr<llvm::MemoryBuffer> chunk) {
  llvm::StringRef name = chunk->getBufferIdentifier();
  if (!name.consume_front("within split at ") || !name.consume_back(" offset "))
    return chunk;
  size_t colon = name.rfind(':');
  unsigned line;
  if (colon == llvm::StringRef::npos ||
      name.drop_front(colon + 1).getAsInteger(10, line) || line == 0)
    return chunk;
  std::string text(line - 1, '\n');
  text += chunk->getBuffer().str();
  return llvm::MemoryBuffer::getMemBufferCopy(text, name.take_front(colon));
}

/// Sets up diagnostics for one buffer and compiles it.
static mlir::LogicalResult
processChunk(std::unique_ptr<llvm::MemoryBuffer> chunk, llvm::raw_ostream &os,
             mlir::MLIRContext &context, const CompileOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(asWholeFileLines(std::move(chunk)),
                               llvm::SMLoc());
  bool tileSource = !llvm::StringRef(inputFilename).ends_with(".mlir");
  if (!verifyDiagnostics) {
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    std::optional<tilegym::LanguageDiagnosticHandler> language;
    if (tileSource)
      language.emplace(&context);
    return processBuffer(sourceMgr, context, options, os);
  }
  mlir::SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context);
  std::optional<tilegym::LanguageDiagnosticHandler> language;
  if (tileSource)
    language.emplace(&context);
  // Success here means the diagnostics matched the expectations, whether or
  // not compilation succeeded.
  (void)processBuffer(sourceMgr, context, options, os);
  return handler.verify();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tilegym::installFatalErrorHandler("tilegym-cc");
  // libLLVM registers many options of its own; --help shows only ours.
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv, "tilegym-cc: compiles a .tile file of consts and kernels\n");

  if (std::string bad = checkKernelOptions(); !bad.empty()) {
    llvm::WithColor::error(llvm::errs(), "tilegym-cc") << bad << "\n";
    return 1;
  }
  CompileOptions options{emitKind, target, {}};
  std::string defineError;
  if (!tilegym::parseDefines(defineArgs, options.defines, defineError)) {
    llvm::WithColor::error(llvm::errs(), "tilegym-cc") << defineError << "\n";
    return 1;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::WithColor::error(llvm::errs(), "tilegym-cc") << errorMessage << "\n";
    return 1;
  }
  // The cache serves compiles whose whole result is their output: not
  // remarks or diagnostics checks, and not output to stdout.
  bool folder = emitKind == EmitKind::Bundle;
  std::string out = folder ? bundleFolder() : outputFilename.getValue();
  std::string cacheFolder = cacheDir;
  // $TILEGYM_CACHE_DIR holds every TileGym cache: compiles in compile/
  // (as tilegym.compile keeps them), tilegym-tune's answers in tune/.
  if (!cacheDir.getNumOccurrences())
    if (const char *env = std::getenv("TILEGYM_CACHE_DIR"))
      if (*env)
        cacheFolder = std::string(env) + "/compile";
  std::optional<tilegym::CompileCache> cache;
  if (!cacheFolder.empty() && !remarks && !verifyDiagnostics &&
      !splitInputFile && out != "-" && inputFilename != "-")
    cache.emplace(cacheFolder, tilegym::cacheArguments(argc, argv),
                  inputFilename, input->getBuffer());
  // Before -o is opened: an output file opened and not kept is removed.
  if (cache && cache->restore(out, folder))
    return 0;

  // A bundle is a folder that -o names; nothing goes to an output file.
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(
      emitKind == EmitKind::Bundle ? "-" : outputFilename.getValue(),
      &errorMessage);
  if (!output) {
    llvm::WithColor::error(llvm::errs(), "tilegym-cc") << errorMessage << "\n";
    return 1;
  }

  mlir::MLIRContext context;
  auto processFn = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                       llvm::raw_ostream &os) {
    return processChunk(std::move(chunk), os, context, options);
  };
  // An empty input marker processes the whole buffer as one chunk.
  llvm::StringRef inputMarker = splitInputFile ? mlir::kDefaultSplitMarker : "";
  if (mlir::failed(mlir::splitAndProcessBuffer(std::move(input), processFn,
                                               output->os(), inputMarker,
                                               mlir::kDefaultSplitMarker)))
    return 1;
  output->keep();
  if (cache) {
    output.reset(); // flushed and closed before the copy
    cache->store(out, folder);
  }
  return 0;
}
