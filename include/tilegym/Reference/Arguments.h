//===- Arguments.h - any kernel's arguments, from its signature -*- C++ -*-===//
//
// Binds every parameter of any kernel from its signature (runtime::Param:
// names, ranks, static sizes, dimension names, access, scalar defaults) and
// the user's choices on the command line, with no reference program:
//
//   --shape x=4096x1024,w=1024    sizes of views, by parameter name
//   --size M=4096,N=1024          sizes of named dimensions (view<[M, N], T>)
//   --arg eps=1e-5                scalars (else the source's default)
//   --init labels=randint(0,999)  an input's distribution
//   --input x=x.npy               an input read from a .npy file
//
// Views the kernel reads are drawn from their distribution (default
// uniform(-1,1) for floats, randint(-100,100) for i32, randint(0,1) for
// i1); views it only writes are poisoned, so that unwritten elements show.
// Plain C++17, no MLIR: tilegym-run, tilegym-runner and the C API's
// callers share it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_REFERENCE_ARGUMENTS_H
#define TILEGYM_REFERENCE_ARGUMENTS_H

#include "tilegym/Reference/Reference.h"
#include "tilegym/Reference/Tensor.h"
#include "tilegym/Runtime/Program.h"
#include "tilegym/Runtime/Runtime.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilegym::ref {

/// The command line's say about a run's arguments; each list entry is one
/// occurrence of its option and may hold several comma-separated items.
struct ArgumentChoices {
  std::vector<std::string> shapes;  ///< --shape NAME=AxBxC[,...]
  std::vector<std::string> sizes;   ///< --size NAME=N[,...]
  std::vector<std::string> scalars; ///< --arg NAME=VALUE[,...]
  std::vector<std::string> inits;   ///< --init NAME=DIST[,...]
  std::vector<std::string> inputs;  ///< --input NAME=FILE.npy[,...]
};

/// How an input view is filled.
struct Distribution {
  enum class Kind { Uniform, Normal, RandInt, Constant, File, Poison };
  Kind kind = Kind::Uniform;
  double a = -1.0, b = 1.0; ///< Bounds, mean and stddev, or the constant.
  std::string file;
  std::string describe() const; ///< "uniform(-1,1)", "x.npy", ...
};

/// A view argument of element type `dtype` on `tensor`'s host memory.
tg_arg hostView(tg_dtype dtype, HostTensor &tensor);

/// Every argument of one launch, in host memory.
struct BoundArguments {
  std::vector<runtime::Param> params;
  /// One per parameter: the view's tensor (empty for a scalar).
  std::vector<HostTensor> tensors;
  /// One per parameter: the scalar's value (unused for a view).
  std::vector<tg_arg> scalars;
  std::vector<Distribution> fills; ///< One per parameter (views).
  /// The size of each dimension name.
  Sizes sizes;
  /// Launch arguments pointing at the host tensors (data = host address).
  std::vector<tg_arg> hostArgs();
};

/// Binds the arguments of a kernel with signature `params`: resolves every
/// view's shape and every scalar, checks names and sizes against the
/// signature (and runtime::checkArguments), allocates and fills. Inputs
/// come from one std::mt19937_64 seeded with `seed`, in parameter order.
/// Errors name the option and the parameter ("--shape w=512: dimension N
/// is 512, but x gives N = 1024").
bool bindArguments(const std::vector<runtime::Param> &params,
                   const ArgumentChoices &choices, uint64_t seed,
                   BoundArguments &bound, std::string &error);

/// "x[M=4096, N=1024] f32 read uniform(-1,1), y[4096, 1024] f32 write,
/// eps f32 = 1e-05": one item per parameter, for the run's header.
std::string describeArguments(const BoundArguments &bound);

/// The host element type of a runtime dtype; std::nullopt for a value
/// outside the enum.
std::optional<DType> refDType(tg_dtype dtype);

/// A parameter's label in messages: its name, or "parameter N" (from 1).
std::string paramLabel(const std::vector<runtime::Param> &params, size_t i);

/// Creates `dir` (one level) if needed and writes views[i], one entry per
/// parameter (nullptr to skip), as DIR/<name><suffix>.npy. Names are
/// parameter identifiers, so nothing is written outside `dir`.
bool dumpViews(const std::string &dir, const std::string &suffix,
               const BoundArguments &bound,
               const std::vector<const HostTensor *> &views,
               std::string &error);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_ARGUMENTS_H
