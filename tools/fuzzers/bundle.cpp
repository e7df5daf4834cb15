//===- bundle.cpp - libFuzzer target for the bundle reader ----------------===//
//
// Fuzzes what tilegym-runner and libtilegym_bundle do with a bundle's
// manifest.json before any driver call. The input is manifest text, up to
// its first NUL byte, for bundle::parseManifest(text, "/nonexistent",
// /*checkFiles=*/false, ...). When it parses, every kernel's grid program is
// formatted (bundle::formatGridProgram) and evaluated (bundle::evaluateGrid)
// with launch arguments made from the parameters: views of the parameter's
// rank whose open sizes are each of 0, 1, 1000 and 2^31-1 in turn (scalars
// that value), then one set read from the bytes after the NUL (sizes from a
// pool of edge values, and at times arguments of the wrong kind or rank),
// each checked with runtime::checkArguments too; bundle::selectImage runs
// for a few GPUs (the files do not exist: it must fail cleanly). A grid that
// evaluates outside the launch limits aborts, as a finding; errors are
// otherwise expected.
//
// Run: scripts/fuzz.sh bundle SECONDS
//   (seeds: any manifest.json under test/Bundle/Inputs and
//   tools/fuzzers/corpus/bundle/; tools/fuzzers/bundle.dict). Reproduce a
//   finding: build-fuzz/bin/tilegym-fuzz-bundle CRASH_FILE; the text before
//   any NUL byte is a manifest.json for tilegym-runner --dry-run.
//
//===----------------------------------------------------------------------===//

#include "tilegym/Bundle/Bundle.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace tilegym;

namespace {
/// Sizes and scalar values at the edges of what grids compute with.
const int64_t kPool[] = {0,
                         1,
                         2,
                         3,
                         7,
                         127,
                         128,
                         1000,
                         1024,
                         65535,
                         65536,
                         (int64_t(1) << 31) - 1,
                         int64_t(1) << 31,
                         (int64_t(1) << 32) + 1,
                         std::numeric_limits<int64_t>::max(),
                         -1,
                         -2,
                         std::numeric_limits<int64_t>::min()};

/// Reads bytes from the input's tail; zeros once it runs out.
struct Bytes {
  const uint8_t *p, *end;
  uint8_t next() { return p < end ? *p++ : 0; }
};

tg_arg argFor(const runtime::Param &param, int64_t fill) {
  tg_arg a;
  std::memset(&a, 0, sizeof(a));
  a.kind = param.kind;
  a.dtype = param.dtype;
  if (param.kind == TG_ARG_SCALAR) {
    a.int_value = fill;
    a.float_value = double(fill);
    return a;
  }
  a.data = 0x10000;
  a.rank = int32_t(param.sizes.size());
  int64_t stride = 1;
  for (int d = a.rank - 1; d >= 0; --d) {
    a.sizes[d] = param.sizes[d] >= 0 ? param.sizes[d] : fill;
    a.strides[d] = stride;
    stride *= 2; // Strides are not checked; any will do.
  }
  return a;
}

void checkGrid(const bundle::KernelInfo &kernel,
               const std::vector<tg_arg> &args) {
  (void)runtime::checkArguments(kernel.params, args.data(), args.size());
  std::array<int64_t, 3> grid = {-7, -7, -7};
  std::string error;
  if (!bundle::evaluateGrid(kernel, args.data(), args.size(), grid, error))
    return;
  const int64_t limits[] = {(int64_t(1) << 31) - 1, 65535, 65535};
  for (int d = 0; d < 3; ++d)
    if (grid[d] < 0 || grid[d] > limits[d]) {
      std::fprintf(stderr,
                   "tilegym-fuzz-bundle: kernel '%s': evaluateGrid succeeded "
                   "with grid[%d] = %lld outside [0, %lld]\n",
                   kernel.name.c_str(), d, (long long)grid[d],
                   (long long)limits[d]);
      std::abort();
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = static_cast<const uint8_t *>(std::memchr(data, 0, size));
  std::string text(reinterpret_cast<const char *>(data),
                   nul ? size_t(nul - data) : size);
  Bytes tail{nul ? nul + 1 : data + size, data + size};

  bundle::Bundle b;
  std::string error;
  if (!bundle::parseManifest(text, "/nonexistent", /*checkFiles=*/false, b,
                             error))
    return 0;

  for (const bundle::KernelInfo &kernel : b.kernels) {
    if (b.findKernel(kernel.name) != &kernel) {
      std::fprintf(stderr,
                   "tilegym-fuzz-bundle: findKernel('%s') is not "
                   "the kernel of that name\n",
                   kernel.name.c_str());
      std::abort();
    }
    (void)bundle::formatGridProgram(kernel.grid);

    // Fixed sizes.
    for (int64_t fill :
         {int64_t(0), int64_t(1), int64_t(1000), (int64_t(1) << 31) - 1}) {
      std::vector<tg_arg> args;
      for (const runtime::Param &p : kernel.params)
        args.push_back(argFor(p, fill));
      checkGrid(kernel, args);
    }

    // Sizes from the input, and at times arguments of the wrong kind or
    // rank (0..TG_MAX_RANK: what tg_arg can hold).
    if (tail.p < tail.end) {
      std::vector<tg_arg> args;
      for (const runtime::Param &p : kernel.params) {
        tg_arg a = argFor(p, kPool[tail.next() % std::size(kPool)]);
        uint8_t flags = tail.next();
        if (flags & 0x80)
          a.kind = a.kind == TG_ARG_VIEW ? TG_ARG_SCALAR : TG_ARG_VIEW;
        if (flags & 0x40)
          a.rank = flags % (TG_MAX_RANK + 1);
        if (a.kind == TG_ARG_VIEW)
          for (int d = 0; d < a.rank; ++d)
            if (d >= int(p.sizes.size()) || p.sizes[d] < 0 || (flags & 0x20))
              a.sizes[d] = kPool[tail.next() % std::size(kPool)];
        args.push_back(a);
      }
      checkGrid(kernel, args);
      // One argument too few must be an error, not a read past the end.
      if (!args.empty()) {
        std::array<int64_t, 3> grid;
        if (bundle::evaluateGrid(kernel, args.data(), args.size() - 1, grid,
                                 error)) {
          std::fprintf(stderr, "tilegym-fuzz-bundle: evaluateGrid accepted "
                               "too few arguments\n");
          std::abort();
        }
      }
    }

    // No files exist under /nonexistent: every choice must fail cleanly.
    for (auto [major, minor] : {std::pair{8, 0}, std::pair{8, 6},
                                std::pair{9, 0}, std::pair{10, 0}}) {
      bundle::Image image;
      (void)bundle::selectImage(b, kernel, major, minor, image, error);
    }
  }
  return 0;
}
