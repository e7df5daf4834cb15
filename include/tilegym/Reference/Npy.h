//===- Npy.h - NumPy .npy files for kernel arguments ------------*- C++ -*-===//
//
// Reads and writes the .npy format (version 1.0 written; 1.0, 2.0 and 3.0
// read; C order, little-endian), so that a run's inputs and outputs can be
// checked or produced by numpy, PyTorch or anything else.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_REFERENCE_NPY_H
#define TILEGYM_REFERENCE_NPY_H

#include "tilegym/Reference/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilegym::ref {

/// Writes `tensor` to `path`. bf16, f8e4m3 and f8e5m2, which numpy lacks,
/// are written as f32 (exactly); i1 as numpy's bool.
bool writeNpy(const std::string &path, const HostTensor &tensor,
              std::string &error);

/// An array read from a .npy file: its shape and its values as doubles.
struct NpyArray {
  std::vector<int64_t> shape;
  std::string descr; ///< numpy's dtype string, e.g. "<f4".
  std::vector<double> values;
};

/// Reads `path`: float (f2, f4, f8), signed and unsigned integer (1 to 8
/// bytes) and bool arrays, at most `maxElements` elements. Errors name the
/// file and what is wrong ("x.npy: Fortran-order arrays are not supported").
bool readNpy(const std::string &path, int64_t maxElements, NpyArray &array,
             std::string &error);

} // namespace tilegym::ref

#endif // TILEGYM_REFERENCE_NPY_H
