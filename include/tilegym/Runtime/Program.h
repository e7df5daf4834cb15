//===- Program.h - kernels run in sequence as one program -------*- C++ -*-===//
//
// A program runs kernels in order on one set of arguments, where the
// parameters of one name (across the kernels) are one argument. A view one
// kernel writes and a later one reads is a temporary: the caller provides it
// like any other argument, and verifiers poison and check it like an output.
// Programs come from `program NAME = a, b;` in the source (carried in the
// bundle manifest's "programs") or from `--kernel a,b` on a command line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_RUNTIME_PROGRAM_H
#define TILEGYM_RUNTIME_PROGRAM_H

#include "tilegym/Runtime/Runtime.h"

#include <string>
#include <vector>

namespace tilegym::runtime {

struct ProgramSignature {
  std::vector<std::string> kernels;
  std::vector<Param> params; ///< Merged, in order of appearance.
  /// Per kernel, per parameter: its index in `params`.
  std::vector<std::vector<size_t>> argIndex;
  /// Kernel k's launch arguments, picked from the program's.
  std::vector<tg_arg> kernelArgs(size_t k,
                                 const std::vector<tg_arg> &programArgs) const;
};

/// Merges the kernels' signatures: parameters of one name must agree in
/// kind, element type, rank, static sizes and dimension names (a name may
/// fill an unnamed dimension). A view is read by the program when a kernel
/// reads it before any earlier kernel wrote it. With several kernels every
/// parameter needs a name. Errors read "kernel 'total', parts is a view of
/// f16 here, a view of f32 in an earlier kernel".
bool mergeSignatures(const std::vector<std::string> &kernels,
                     const std::vector<std::vector<Param>> &signatures,
                     ProgramSignature &program, std::string &error);

/// A program by name: its kernels in launch order.
struct NamedProgram {
  std::string name;
  std::vector<std::string> kernels;
};

/// What `--kernel SPEC` runs, as kernel names in launch order: the kernel
/// SPEC, the kernels of program SPEC, or those of a comma-separated list
/// "a,b"; an empty SPEC is the only kernel, or else the only program. Every
/// name must be one of `kernels`. Errors name `where` (the file or bundle):
/// "no kernel or program named 'x' in f.tile".
bool resolveKernelNames(const std::string &spec,
                        const std::vector<std::string> &kernels,
                        const std::vector<NamedProgram> &programs,
                        const std::string &where,
                        std::vector<std::string> &names, std::string &error);

} // namespace tilegym::runtime

#endif // TILEGYM_RUNTIME_PROGRAM_H
