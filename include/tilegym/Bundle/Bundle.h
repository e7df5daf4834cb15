//===- Bundle.h - compiled kernel bundles, without MLIR ---------*- C++ -*-===//
//
// A bundle is a folder NAME.tgb/ holding manifest.json and, per kernel,
// <kernel>.ptx and optionally <kernel>.cubin (see docs/gpu.md for the
// format). This library reads and validates a bundle, evaluates a kernel's
// grid program for concrete arguments, and picks the image to load on a
// given GPU. Plain C++17 on top of the runtime: it is what ships next to
// compiled kernels on machines without LLVM.
//
//   bundle::Bundle b;
//   if (!bundle::loadBundle("vector_add.tgb", b, error)) ...
//   const bundle::KernelInfo *k = b.findKernel("vector_add");
//   std::array<int64_t, 3> grid;
//   if (!bundle::evaluateGrid(*k, args, numArgs, grid, error)) ...
//
//===----------------------------------------------------------------------===//

#ifndef TILEGYM_BUNDLE_BUNDLE_H
#define TILEGYM_BUNDLE_BUNDLE_H

#include "tilegym/Runtime/Program.h"
#include "tilegym/Runtime/Runtime.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilegym::bundle {

/// manifest.json's "format" and the newest "version" this library reads.
/// Version 1 is a bundle of kernels (what the compiler writes); version 2 a
/// bundle of variants: version-1 bundles of one source compiled with
/// different consts, and a table saying which to launch for which shapes
/// (what tilegym-tune writes).
constexpr const char *kFormatName = "tilegym-bundle";
constexpr int64_t kFormatVersion = 2;
constexpr int64_t kKernelsFormatVersion = 1;
/// How views become kernel parameters; must be what runtime::PackedArgs
/// does (see docs/runtime.md).
constexpr const char *kViewAbi = "memref-expanded";

/// One SSA value of a grid program. Values are integers `bits` wide
/// (64 for index), kept sign-extended to 64 bits.
struct GridOp {
  enum class Kind {
    Arg,      // integer scalar parameter `arg`
    Dim,      // size of view parameter `arg` along `axis`
    NumTiles, // cdiv(dim(arg, axis), value)
    Const,    // value
    Binary,   // name lhs, rhs: addi subi muli divsi divui remsi remui
              // ceildivsi floordivsi maxsi minsi maxui minui cdiv
    Cmpi,     // predicate lhs, rhs: eq ne slt sle sgt sge ult ule ugt uge
    Select,   // cond ? lhs : rhs
    Cast,     // operand `lhs` widened or truncated to `bits`, signed or not
  };
  Kind kind = Kind::Const;
  std::string name; // The manifest's "op".
  int bits = 64;
  int64_t arg = 0, axis = 0, value = 0;
  int64_t lhs = 0, rhs = 0, cond = 0;
  std::string predicate;
  bool isSigned = true; // Cast
};

/// A kernel's grid function as a straight-line program: ops may use only
/// earlier ops; results are the indices of the x, y and z sizes.
struct GridProgram {
  std::vector<GridOp> ops;
  std::array<int64_t, 3> results = {0, 0, 0};
};

struct KernelInfo {
  std::string name;  // The tile kernel's name.
  std::string entry; // Symbol in the PTX/cubin.
  int64_t numWarps = 4;
  /// Warps after numWarps that run a warp-specialized kernel's producer
  /// (tilegpu-warp-specialize); the block has both.
  int64_t producerWarps = 0;
  /// A persistent kernel's blocks per SM (0: not persistent): its launch
  /// runs min(tiles, SMs x this) blocks along x, each running tile after
  /// tile of the grid (tilegpu-persistent).
  int64_t persistentBlocksPerSM = 0;
  /// The blocks of a cluster (tilegpu-multicast; 1: no clusters): paired
  /// along the grid's y (a persistent launch's x), they share the tiles both
  /// load, where the launch's grid allows (launchShapeOf).
  int64_t clusterBlocks = 1;
  tg_dim3 block = {128, 1, 1};
  uint32_t sharedBytes = 0; // Dynamic shared memory per block.
  /// Names are empty unless the manifest gives them.
  std::vector<runtime::Param> params;
  std::string ptxFile;   // Path inside the bundle folder.
  std::string cubinFile; // Empty when the bundle has no cubin.
  GridProgram grid;
  /// The TMA's tensor maps the kernel takes after its parameters, which
  /// each launch encodes from its arguments.
  std::vector<runtime::TensorMap> tensorMaps;
};

/// A program of the source (`program NAME = a, b;`): kernels of the bundle
/// run in order, parameters of one name being one argument.
struct ProgramInfo {
  std::string name;
  std::vector<std::string> kernels;
  runtime::ProgramSignature signature; // Merged at load.
};

struct Bundle;

/// One row of a bundle of variants' dispatch table: launching `run` (a
/// kernel or a program) with views whose sizes fall in these shape buckets
/// uses variant `variant`.
struct DispatchRule {
  std::string run;
  /// Per parameter of the run's signature: the view's size buckets (each
  /// size rounded up to a power of two); empty for scalars.
  std::vector<std::vector<int64_t>> buckets;
  size_t variant = 0;
};

struct Bundle {
  std::string dir; // The folder it was loaded from.
  std::string source;
  std::string target; // e.g. "sm_90a"
  /// File-level consts the kernels were compiled with ("T" -> "bf16").
  std::map<std::string, std::string> consts;
  std::vector<KernelInfo> kernels;
  std::vector<ProgramInfo> programs;

  /// A bundle of variants (version 2): each variant a bundle of kernels
  /// with the same kernels, programs and signatures, compiled with other
  /// consts. `kernels` and `programs` above are the default variant's, for
  /// signatures; `consts` are those every variant shares. Empty for a
  /// bundle of kernels, which is its own only variant.
  std::vector<Bundle> variants;
  /// Per variant, the consts it was tuned with ("BM" -> "128").
  std::vector<std::map<std::string, std::string>> tuned;
  std::vector<DispatchRule> dispatch;
  size_t defaultVariant = 0;

  size_t numVariants() const { return variants.empty() ? 1 : variants.size(); }
  /// Variant `index`: the bundle itself for a bundle of kernels.
  const Bundle &variant(size_t index) const {
    return variants.empty() ? *this : variants[index];
  }
  /// The variant to launch `run` (a kernel or program name) with these
  /// arguments (already checked against its signature): the rule for `run`
  /// whose buckets are nearest the views' (summed |log2| distance over
  /// every size, the first on ties; an exact bucket is distance 0), else
  /// the default variant.
  size_t selectVariant(const std::string &run, const tg_arg *args,
                       size_t numArgs) const;
  /// "BM=128 BN=64": what variant `index` was tuned with; "" for none.
  std::string describeVariant(size_t index) const;

  /// The kernel named `name`; nullptr if none.
  const KernelInfo *findKernel(const std::string &name) const;
  /// The program named `name`; nullptr if none.
  const ProgramInfo *findProgram(const std::string &name) const;
  /// What `--kernel NAME` runs: the kernel NAME, the kernels of program
  /// NAME, or those of a comma-separated list "a,b"; with an empty `name`,
  /// the bundle's only kernel, or else its only program. Errors name the
  /// bundle folder.
  bool resolveKernels(const std::string &name,
                      std::vector<const KernelInfo *> &kernels,
                      std::string &error) const;
};

/// Reads and validates DIR/manifest.json and checks that the files it names
/// exist. Errors read "DIR/manifest.json: kernels[0].grid.ops[2]: ...".
bool loadBundle(const std::string &dir, Bundle &bundle, std::string &error);

/// Validates the manifest `text` of a bundle in `dir`; with `checkFiles`,
/// the files it names must be regular files there. For loadBundle and for
/// fuzzing the reader without a folder.
bool parseManifest(const std::string &text, const std::string &dir,
                   bool checkFiles, Bundle &bundle, std::string &error);

/// The shape bucket of a size: the least power of two at or above it (1 for
/// 0 and 1), as tilegym-tune keys its cache.
int64_t shapeBucket(int64_t size);

/// A kernel symbol as the writer emits it: [A-Za-z_][A-Za-z0-9_]*, at most
/// 255 characters. Symbols name files and PTX entries.
bool isSymbolName(const std::string &name);

/// The most shared memory a block can have on any supported GPU (227 KiB on
/// sm_90, the opt-in maximum); the runtime checks the device's own limit.
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// Runs the kernel's grid program on the launch arguments (views give their
/// sizes, integer scalars their value). Fails on a division by zero, a
/// negative grid size or one above the launch limits (2^31-1 for x, 65535
/// for y and z), a persistent kernel's grid of more than
/// kMaxPersistentTiles tiles, and on arguments of the wrong kind or rank.
bool evaluateGrid(const KernelInfo &kernel, const tg_arg *args, size_t numArgs,
                  std::array<int64_t, 3> &grid, std::string &error);

/// The most tiles a persistent kernel's grid may have (evaluateGrid refuses
/// more): its blocks walk them with 32-bit indices, stepping by the
/// launched count.
constexpr uint64_t kMaxPersistentTiles = uint64_t(1) << 30;

/// What a launch starts: its grid, in clusters of `cluster` blocks.
struct LaunchShape {
  tg_dim3 grid;
  tg_dim3 cluster = {1, 1, 1};
};

/// The launch of `kernel` for its grid `grid` on a GPU of `multiprocessors`
/// SMs: `grid` itself, or for a persistent kernel min(tiles, multiprocessors
/// x blocks per SM) blocks along x, which run the grid's tiles in turn.
/// Blocks per SM: the kernel's (the compiler's estimate), or fewer where the
/// driver found that fewer fit (`residentPerSM`, 0 when unknown): blocks
/// beyond what the GPU holds would wait for a whole block's worth of tiles
/// before they start theirs.
///
/// A kernel of clusters (clusterBlocks > 1) runs them where the grid's y is
/// a multiple of them and the driver runs `activeClusters` > 0 of them at
/// once (0: unknown, or the driver cannot launch clusters): along y, or for
/// a persistent kernel along x, at most `activeClusters` of them, so that
/// consecutive tiles (rows of one column) go to the blocks of one cluster.
/// Elsewhere it runs without, as the same code allows.
LaunchShape launchShapeOf(const KernelInfo &kernel, tg_dim3 grid,
                          int multiprocessors, int residentPerSM = 0,
                          int activeClusters = 0);

/// The blocks per SM a persistent launch of `kernel` counts on, as
/// launchShapeOf takes it; 0 for a kernel that is not persistent.
int persistentBlocksPerSM(const KernelInfo &kernel, int residentPerSM);

/// The program in readable form:
///   "%0 = dim arg2[0]; %1 = const 1024; %2 = cdiv %0, %1 -> (%2, %3, %3)".
std::string formatGridProgram(const GridProgram &program);

/// The image to load on a GPU of compute capability major.minor: the cubin
/// when there is one and the bundle's target is that GPU's target
/// (runtime::targetForComputeCapability), else the PTX, which the driver
/// JIT-compiles. Fails when the GPU cannot run the target at all: an older
/// GPU, or another GPU than an arch-specific target (sm_90a) names.
struct Image {
  std::string path;
  bool isCubin = false;
  std::string bytes;
};
bool selectImage(const Bundle &bundle, const KernelInfo &kernel, int ccMajor,
                 int ccMinor, Image &image, std::string &error);

} // namespace tilegym::bundle

#endif // TILEGYM_BUNDLE_BUNDLE_H
