//===- UserKernel.cpp - run and check any kernel --------------------------===//

#include "UserKernel.h"

#include "tilegym/Bundle/Bundle.h"
#include "tilegym/Bundle/GpuVerify.h"
#include "tilegym/Dialect/Tile/IR/DotOperands.h"
#include "tilegym/Dialect/Tile/IR/TileDialect.h"
#include "tilegym/Frontend/Frontend.h"
#include "tilegym/JIT/CpuKernel.h"
#include "tilegym/Reference/CheckFolder.h"
#include "tilegym/Reference/Compare.h"
#include "tilegym/Target/BundleWriter.h"
#include "tilegym/Target/Signature.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cmath>
#include <iostream>

using namespace mlir;
using namespace tilegym;

namespace {

bool isFloatDType(tg_dtype dtype) {
  std::optional<ref::DType> type = ref::refDType(dtype);
  return type && ref::isFloat(*type);
}

int fail(const std::string &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

/// Arguments for a checking kernel with signature `params` (the reference,
/// promoted to f64, or the kernel itself on the CPU) holding the values the
/// kernel saw in `inputs`: read views copied (as their absolute values with
/// `absolute`: the run that gives each output's conditioning), write-only
/// views poisoned.
ref::BoundArguments checkArgs(const std::vector<runtime::Param> &params,
                              const std::vector<runtime::Param> &kernelParams,
                              const std::vector<ref::HostTensor> &inputs,
                              const std::vector<tg_arg> &scalars,
                              bool absolute) {
  ref::BoundArguments args;
  args.params = params;
  for (size_t i = 0; i < params.size(); ++i) {
    const runtime::Param &p = params[i];
    if (p.kind == TG_ARG_SCALAR) {
      args.tensors.emplace_back();
      tg_arg s = scalars[i];
      s.dtype = p.dtype;
      if (p.dtype == TG_F32 || p.dtype == TG_F64) {
        if (scalars[i].dtype == TG_I32 || scalars[i].dtype == TG_I64)
          s.float_value = double(scalars[i].int_value);
        if (absolute)
          s.float_value = std::fabs(s.float_value);
      }
      args.scalars.push_back(s);
      continue;
    }
    args.scalars.push_back({});
    auto dtype = *ref::parseDType(runtime::dtypeName(p.dtype));
    ref::HostTensor t(dtype, inputs[i].shape());
    if (!kernelParams[i].read) {
      t.fillPoison();
    } else {
      bool abs = absolute && ref::isFloat(dtype);
      for (int64_t e = 0; e < t.numel(); ++e)
        t.set(e, abs ? std::fabs(inputs[i].get(e)) : inputs[i].get(e));
    }
    args.tensors.push_back(std::move(t));
  }
  return args;
}

/// Runs a CPU-JIT kernel on `args` (with signature `params`) after the
/// runtime's argument checks; fails on a grid beyond the launch limits.
bool runCpu(const CpuKernel &kernel, const std::vector<runtime::Param> &params,
            const std::vector<tg_arg> &args, unsigned threads,
            std::string &error) {
  runtime::Status st =
      runtime::checkArguments(params, args.data(), args.size());
  if (!st.ok()) {
    error = st.message;
    return false;
  }
  std::array<int64_t, 3> grid = kernel.grid(args);
  if (!runtime::checkGridLimits(grid.data(), error))
    return false;
  if (llvm::Error err = kernel.run(args, grid, threads)) {
    error = llvm::toString(std::move(err));
    return false;
  }
  return true;
}

/// `FILE[:KERNEL]` compiled once with every float type promoted to f64.
struct ReferenceFile {
  OwningOpRef<ModuleOp> module;
  std::string file;
  std::string kernel; ///< After ':'; "" when the spec names none.
};

bool loadReference(MLIRContext &context, const std::string &spec,
                   const Defines &defines, ReferenceFile &out,
                   std::string &error) {
  out.file = spec;
  // "FILE:KERNEL", where KERNEL is an identifier (a path may hold ':').
  size_t colon = spec.rfind(':');
  if (colon != std::string::npos && colon + 1 < spec.size() &&
      spec.find('/', colon) == std::string::npos &&
      bundle::isSymbolName(spec.substr(colon + 1))) {
    out.file = spec.substr(0, colon);
    out.kernel = spec.substr(colon + 1);
  }
  llvm::SourceMgr sourceMgr;
  if (!addSourceFile(sourceMgr, out.file)) {
    error = "--ref: cannot read " + out.file;
    return false;
  }
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  FrontendOptions options;
  options.floatsAsF64 = true;
  // The kernel's -D defines apply to the reference where it has those
  // consts (a reference need not have them all): a first compile without
  // them tells which it has.
  Defines applicable;
  {
    OwningOpRef<ModuleOp> probe =
        loadTileModule(sourceMgr, context, {}, options);
    if (!probe) {
      error = "--ref: " + out.file + " does not compile (see above)";
      return false;
    }
    auto consts = probe.get()->getAttrOfType<DictionaryAttr>(tile::kConstsAttr);
    for (const auto &[k, v] : defines)
      if (consts && consts.get(k))
        applicable[k] = v;
  }
  out.module = loadTileModule(sourceMgr, context, applicable, options);
  if (!out.module) {
    error = "--ref: " + out.file + " does not compile (see above)";
    return false;
  }
  return true;
}

/// The reference of kernel `kernelName`: the one the spec names, else the
/// one of the same name, else the file's only kernel.
func::FuncOp findReference(ReferenceFile &ref, llvm::StringRef kernelName,
                           std::string &error) {
  std::string name = ref.kernel.empty() ? kernelName.str() : ref.kernel;
  SmallVector<func::FuncOp> kernels;
  for (auto f : ref.module->getOps<func::FuncOp>())
    if (f->hasAttr(tile::kKernelAttr))
      kernels.push_back(f);
  for (auto f : kernels)
    if (f.getSymName() == name)
      return f;
  if (ref.kernel.empty() && kernels.size() == 1)
    return kernels.front();
  error = "--ref: " + ref.file + " has no kernel named '" + name + "'" +
          (ref.kernel.empty() ? "; name one with --ref FILE:KERNEL" : "");
  return {};
}

/// A reference's signature must be the kernel's with floats as f64.
bool matchSignatures(const std::vector<runtime::Param> &kernel,
                     const std::vector<runtime::Param> &reference,
                     std::string &error) {
  if (kernel.size() != reference.size()) {
    error = "--ref: the reference takes " + std::to_string(reference.size()) +
            " parameters, the kernel " + std::to_string(kernel.size());
    return false;
  }
  for (size_t i = 0; i < kernel.size(); ++i) {
    const runtime::Param &k = kernel[i], &r = reference[i];
    bool kFloat = isFloatDType(k.dtype);
    std::string why;
    if (k.kind != r.kind)
      why = k.kind == TG_ARG_VIEW ? "a view in the kernel, a scalar in the "
                                    "reference"
                                  : "a scalar in the kernel, a view in the "
                                    "reference";
    else if (k.sizes.size() != r.sizes.size())
      why = "rank " + std::to_string(k.sizes.size()) + " in the kernel, " +
            std::to_string(r.sizes.size()) + " in the reference";
    else if (kFloat ? r.dtype != TG_F64 : r.dtype != k.dtype)
      why = std::string(runtime::dtypeName(k.dtype)) + " in the kernel, " +
            runtime::dtypeName(r.dtype) + " in the reference";
    else if (k.kind == TG_ARG_VIEW && k.written && !r.written)
      why = "written by the kernel, not by the reference";
    if (!why.empty()) {
      error = "--ref: parameter " + std::to_string(i + 1) + " ('" + k.name +
              "'): " + why;
      return false;
    }
  }
  return true;
}

/// The least precise float type the kernel rounds to: its outputs' element
/// types and those of its float arithmetic (a bf16 kernel storing f32 still
/// rounds every bf16 product, an f64 kernel computing in f32 every f32
/// result). Inputs do not count: the reference sees the
/// same rounded values. Loads, constants, exact widenings and selects do
/// not round.
ref::DType computePrecision(func::FuncOp kernel,
                            const ref::BoundArguments &bound) {
  std::vector<ref::DType> dtypes;
  for (size_t i = 0; i < bound.params.size(); ++i)
    if (bound.params[i].kind == TG_ARG_VIEW && bound.params[i].written)
      dtypes.push_back(bound.tensors[i].dtype());
  kernel.walk([&](Operation *op) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp, arith::ExtFOp, arith::SelectOp, arith::CmpFOp,
            arith::BitcastOp>(op))
      return;
    for (Type t : op->getResultTypes()) {
      Type element = getElementTypeOrSelf(t);
      if (element.isBF16())
        dtypes.push_back(ref::DType::BF16);
      else if (element.isF16())
        dtypes.push_back(ref::DType::F16);
      else if (element.isF32()) // an f64 output computed in f32
        dtypes.push_back(ref::DType::F32);
      else if (isa<Float8E4M3FNType>(element))
        dtypes.push_back(ref::DType::F8E4M3);
      else if (isa<Float8E5M2Type>(element))
        dtypes.push_back(ref::DType::F8E5M2);
    }
  });
  return ref::leastPreciseDType(dtypes);
}

} // namespace

int tilegym::runUserKernels(ModuleOp module, ArrayRef<func::FuncOp> kernels,
                            const UserRunOptions &opt) {
  std::vector<std::string> names;
  std::vector<std::vector<runtime::Param>> signatures;
  for (func::FuncOp kernel : kernels) {
    auto signature = kernelSignature(kernel);
    if (!signature)
      return fail(llvm::toString(signature.takeError()));
    names.push_back(kernel.getSymName().str());
    signatures.push_back(std::move(*signature));
  }
  std::string error;
  runtime::ProgramSignature program;
  if (!runtime::mergeSignatures(names, signatures, program, error))
    return fail(error);
  ref::BoundArguments bound;
  if (!ref::bindArguments(program.params, opt.choices, opt.seed, bound, error))
    return fail(error);
  // What the kernels saw, before they write anything (views may be updated
  // in place): the checks and --dump start from these.
  std::vector<ref::HostTensor> inputs;
  for (const ref::HostTensor &t : bound.tensors)
    inputs.push_back(t.clone());

  // Load and match the check before running anything: one reference kernel
  // per kernel, of the same name, or the one named after ':'.
  MLIRContext &context = *module.getContext();
  ReferenceFile reference;
  std::vector<func::FuncOp> references;
  std::optional<std::vector<runtime::Param>> referenceParams;
  if (!opt.reference.empty()) {
    if (!loadReference(context, opt.reference, opt.defines, reference, error))
      return fail(error);
    if (kernels.size() > 1 && !reference.kernel.empty())
      return fail("--ref FILE:KERNEL names one kernel; a sequence takes "
                  "the reference kernels of the same names: --ref FILE");
    referenceParams = program.params;
    for (runtime::Param &p : *referenceParams)
      if (isFloatDType(p.dtype))
        p.dtype = TG_F64;
    for (size_t k = 0; k < kernels.size(); ++k) {
      func::FuncOp ref = findReference(reference, names[k], error);
      if (!ref)
        return fail(error);
      auto sig = kernelSignature(ref);
      if (!sig)
        return fail("--ref: " + llvm::toString(sig.takeError()));
      if (!matchSignatures(signatures[k], *sig, error))
        return fail(kernels.size() > 1 ? error + " (kernel '" + names[k] + "')"
                                       : error);
      references.push_back(ref);
    }
  }
  // The checks: the reference kernels in float64, the CPU JIT of the kernels
  // themselves, or both (each then has its own tolerance and verdict lines).
  struct Check {
    std::string name; // "ref", "cpu"
    bool isReference = false;
    std::vector<std::unique_ptr<CpuKernel>> kernels;
    std::vector<std::vector<double>> expected, scale;
    std::vector<ref::HostTensor> expectedTensors;
  };
  std::vector<Check> checks;
  for (bool isReference : {true, false}) {
    if (isReference ? !referenceParams : !opt.compareCpu)
      continue;
    Check &c = checks.emplace_back();
    c.name = isReference ? "ref" : "cpu";
    c.isReference = isReference;
    for (size_t k = 0; k < kernels.size(); ++k) {
      auto compiled = CpuKernel::compile(
          isReference ? *reference.module : module,
          isReference ? references[k].getSymName() : StringRef(names[k]));
      if (!compiled)
        return fail(llvm::toString(compiled.takeError()));
      c.kernels.push_back(std::move(*compiled));
    }
  }
  bool checked = !checks.empty();

  std::string check = !checked ? std::string("none") : "";
  if (referenceParams)
    check = "ref=" + opt.reference;
  if (opt.compareCpu)
    check += (check.empty() ? "" : "+") + std::string("compare=cpu");
  std::string label;
  for (size_t k = 0; k < names.size(); ++k)
    label += (k ? "," : "") + names[k];
  std::cout << (kernels.size() > 1 ? "kernels " : "kernel ") << label << " ("
            << opt.label << ") backend=" << (opt.gpu ? "gpu" : "cpu")
            << " check=" << check << " seed=" << opt.seed << "\n"
            << "args: " << ref::describeArguments(bound) << "\n";

  std::vector<tg_arg> args = bound.hostArgs();
  std::vector<bundle::GpuRun> gpuRuns(kernels.size());
  // Kept for --bench, which times the kernels only after they passed.
  bundle::Bundle gpuBundle;
  llvm::SmallString<128> dir;
  llvm::scope_exit cleanup([&] {
    if (!dir.empty())
      llvm::sys::fs::remove_directories(dir);
  });
  auto gridText = [](const std::array<int64_t, 3> &g) {
    return std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" +
           std::to_string(g[2]);
  };
  if (opt.gpu) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tilegym-run", dir))
      return fail("cannot create a temporary folder: " + ec.message());
    std::string bundleDir = (dir + "/kernel.tgb").str();
    if (llvm::Error err = compileBundle(bundleDir, module, opt.chip))
      return fail(llvm::toString(std::move(err)));
    if (!bundle::loadBundle(bundleDir, gpuBundle, error))
      return fail(error);
    for (size_t k = 0; k < kernels.size(); ++k) {
      // Views travel through the host between kernels: each launch copies
      // its views in and what it writes back.
      if (int rc = bundle::runOnGpu(gpuBundle, *gpuBundle.findKernel(names[k]),
                                    program.kernelArgs(k, args), 0, gpuRuns[k],
                                    error)) {
        llvm::errs() << (rc == bundle::kExitNoGpu ? "" : "error: ") << error
                     << "\n";
        return rc;
      }
      if (k == 0)
        bundle::printGpuRun(gpuRuns[k]);
      std::cout << names[k] << ": grid=" << gridText(gpuRuns[k].grid) << "\n";
    }
  } else {
    std::vector<std::unique_ptr<CpuKernel>> compiled;
    std::vector<std::array<int64_t, 3>> grids;
    for (size_t k = 0; k < kernels.size(); ++k) {
      auto c = CpuKernel::compile(module, names[k]);
      if (!c)
        return fail(llvm::toString(c.takeError()));
      grids.push_back((*c)->grid(program.kernelArgs(k, args)));
      if (!runtime::checkGridLimits(grids.back().data(), error))
        return fail("kernel '" + names[k] + "': " + error +
                    "; nothing was run");
      compiled.push_back(std::move(*c));
    }
    auto start = std::chrono::steady_clock::now();
    for (size_t k = 0; k < kernels.size(); ++k)
      if (llvm::Error err = compiled[k]->run(program.kernelArgs(k, args),
                                             grids[k], opt.cpuThreads))
        return fail("kernel '" + names[k] +
                    "': " + llvm::toString(std::move(err)));
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    std::cout << "cpu time " << ms << " ms on " << opt.cpuThreads
              << " threads\n";
    for (size_t k = 0; k < kernels.size(); ++k)
      std::cout << (kernels.size() > 1 ? names[k] + ": " : std::string())
                << "grid=" << gridText(grids[k]) << "\n";
  }

  // Each check: its kernels on the same inputs, and on their absolute
  // values for each output's conditioning.
  size_t n = bound.params.size();
  for (Check &c : checks) {
    const std::vector<runtime::Param> &params =
        c.isReference ? *referenceParams : program.params;
    c.expected.resize(n);
    c.scale.resize(n);
    c.expectedTensors.resize(n);
    for (bool absolute : {false, true}) {
      ref::BoundArguments run =
          checkArgs(params, program.params, inputs, bound.scalars, absolute);
      std::vector<tg_arg> runArgs = run.hostArgs();
      for (size_t k = 0; k < kernels.size(); ++k) {
        std::vector<runtime::Param> kernelParams;
        for (size_t index : program.argIndex[k])
          kernelParams.push_back(params[index]);
        if (!runCpu(*c.kernels[k], kernelParams, program.kernelArgs(k, runArgs),
                    opt.cpuThreads, error))
          return fail(std::string(c.isReference ? "reference" : "cpu") +
                      " kernel '" + names[k] + "': " + error);
      }
      for (size_t i = 0; i < n; ++i) {
        if (params[i].kind != TG_ARG_VIEW || !program.params[i].written)
          continue;
        (absolute ? c.scale : c.expected)[i] = run.tensors[i].values();
        if (!absolute)
          c.expectedTensors[i] = std::move(run.tensors[i]);
      }
    }
  }

  ref::DType precision = ref::DType::I32;
  // tf32 products, or fp8 products summed by sm_90a's fp8 wgmma with about
  // 13 mantissa bits per add: errors of a few 2^-11, as tf32's. Elsewhere
  // fp8 dots widen to f16 and sum in f32, as the references do.
  bool coarseDot = false;
  for (func::FuncOp kernel : kernels) {
    precision =
        ref::leastPreciseDType({precision, computePrecision(kernel, bound)});
    coarseDot =
        coarseDot ||
        !tile::getCoarseDotRounding(kernel, opt.gpu ? opt.chip : "").empty();
  }
  ref::Tolerance refTolerance = ref::defaultTolerance(precision);
  if (precision == ref::DType::F32 && coarseDot)
    refTolerance = {1e-5, 2e-3, 2e-3};
  // The CPU JIT is no float64 reference: both sides carry f32 rounding.
  ref::Tolerance cpuTolerance = refTolerance;
  if (precision == ref::DType::F32)
    cpuTolerance.atol *= 2, cpuTolerance.rtol *= 2, cpuTolerance.maxRelErr *= 2;
  auto toleranceOf = [&](const Check &c) {
    return c.isReference ? refTolerance : cpuTolerance;
  };

  if (!opt.dumpDir.empty()) {
    std::vector<const ref::HostTensor *> in, out, ref, scales;
    std::vector<ref::HostTensor> scaleTensors(bound.params.size());
    for (size_t i = 0; i < bound.params.size(); ++i) {
      bool view = bound.params[i].kind == TG_ARG_VIEW;
      in.push_back(view && bound.params[i].read ? &inputs[i] : nullptr);
      out.push_back(view && bound.params[i].written ? &bound.tensors[i]
                                                    : nullptr);
      // The first check's outputs: the reference's when there is one.
      bool isChecked = view && bound.params[i].written && checked;
      ref.push_back(isChecked ? &checks[0].expectedTensors[i] : nullptr);
      if (isChecked) {
        scaleTensors[i] = ref::HostTensor(ref::DType::F64,
                                          checks[0].expectedTensors[i].shape());
        for (int64_t e = 0; e < scaleTensors[i].numel(); ++e)
          scaleTensors[i].set(e, checks[0].scale[i][e]);
      }
      scales.push_back(isChecked ? &scaleTensors[i] : nullptr);
    }
    if (!ref::dumpViews(opt.dumpDir, "", bound, in, error) ||
        !ref::dumpViews(opt.dumpDir, ".out", bound, out, error) ||
        !ref::dumpViews(opt.dumpDir, ".ref", bound, ref, error) ||
        !ref::dumpViews(opt.dumpDir, ".scale", bound, scales, error) ||
        (checked && !ref::writeCheckSettings(opt.dumpDir, bound,
                                             toleranceOf(checks[0]), error)))
      return fail("--dump: " + error);
    std::cout << "dump: inputs as NAME.npy, outputs as NAME.out.npy"
              << (checked ? "; the check's outputs, scales, scalars and "
                            "tolerance for tilegym-runner --check"
                          : "")
              << " in " << opt.dumpDir << "\n";
  }

  // --bench: the kernels timed on the GPU, after their run passed (or was
  // not checked: tilegym-tune verifies at a smaller size first).
  auto timeKernels = [&]() -> int {
    for (size_t k = 0; k < kernels.size(); ++k) {
      bundle::GpuRun timed;
      if (int rc =
              bundle::runOnGpu(gpuBundle, *gpuBundle.findKernel(names[k]),
                               program.kernelArgs(k, args), 20, timed, error))
        return fail(error), rc;
      if (!timed.times.empty())
        std::printf("bench: %s median %.4f ms (min %.4f, max %.4f, %d runs)\n",
                    names[k].c_str(), timed.medianMs(), timed.times.front(),
                    timed.times.back(), int(timed.times.size()));
    }
    return 0;
  };
  if (!checked) {
    bool ok = ref::printUnchecked(std::cout, bound,
                                  "give --ref FILE.tile, --compare=cpu or "
                                  "--reference NAME");
    if (!ok)
      return 1;
    return opt.bench && opt.gpu ? timeKernels() : 0;
  }

  std::vector<ref::CompareResult> results;
  for (const Check &c : checks) {
    ref::Expectation expectation{c.expected, c.scale, toleranceOf(c)};
    for (ref::CompareResult &r : ref::compareWritten(bound, expectation)) {
      // With both checks, each output has a line per check.
      if (checks.size() > 1)
        r.name += c.isReference ? " vs ref" : " vs cpu";
      results.push_back(std::move(r));
    }
  }
  if (results.empty()) {
    std::cout << "verdict: FAIL (nothing writes a view: nothing to "
                 "check)\n";
    return 1;
  }
  bool pass = ref::printVerdict(std::cout, results);
  if (!opt.bench || !opt.gpu)
    return pass ? 0 : 1;
  if (!pass) {
    std::cout << "bench: skipped, the kernel failed verification\n";
    return 1;
  }
  return timeKernels();
}
