//===- Reference.h - float64 reference programs -----------------*- C++ -*-===//
//
// The registry of reference programs: for each flagship kernel, its sizes,
// its arguments in kernel parameter order, and an independent float64
// implementation. A verifier looks a program up by name, parses sizes,
// allocates and fills the arguments (element types come from the compiled
// kernel's signature), runs the kernel, runs the reference and compares:
//
//   const Reference *ref = lookupReference("softmax");
//   Sizes sizes = defaultSizes(*ref);
//   if (!parseSizes(*ref, "M=4096,N=512", sizes, error)) ...
//   if (!checkSignature(*ref, dtypes, ranks, error)) ...
//   std::vector<HostTensor> args = makeArguments(*ref, sizes, dtypes, seed);
//   ... run the kernel on args ...
//   Options options = effectiveOptions(*ref, defines);
//   auto expected = runReference(*ref, sizes, options, args);
//   auto results = compareOutputs(*ref, sizes, args, expected);
//   bool ok = printVerdict(std::cout, results);
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_REFERENCE_REFERENCE_H
#define TILEGYM_REFERENCE_REFERENCE_H

#include "tilegym/Reference/Compare.h"
#include "tilegym/Reference/Tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tilegym::ref {

/// Values of the size parameters, by name ("M" -> 4096).
using Sizes = std::map<std::string, int64_t>;
/// Compile-time defines the kernel was built with ("CAUSAL" -> "1").
using Options = std::map<std::string, std::string>;

struct SizeParam {
  std::string name;
  int64_t defaultValue;
};

enum class Role { Input, Output };

struct ArgSpec {
  std::string name;
  /// Size parameter names, outermost first: {"M", "N"} is [M, N].
  std::vector<std::string> dims;
  Role role;
  /// Inputs are drawn uniformly from [lo, hi].
  double lo = -1.0, hi = 1.0;

  std::vector<int64_t> shape(const Sizes &sizes) const;
};

/// Computes every output in float64 from the inputs. `inputs` holds the
/// input arguments and `outputs` receives the outputs, each in argument
/// order; outputs[i] is resized to the i-th output's element count. Inputs
/// are read through HostTensor::get/values, so the reference computes on
/// exactly the (rounded) values the kernel saw.
using ComputeFn = void (*)(const Sizes &sizes, const Options &options,
                           const std::vector<const HostTensor *> &inputs,
                           std::vector<std::vector<double>> &outputs);

/// Tolerance for a program at given sizes, where `precision` is the least
/// precise float type among its arguments.
using ToleranceFn = Tolerance (*)(const Sizes &sizes, DType precision);

struct Reference {
  std::string name;
  std::vector<std::string> aliases;
  std::string description;
  std::vector<SizeParam> sizes;
  std::vector<ArgSpec> args;
  /// Defines the program implies unless the kernel's defines override them.
  Options defaultOptions;
  /// Options the reference's own definition fixes: a kernel's consts do not
  /// override them (attention_causal is causal whatever the kernel says), so
  /// that a kernel built with the other setting FAILs instead of being
  /// checked against a reference that adapted to it.
  Options fixedOptions;
  ComputeFn compute = nullptr;
  /// Null: defaultTolerance(precision).
  ToleranceFn tolerance = nullptr;
};

/// Every registered program, in a fixed order.
const std::vector<Reference> &registry();

/// The program with this name or alias; nullptr if none.
const Reference *lookupReference(std::string_view name);

/// One line: "softmax(x[M,N] in, y[M,N] out) sizes M=67 N=1000 (aliases:
/// softmax_online, softmax_looped): <description>".
std::string describe(const Reference &ref);

Sizes defaultSizes(const Reference &ref);

/// Parses "M=4096,N=512" (spaces allowed around items) and overrides those
/// entries of `sizes`; an empty string changes nothing. The sizes must give
/// every argument at most kMaxArgumentElements elements, and all of them
/// together must fit the host's memory (checked without overflow, before
/// anything is allocated). On error returns false, leaves `sizes`
/// unchanged and sets `error`.
/// The most elements of one argument: 2^31 - 1, as the GPU's 32-bit
/// element offsets allow (the CPU keeps the same limit, so that a size runs
/// on both).
constexpr int64_t kMaxArgumentElements = 2147483647;

bool parseSizes(const Reference &ref, std::string_view text, Sizes &sizes,
                std::string &error);

/// Checks a kernel signature against the program: one element type and one
/// rank per argument, ranks matching the argument shapes. Sets `error` on
/// a mismatch.
bool checkSignature(const Reference &ref, const std::vector<DType> &dtypes,
                    const std::vector<int64_t> &ranks, std::string &error);

/// The defines in effect: the program's defaultOptions overridden by
/// `defines`, then by its fixedOptions.
Options effectiveOptions(const Reference &ref, const Options &defines);

/// Whether define `name` is set to something other than "0" or "false".
bool optionEnabled(const Options &options, const std::string &name);

/// Allocates every argument with its element type: inputs filled uniform
/// from an std::mt19937_64 seeded with `seed`, outputs poisoned. `dtypes`
/// must have passed checkSignature.
std::vector<HostTensor> makeArguments(const Reference &ref, const Sizes &sizes,
                                      const std::vector<DType> &dtypes,
                                      uint64_t seed);

/// Threads the references run on: TILEGYM_REF_THREADS when set to a
/// positive integer, else std::thread::hardware_concurrency(). Read on
/// every call. Results are bit-for-bit the same for any thread count.
unsigned referenceThreads();

/// Runs the float64 reference on the inputs among `args` (all arguments,
/// in kernel order); returns one vector per output argument. Independent
/// output rows run on referenceThreads() threads.
std::vector<std::vector<double>>
runReference(const Reference &ref, const Sizes &sizes, const Options &options,
             const std::vector<HostTensor> &args);

/// The program's tolerance for these sizes and argument element types.
Tolerance toleranceFor(const Reference &ref, const Sizes &sizes,
                       const std::vector<DType> &dtypes);

/// Compares every output argument among `args` with `expected` (as
/// returned by runReference), with toleranceFor's tolerance.
std::vector<CompareResult>
compareOutputs(const Reference &ref, const Sizes &sizes,
               const std::vector<HostTensor> &args,
               const std::vector<std::vector<double>> &expected);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_REFERENCE_H
