//===- Parallel.cpp - Row-parallel loops for the references ---------------===//

#include "Parallel.h"

#include "tilegym/Reference/Reference.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <system_error>
#include <thread>
#include <vector>

namespace tilegym::ref {

unsigned referenceThreads() {
  // Read on every call, so a test can change it between runs.
  if (const char *text = std::getenv("TILEGYM_REF_THREADS")) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && value > 0)
      return static_cast<unsigned>(std::min(value, 1024L));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(int64_t count,
                 const std::function<void(int64_t, int64_t)> &body) {
  if (count <= 0)
    return;
  const int64_t threads = std::min<int64_t>(referenceThreads(), count);
  // About 8 ranges per thread: small enough to balance, large enough that
  // handing them out costs nothing.
  const int64_t chunk = std::max<int64_t>(1, count / (threads * 8));
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t begin; (begin = next.fetch_add(chunk)) < count;)
      body(begin, std::min(begin + chunk, count));
  };
  std::vector<std::thread> workers;
  try {
    for (int64_t t = 1; t < threads; ++t)
      workers.emplace_back(work);
  } catch (const std::system_error &) {
    // Out of threads: those started and the caller still cover every range.
  }
  work();
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace tilegym::ref
