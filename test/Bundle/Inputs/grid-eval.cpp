// Evaluates a bundle kernel's grid for arguments given on the command line,
// so that test/Bundle can cover the grid programs of any kernel, scalars
// included, without a GPU or a reference program:
//
//   tilegym-grid-eval BUNDLE KERNEL view:100x128 int:7 float:0.5 [sms:132]
//       [clusters:66]
//
// Prints the grid program and "grid AxBxC", or the error; exit 1 on error.
// With sms:N, also "launch AxBxC": the grid a launch starts on a GPU of N
// SMs (a persistent kernel's is smaller), and " cluster XxYxZ" where it runs
// clusters, of which the GPU holds clusters:M at once (0 by default: the
// driver cannot launch them).
#include "tilegym/Bundle/Bundle.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace tilegym;

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tilegym-grid-eval BUNDLE KERNEL "
                         "[view:AxB | int:N | float:X]...\n");
    return 1;
  }
  bundle::Bundle b;
  std::string error;
  if (!bundle::loadBundle(argv[1], b, error)) {
    std::printf("error: %s\n", error.c_str());
    return 1;
  }
  const bundle::KernelInfo *k = b.findKernel(argv[2]);
  if (!k) {
    std::printf("error: no kernel %s\n", argv[2]);
    return 1;
  }
  std::vector<tg_arg> args;
  int sms = 0, clusters = 0;
  for (int i = 3; i < argc; ++i) {
    const char *a = argv[i];
    if (!std::strncmp(a, "sms:", 4)) {
      sms = int(std::strtol(a + 4, nullptr, 10));
    } else if (!std::strncmp(a, "clusters:", 9)) {
      clusters = int(std::strtol(a + 9, nullptr, 10));
    } else if (!std::strncmp(a, "view:", 5)) {
      std::vector<int64_t> sizes;
      for (const char *p = a + 5; *p; p += *p == 'x') {
        char *end;
        sizes.push_back(std::strtoll(p, &end, 10));
        p = end;
      }
      args.push_back(
          tg_view(TG_F32, 0, int32_t(sizes.size()), sizes.data(), nullptr));
    } else if (!std::strncmp(a, "int:", 4)) {
      args.push_back(tg_scalar_int(TG_I64, std::strtoll(a + 4, nullptr, 10)));
    } else if (!std::strncmp(a, "float:", 6)) {
      args.push_back(tg_scalar_float(TG_F32, std::strtod(a + 6, nullptr)));
    } else {
      std::printf("error: bad argument %s\n", a);
      return 1;
    }
  }
  std::printf("%s\n", bundle::formatGridProgram(k->grid).c_str());
  std::array<int64_t, 3> grid;
  if (!bundle::evaluateGrid(*k, args.data(), args.size(), grid, error)) {
    std::printf("error: %s\n", error.c_str());
    return 1;
  }
  std::printf("grid %lldx%lldx%lld\n", (long long)grid[0], (long long)grid[1],
              (long long)grid[2]);
  if (sms) {
    bundle::LaunchShape launch = bundle::launchShapeOf(
        *k, {uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2])}, sms,
        /*residentPerSM=*/0, clusters);
    std::printf("launch %ux%ux%u", launch.grid.x, launch.grid.y, launch.grid.z);
    if (launch.cluster.x * launch.cluster.y * launch.cluster.z > 1)
      std::printf(" cluster %ux%ux%u", launch.cluster.x, launch.cluster.y,
                  launch.cluster.z);
    std::printf("\n");
  }
  return 0;
}
