//===- Parallel.h - Row-parallel loops for the references -------*- C++ -*-===//
//
// Private to the library. The references at benchmark sizes (matmul 8192^3,
// attention S=4096) take minutes on one core, so they split their
// independent output rows over threads. Each row is still computed by one
// thread with the same operations in the same order, never a split
// reduction, so the results do not depend on the thread count.
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_LIB_REFERENCE_PARALLEL_H
#define TILEGYM_LIB_REFERENCE_PARALLEL_H

#include <cstdint>
#include <functional>

namespace tilegym::ref {

/// Calls body(begin, end) on disjoint ranges that together cover
/// [0, count), from up to referenceThreads() threads (the caller is one).
/// Ranges are handed out dynamically, so uneven rows (causal attention)
/// still balance. `body` must not throw.
void parallelFor(int64_t count,
                 const std::function<void(int64_t, int64_t)> &body);

} // namespace tilegym::ref

#endif // TILEGYM_LIB_REFERENCE_PARALLEL_H
