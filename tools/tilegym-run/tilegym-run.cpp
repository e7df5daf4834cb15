//===- tilegym-run.cpp - the verification JIT -----------------------------===//
//
// Compiles a tile kernel, draws fresh random inputs, poisons the outputs,
// runs the kernel, and compares every output with a float64 reference: a
// built-in one (lib/Reference) for the flagship programs, or a reference
// kernel the user writes in the language (--ref), or the CPU JIT of the same
// kernel (--compare=cpu). Exit code 0 only on PASS.
//
//   tilegym-run examples/softmax.tile -D T=bf16 --size M=100,N=1000
//   tilegym-run rmsnorm.tile --size M=100,N=777 --ref rmsnorm_ref.tile
//
//===----------------------------------------------------------------------===//
#include "UserKernel.h"

#include "tilegym/Bundle/GpuVerify.h"
#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/Diagnostics.h"
#include "tilegym/Frontend/Frontend.h"
#include "tilegym/JIT/CpuKernel.h"
#include "tilegym/Reference/Arguments.h"
#include "tilegym/Reference/Reference.h"
#include "tilegym/Runtime/Program.h"
#include "tilegym/Runtime/Runtime.h"
#include "tilegym/Target/BundleWriter.h"
#include "tilegym/Target/Signature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

using namespace mlir;
using namespace tilegym;
namespace cl = llvm::cl;

static cl::OptionCategory category("tilegym-run options");

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<.tile or .mlir file>"),
                                      cl::cat(category));
static cl::opt<bool>
    info("info",
         cl::desc("Report the CUDA driver, GPUs, ptxas and the backend "
                  "--backend=auto picks, and exit"),
         cl::cat(category));
static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("Kernel or program to run, or kernels to run in "
                        "order as one program, their parameters of one name "
                        "shared (default: the file's only kernel, or else "
                        "its only program)"),
               cl::value_desc("NAME[,NAME...]"), cl::cat(category));
static cl::list<std::string>
    defineList("D", cl::Prefix,
               cl::desc("Override a file-level const: -D NAME=VALUE "
                        "(e.g. -D T=bf16 -D BLOCK=2048)"),
               cl::value_desc("NAME=VALUE"), cl::cat(category));
enum class Backend { Auto, Cpu, Gpu };
static cl::opt<Backend> backend(
    "backend", cl::desc("Where to run the kernel"), cl::init(Backend::Auto),
    cl::values(clEnumValN(Backend::Auto, "auto",
                          "the GPU when there is one, else the CPU"),
               clEnumValN(Backend::Cpu, "cpu", "the CPU JIT"),
               clEnumValN(Backend::Gpu, "gpu",
                          "GPU 0: compiled to a bundle for its target and "
                          "verified as tilegym-runner does")),
    cl::cat(category));
static cl::list<std::string> sizeList(
    "size",
    cl::desc("Sizes of named dimensions (view<[M, N], T>) or of a built-in "
             "reference's problem, e.g. --size M=4096,N=512"),
    cl::value_desc("NAME=N,..."), cl::cat(category));
static cl::opt<std::string>
    referenceName("reference",
                  cl::desc("Reference program to check against (default: "
                           "the kernel's name)"),
                  cl::value_desc("name"), cl::cat(category));
static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the random inputs (default: fresh)"),
         cl::cat(category));
static cl::opt<unsigned>
    cpuThreads("cpu-threads",
               cl::desc("CPU threads running blocks (default: all cores)"),
               cl::init(0), cl::cat(category));
static cl::opt<bool> listTune(
    "list-tune",
    cl::desc("Print the source's tuning space (`tune NAME in [...]`), one "
             "NAME=V1,V2,... line per tuned const, and exit"),
    cl::cat(category));
static cl::opt<bool> compileOnly(
    "compile-only",
    cl::desc("Compile the kernel for --target (default: GPU 0's, else "
             "sm_90a) as the GPU backend would, run nothing, and exit 0 when "
             "it compiles (tilegym-tune's first pass)"),
    cl::cat(category));
static cl::opt<std::string>
    bundleOut("bundle-out",
              cl::desc("With --compile-only: write the bundle into this folder "
                       "(tilegym-tune --bundle)"),
              cl::value_desc("DIR.tgb"), cl::cat(category));
static cl::opt<std::string>
    targetChip("target",
               cl::desc("GPU target of --compile-only: sm_80, sm_90 or sm_90a"),
               cl::cat(category));
static cl::opt<bool>
    bench("bench",
          cl::desc("GPU: after a PASS, or an unchecked run that wrote every "
                   "output, time the kernel (median of 20 runs, L2 flushed "
                   "before each)"),
          cl::cat(category));
static cl::list<std::string>
    shapeList("shape",
              cl::desc("Sizes of view arguments by parameter name, e.g. "
                       "--shape x=4096x1024,w=1024"),
              cl::value_desc("NAME=AxB,..."), cl::cat(category));
static cl::list<std::string>
    argList("arg", cl::desc("Value of a scalar parameter, e.g. --arg eps=1e-5"),
            cl::value_desc("NAME=VALUE,..."), cl::cat(category));
static cl::list<std::string>
    initList("init",
             cl::desc("Distribution of an input view: normal, normal(M,S), "
                      "uniform(A,B), randint(A,B), zeros, ones, full(V)"),
             cl::value_desc("NAME=DIST"), cl::cat(category));
static cl::list<std::string>
    inputList("input", cl::desc("Read an input view from a .npy file"),
              cl::value_desc("NAME=FILE.npy,..."), cl::cat(category));
static cl::opt<std::string>
    dumpDir("dump",
            cl::desc("Write inputs (NAME.npy), outputs (NAME.out.npy) and "
                     "the check's outputs (NAME.ref.npy) into DIR"),
            cl::value_desc("DIR"), cl::cat(category));
static cl::opt<std::string> refKernel(
    "ref",
    cl::desc("Check against a reference kernel written in .tile, run in "
             "float64 on the CPU (KERNEL defaults to the kernel's name, or "
             "the file's only kernel)"),
    cl::value_desc("FILE.tile[:KERNEL]"), cl::cat(category));
enum class Compare { None, Cpu };
static cl::opt<Compare> compareWith(
    "compare", cl::desc("Check against another run of the same kernel"),
    cl::init(Compare::None),
    cl::values(clEnumValN(Compare::Cpu, "cpu",
                          "the CPU JIT of the kernel, on the same inputs")),
    cl::cat(category));
static cl::opt<bool>
    preciseMath("precise-math",
                cl::desc("Accurate f32 exp, exp2 and division on the GPU (as "
                         "tilegym-cc --precise-math)"),
                cl::cat(category));
static cl::opt<bool> debugOps(
    "debug",
    cl::desc("Keep the kernel's print and assert (as tilegym-cc --debug); a "
             "failed assert fails the run"),
    cl::cat(category));
static cl::opt<bool>
    noTma("no-tma",
          cl::desc("GPU: copy staged dot operands with cp.async only, never "
                   "the TMA (as tilegym-cc --no-tma)"),
          cl::cat(category));
static cl::opt<bool> remarks(
    "remarks",
    cl::desc("Say what the GPU backend chose for each kernel and why (as "
             "tilegym-cc --remarks): before a GPU run or --compile-only"),
    cl::cat(category));
static cl::opt<bool>
    listReferences("list-references",
                   cl::desc("List the reference programs and exit"),
                   cl::cat(category));

/// The kernel's element types and ranks, in parameter order.
static LogicalResult signatureOf(func::FuncOp kernel,
                                 std::vector<ref::DType> &dtypes,
                                 std::vector<int64_t> &ranks) {
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    auto view = dyn_cast<tile::ViewType>(type);
    if (!view) {
      llvm::errs() << "error: parameter " << i << " of '" << kernel.getSymName()
                   << "' is a scalar (" << type
                   << "); tilegym-run binds views only\n";
      return failure();
    }
    std::string name;
    llvm::raw_string_ostream os(name);
    os << view.getElementType();
    auto dtype = ref::parseDType(name);
    if (!dtype) {
      llvm::errs() << "error: unsupported element type " << name << "\n";
      return failure();
    }
    dtypes.push_back(*dtype);
    ranks.push_back(view.getRank());
  }
  return success();
}

/// The file-level consts the module was compiled with, as reference options.
static ref::Options optionsOf(ModuleOp module) {
  ref::Options options;
  auto consts = module->getAttrOfType<DictionaryAttr>(tile::kConstsAttr);
  if (!consts)
    return options;
  for (NamedAttribute attr : consts) {
    std::string value;
    llvm::raw_string_ostream os(value);
    if (auto i = dyn_cast<IntegerAttr>(attr.getValue()))
      os << i.getValue().getSExtValue();
    else if (auto b = dyn_cast<BoolAttr>(attr.getValue()))
      os << (b.getValue() ? "1" : "0");
    else if (auto t = dyn_cast<TypeAttr>(attr.getValue()))
      os << t.getValue();
    else
      continue;
    options[attr.getName().str()] = value;
  }
  return options;
}

/// The kernels --kernel names: a kernel, a program of the file, or a
/// sequence "a,b"; without --kernel the file's only kernel, or else its only
/// program. Empty after an error.
static SmallVector<func::FuncOp> findKernels(ModuleOp module) {
  std::vector<std::string> kernelNames, names;
  llvm::StringMap<func::FuncOp> byName;
  for (auto f : module.getOps<func::FuncOp>())
    if (f->hasAttr(tile::kKernelAttr)) {
      kernelNames.push_back(f.getSymName().str());
      byName[f.getSymName()] = f;
    }
  std::vector<runtime::NamedProgram> programs;
  if (auto dict = module->getAttrOfType<DictionaryAttr>(tile::kProgramsAttr))
    for (NamedAttribute program : dict) {
      runtime::NamedProgram &p = programs.emplace_back();
      p.name = program.getName().str();
      for (Attribute a : cast<ArrayAttr>(program.getValue()))
        p.kernels.push_back(cast<FlatSymbolRefAttr>(a).getValue().str());
    }
  std::string error;
  if (!runtime::resolveKernelNames(kernelName, kernelNames, programs, inputFile,
                                   names, error)) {
    llvm::errs() << "error: " << error << "\n";
    return {};
  }
  SmallVector<func::FuncOp> picked;
  for (const std::string &name : names)
    picked.push_back(byName.lookup(name));
  return picked;
}

/// --compile-only: the bundle compiled into `outDir` (--bundle-out), or
/// into a temporary folder thrown away; its errors (shared memory, tile
/// sizes, ptxas) are the verdict.
static int compileForGpu(ModuleOp module, llvm::StringRef chip,
                         llvm::StringRef outDir) {
  llvm::SmallString<128> dir;
  if (outDir.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tilegym-run", dir)) {
      llvm::errs() << "error: cannot create a temporary folder: "
                   << ec.message() << "\n";
      return 1;
    }
  }
  llvm::scope_exit cleanup([&] {
    if (outDir.empty())
      llvm::sys::fs::remove_directories(dir);
  });
  std::string bundleDir =
      outDir.empty() ? (dir + "/kernel.tgb").str() : outDir.str();
  if (llvm::Error err = compileBundle(bundleDir, module, chip)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  std::cout << "compiled for " << chip.str()
            << (outDir.empty() ? "" : " into " + outDir.str()) << "\n";
  return 0;
}

/// Compiles the module into a bundle in a temporary folder and verifies the
/// kernel on the GPU exactly as tilegym-runner does.

static int runOnGpu(ModuleOp module, func::FuncOp kernel,
                    llvm::StringRef chip) {
  llvm::SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("tilegym-run", dir)) {
    llvm::errs() << "error: cannot create a temporary folder: " << ec.message()
                 << "\n";
    return 1;
  }
  llvm::scope_exit cleanup([&] { llvm::sys::fs::remove_directories(dir); });
  std::string bundleDir = (dir + "/kernel.tgb").str();
  if (llvm::Error err = compileBundle(bundleDir, module, chip)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  bundle::Bundle loaded;
  std::string error;
  if (!bundle::loadBundle(bundleDir, loaded, error)) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  bundle::VerifyOptions options;
  options.label = inputFile;
  options.sizes = llvm::join(sizeList, ",");
  options.reference = referenceName;
  options.hasSeed = seed.getNumOccurrences() != 0;
  options.seed = seed;
  options.bench = bench;
  return bundle::verifyOnGpu(
      loaded, *loaded.findKernel(kernel.getSymName().str()), options);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  installFatalErrorHandler("tilegym-run");
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "TileGym verification JIT\n");

  if (info) {
    runtime::printEnvironment(runtime::queryEnvironment(), stdout);
    return 0;
  }
  if (listReferences) {
    for (const ref::Reference &r : ref::registry())
      std::cout << ref::describe(r) << "\n";
    return 0;
  }
  if (inputFile.empty()) {
    llvm::errs() << "error: no input file (see --help)\n";
    return 1;
  }
  // An option given with an empty value is a mistake, not "unset".
  for (auto [option, name, expected] :
       {std::tuple<cl::opt<std::string> *, const char *, const char *>{
            &kernelName, "--kernel", "a kernel name"},
        {&dumpDir, "--dump", "a folder"},
        {&refKernel, "--ref", "FILE.tile[:KERNEL]"},
        {&referenceName, "--reference", "a reference name"}})
    if (option->getNumOccurrences() && option->empty()) {
      llvm::errs() << "error: " << name << " is empty; expected " << expected
                   << "\n";
      return 1;
    }
  std::pair<cl::list<std::string> *, const char *> lists[] = {
      {std::addressof(sizeList), "--size"},
      {std::addressof(shapeList), "--shape"},
      {std::addressof(argList), "--arg"},
      {std::addressof(initList), "--init"},
      {std::addressof(inputList), "--input"}};
  for (auto [list, name] : lists)
    for (const std::string &value : *list)
      if (llvm::StringRef(value).trim().empty()) {
        llvm::errs() << "error: " << name
                     << " is empty; expected NAME=VALUE[,NAME=VALUE...]\n";
        return 1;
      }
  Defines defines;
  std::string defineError;
  if (!parseDefines(defineList, defines, defineError)) {
    llvm::errs() << "error: " << defineError << "\n";
    return 1;
  }

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  if (!addSourceFile(sourceMgr, inputFile))
    return 1;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::optional<LanguageDiagnosticHandler> language;
  if (!llvm::StringRef(inputFile).ends_with(".mlir"))
    language.emplace(&context);
  OwningOpRef<ModuleOp> module = loadTileModule(sourceMgr, context, defines);
  if (!module)
    return 1;
  if (listTune) {
    if (auto space =
            (*module)->getAttrOfType<DictionaryAttr>(tile::kTuneSpaceAttr))
      for (NamedAttribute entry : space) {
        std::cout << entry.getName().getValue().str() << "=";
        for (auto [i, v] : llvm::enumerate(cast<ArrayAttr>(entry.getValue())))
          std::cout << (i ? "," : "") << cast<StringAttr>(v).getValue().str();
        std::cout << "\n";
      }
    return 0;
  }
  SmallVector<func::FuncOp> kernels = findKernels(*module);
  if (kernels.empty())
    return 1;
  func::FuncOp kernel = kernels.front();
  for (auto [enabled, name] :
       {std::pair{bool(preciseMath), tile::kPreciseMathAttr},
        std::pair{bool(debugOps), tile::kDebugAttr}})
    if (enabled)
      for (func::FuncOp k : kernels)
        k->setAttr(name,
                   IntegerAttr::get(IntegerType::get(k.getContext(), 64), 1));
  if (noTma)
    for (func::FuncOp k : kernels)
      k->setAttr(tile::kUseTmaAttr,
                 IntegerAttr::get(IntegerType::get(k.getContext(), 64), 0));

  // auto: the GPU when there is one the backend targets, else the CPU.
  runtime::Environment env = runtime::queryEnvironment();
  bool gpu = backend == Backend::Gpu ||
             (backend == Backend::Auto && env.autoTarget != "cpu");
  std::string chip = env.autoTarget == "cpu" ? "sm_90a" : env.autoTarget;
  if (bundleOut.getNumOccurrences() && (!compileOnly || bundleOut.empty()))
    return (
        llvm::errs() << "error: --bundle-out DIR goes with --compile-only\n",
        1);
  if (targetChip.getNumOccurrences() && !compileOnly)
    return (llvm::errs() << "error: --target is the target of --compile-only; "
                            "a run takes GPU 0's\n",
            1);
  if (compileOnly) {
    if (targetChip.getNumOccurrences()) {
      if (targetChip != "sm_80" && targetChip != "sm_90" &&
          targetChip != "sm_90a")
        return (llvm::errs() << "error: --target '" << targetChip
                             << "'; expected sm_80, sm_90 or sm_90a\n",
                1);
      chip = targetChip;
    }
    if (remarks && failed(tilegym::remarkTileToGpuChoices(*module, chip)))
      return 1;
    return compileForGpu(*module, chip, bundleOut);
  }
  if (remarks && !gpu)
    return (llvm::errs() << "error: --remarks says what the GPU backend "
                            "chose; this run is on the CPU (use "
                            "--backend=gpu or --compile-only)\n",
            1);
  if (remarks && failed(tilegym::remarkTileToGpuChoices(*module, chip)))
    return 1;
  unsigned nthreads = cpuThreads
                          ? unsigned(cpuThreads)
                          : std::max(1u, std::thread::hardware_concurrency());
  uint64_t inputSeed =
      seed.getNumOccurrences() ? uint64_t(seed) : std::random_device{}();

  // A built-in reference checks the flagship programs; any other kernel,
  // or any run that asks for its own check or arguments, goes the general
  // way.
  bool general = kernels.size() > 1 || !refKernel.empty() ||
                 compareWith != Compare::None || !shapeList.empty() ||
                 !argList.empty() || !initList.empty() || !inputList.empty() ||
                 !dumpDir.empty() ||
                 (referenceName.empty() &&
                  !ref::lookupReference(kernel.getSymName().str()));
  if (general) {
    if (!referenceName.empty())
      return (llvm::errs() << "error: --reference names a built-in program; "
                              "it does not combine with --ref, --compare, "
                              "--shape, --arg, --init, --input or --dump\n",
              1);
    if (compareWith == Compare::Cpu && !gpu)
      return (llvm::errs() << "error: --compare=cpu checks a GPU run against "
                              "the CPU JIT; this run is on the CPU (use "
                              "--backend=gpu)\n",
              1);
    UserRunOptions options;
    options.label = inputFile;
    options.choices = {
        std::vector<std::string>(shapeList.begin(), shapeList.end()),
        std::vector<std::string>(sizeList.begin(), sizeList.end()),
        std::vector<std::string>(argList.begin(), argList.end()),
        std::vector<std::string>(initList.begin(), initList.end()),
        std::vector<std::string>(inputList.begin(), inputList.end())};
    options.seed = inputSeed;
    options.gpu = gpu;
    options.chip = chip;
    options.reference = refKernel;
    options.compareCpu = compareWith == Compare::Cpu;
    options.dumpDir = dumpDir;
    options.defines = defines;
    options.cpuThreads = nthreads;
    options.bench = bench;
    return runUserKernels(*module, kernels, options);
  }
  if (gpu)
    return runOnGpu(*module, kernel, chip);

  std::vector<ref::DType> dtypes;
  std::vector<int64_t> ranks;
  if (failed(signatureOf(kernel, dtypes, ranks)))
    return 1;
  std::string refName =
      referenceName.empty() ? kernel.getSymName().str() : referenceName;
  const ref::Reference *reference = ref::lookupReference(refName);
  if (!reference) {
    llvm::errs() << "error: no reference program named '" << refName
                 << "'; pick one with --reference (see --list-references)\n";
    return 1;
  }
  std::string error;
  ref::Sizes problem = ref::defaultSizes(*reference);
  if (!ref::parseSizes(*reference, llvm::join(sizeList, ","), problem, error) ||
      !ref::checkSignature(*reference, dtypes, ranks, error)) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }

  std::vector<ref::HostTensor> args =
      ref::makeArguments(*reference, problem, dtypes, inputSeed);
  auto signature = kernelSignature(kernel);
  if (!signature) {
    llvm::errs() << "error: " << llvm::toString(signature.takeError()) << "\n";
    return 1;
  }
  std::vector<tg_arg> views;
  for (auto [i, t] : llvm::enumerate(args))
    views.push_back(ref::hostView((*signature)[i].dtype, t));
  // The reference's sizes must fit the kernel's static ones (a head dim
  // the kernel was compiled for), as a GPU launch checks them.
  runtime::Status fits =
      runtime::checkArguments(*signature, views.data(), views.size());
  if (!fits.ok()) {
    llvm::errs() << "error: kernel '" << kernel.getSymName()
                 << "': " << fits.message << "; nothing was run\n";
    return 1;
  }

  auto compiled = CpuKernel::compile(*module, kernel.getSymName());
  if (!compiled) {
    llvm::errs() << "error: " << llvm::toString(compiled.takeError()) << "\n";
    return 1;
  }
  std::array<int64_t, 3> grid = (*compiled)->grid(views);
  if (!runtime::checkGridLimits(grid.data(), error)) {
    llvm::errs() << "error: kernel '" << kernel.getSymName() << "': " << error
                 << "; nothing was run\n";
    return 1;
  }

  std::cout << "kernel " << kernel.getSymName().str() << " (" << inputFile
            << ") backend=cpu reference=" << reference->name << " sizes=";
  for (auto [i, s] : llvm::enumerate(problem))
    std::cout << (i ? "," : "") << s.first << "=" << s.second;
  std::cout << " grid=" << grid[0] << "x" << grid[1] << "x" << grid[2]
            << " seed=" << inputSeed << "\n";

  auto start = std::chrono::steady_clock::now();
  if (llvm::Error err = (*compiled)->run(views, grid, nthreads)) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();

  ref::Options options = ref::effectiveOptions(*reference, optionsOf(*module));
  auto expected = ref::runReference(*reference, problem, options, args);
  auto results = ref::compareOutputs(*reference, problem, args, expected);
  std::cout << "cpu time " << ms << " ms on " << nthreads << " threads\n";
  return ref::printVerdict(std::cout, results) ? 0 : 1;
}
