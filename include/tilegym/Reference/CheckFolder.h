//===- CheckFolder.h - a run's inputs and expected outputs on disk -*- C++
//-*-===//
//
// A check folder holds everything needed to verify a kernel elsewhere: the
// inputs it saw (NAME.npy), its scalar arguments (args.txt, NAME=VALUE
// lines), the shapes of the views it only writes (shapes.txt, NAME=AxB), the
// reference's outputs (NAME.ref.npy), each output's conditioning
// (NAME.scale.npy: the reference on |inputs|) and the tolerance
// (tolerance.txt). `tilegym-run --dump DIR` writes one on a machine with LLVM;
// `tilegym-runner --check DIR` runs the same kernel on a GPU machine without
// LLVM and compares with it.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_REFERENCE_CHECKFOLDER_H
#define TILEGYM_REFERENCE_CHECKFOLDER_H

#include "tilegym/Reference/Arguments.h"
#include "tilegym/Reference/Compare.h"

#include <ostream>
#include <string>
#include <vector>

namespace tilegym::ref {

/// What each written view is compared with; one entry per parameter.
struct Expectation {
  std::vector<std::vector<double>> expected, scale;
  Tolerance tolerance;
};

/// Writes args.txt (the scalars of `bound`), shapes.txt (its write-only
/// views' shapes) and tolerance.txt into `dir`.
bool writeCheckSettings(const std::string &dir, const BoundArguments &bound,
                        const Tolerance &tolerance, std::string &error);

/// Adds DIR/NAME.npy for every view the kernel reads, shapes.txt's shapes
/// and args.txt's scalars to `choices`, except for names it has already.
bool readCheckInputs(const std::string &dir,
                     const std::vector<runtime::Param> &params,
                     ArgumentChoices &choices, std::string &error);

/// Reads NAME.ref.npy (required), NAME.scale.npy (optional) for every view
/// the kernel writes, and tolerance.txt.
bool readExpectation(const std::string &dir, const BoundArguments &bound,
                     Expectation &expectation, std::string &error);

/// Compares every written view of `bound` with `expectation`.
std::vector<CompareResult> compareWritten(const BoundArguments &bound,
                                          const Expectation &expectation);

/// For a run without a check: per written view, its unwritten and NaN
/// elements, then "verdict: UNCHECKED ...". Returns false when some
/// element was left unwritten.
bool printUnchecked(std::ostream &os, const BoundArguments &bound,
                    const std::string &hint);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_CHECKFOLDER_H
