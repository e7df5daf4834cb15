/*===- tilegym_bundle.h - C API for kernel bundles ------------------*- C
 * -*-===*/
/*
 * Opens a kernel bundle (NAME.tgb/, see docs/gpu.md), answers questions about
 * its kernels without a GPU (signatures, grid programs), loads a kernel on a
 * GPU's primary context (the one the CUDA runtime and PyTorch use, so device
 * pointers are shared with them) and launches it on any CUDA stream: the
 * arguments are checked against the kernel's signature and the grid is
 * evaluated from the manifest before anything reaches the driver.
 *
 * No MLIR, no LLVM, no CUDA at build time (the driver is opened with dlopen).
 * The shared library libtilegym_bundle.so exports this API and the runtime's
 * tg_* API (tilegym_runtime.h), for ctypes and other foreign-function users;
 * python/tilegym is a Python wrapper.
 *
 * Every function returning tg_status sets the message tgb_last_error()
 * returns on the calling thread ("" on success). Kernels are named by their
 * tile kernel name (the manifest's "name"); NULL picks the bundle's only
 * kernel.
 *
 *   tgb_bundle *b;  tgb_kernel *k;
 *   tgb_open("softmax.tgb", &b);
 *   tgb_load(b, NULL, 0, &k);
 *   tgb_launch(k, args, 2, stream);
 */
/*===----------------------------------------------------------------------===*/

#ifndef TILEGYM_BUNDLE_TILEGYM_BUNDLE_H
#define TILEGYM_BUNDLE_TILEGYM_BUNDLE_H

#include "tilegym/Runtime/tilegym_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tgb_bundle tgb_bundle;   /* an opened bundle */
typedef struct tgb_kernel tgb_kernel;   /* a kernel loaded on a GPU */
typedef struct tgb_plan tgb_plan;       /* a checked, packed launch */
typedef struct tgb_program tgb_program; /* a program's kernels, loaded */

/* What went wrong in the last tgb_* call on this thread; "" after a success. */
TG_API const char *tgb_last_error(void);
/* The newest format version this library reads (2). */
TG_API int tgb_format_version(void);

/*===-- Bundles (no GPU needed) -------------------------------------------===*/

/* Reads and validates PATH/manifest.json. Errors name the manifest and the
   field: "x.tgb/manifest.json: kernels[0].grid.ops[2]: ...". */
TG_API tg_status tgb_open(const char *path, tgb_bundle **bundle);
/* Unloads every kernel loaded from the bundle and frees it. NULL is fine. */
TG_API tg_status tgb_close(tgb_bundle *bundle);

/* The manifest's "target" ("sm_90a") and "source"; "" for a NULL bundle. */
TG_API const char *tgb_target(const tgb_bundle *bundle);
TG_API const char *tgb_source(const tgb_bundle *bundle);
/* The file-level consts the bundle was compiled with, sorted by name
   ("T" -> "bf16"); tgb_const fails for an index out of range. */
TG_API size_t tgb_num_consts(const tgb_bundle *bundle);
TG_API tg_status tgb_const(const tgb_bundle *bundle, size_t index,
                           const char **name, const char **value);

TG_API size_t tgb_num_kernels(const tgb_bundle *bundle);
/* The name of kernel `index`, or NULL when out of range. */
TG_API const char *tgb_kernel_name(const tgb_bundle *bundle, size_t index);

typedef struct tgb_kernel_info {
  const char *name;  /* tile kernel name */
  const char *entry; /* symbol in the PTX/cubin */
  int32_t num_warps;
  tg_dim3 block;         /* always num_warps * 32 x 1 x 1 */
  uint32_t shared_bytes; /* dynamic shared memory per block */
  size_t num_params;
  const char *ptx;   /* path of the PTX */
  const char *cubin; /* path of the cubin; "" when there is none */
} tgb_kernel_info;

/* Strings stay valid until the bundle is closed. */
TG_API tg_status tgb_kernel_info_get(const tgb_bundle *bundle,
                                     const char *kernel, tgb_kernel_info *info);
/* Parameter `index` of the kernel's signature (name "" unless the manifest
   names it; sizes TG_DYNAMIC where open). */
TG_API tg_status tgb_kernel_param(const tgb_bundle *bundle, const char *kernel,
                                  size_t index, tg_param *param);
/* The kernel's grid program in readable form
   ("%0 = dim arg2[0]; %1 = const 1024; %2 = cdiv %0, %1 -> (%2, %3, %3)");
   "" when there is no such kernel. Valid until the next call on this thread. */
TG_API const char *tgb_grid_program(const tgb_bundle *bundle,
                                    const char *kernel);

/* Checks arguments against the kernel's signature, as a launch does:
   TG_ERROR_ARGUMENT_MISMATCH "kernel 'softmax': argument 2: expected rank 2,
   got 1". Data pointers may be 0 here only for empty views. */
TG_API tg_status tgb_check_args(const tgb_bundle *bundle, const char *kernel,
                                const tg_arg *args, size_t num_args);
/* Evaluates the kernel's grid for these arguments (only sizes and integer
   scalars matter; pointers are not looked at). Fails on a division by zero,
   a size out of the launch limits, an argument of the wrong kind. */
TG_API tg_status tgb_grid(const tgb_bundle *bundle, const char *kernel,
                          const tg_arg *args, size_t num_args, tg_dim3 *grid);

/*===-- Loading and launching ---------------------------------------------===*/

/* Picks the image for GPU `ordinal` (the cubin when the bundle's target is
   that GPU's, else the PTX, JIT-compiled by the driver; an error for a GPU
   that cannot run the target), retains the GPU's primary context and loads
   the kernel there. The kernel lives until the bundle is closed; loading the
   same kernel twice on one GPU gives the same handle. */
TG_API tg_status tgb_load(tgb_bundle *bundle, const char *kernel, int ordinal,
                          tgb_kernel **loaded);
/* The path of the loaded image, and whether it is a cubin (1) or PTX (0). */
TG_API const char *tgb_kernel_image(const tgb_kernel *kernel);
TG_API int tgb_kernel_image_is_cubin(const tgb_kernel *kernel);

/* Checks the arguments, evaluates the grid and launches on `stream` (a
   CUstream; 0 is the legacy default stream, what PyTorch's
   torch.cuda.current_stream().cuda_stream gives by default). Asynchronous;
   an empty grid launches nothing and succeeds. */
TG_API tg_status tgb_launch(tgb_kernel *kernel, const tg_arg *args,
                            size_t num_args, uint64_t stream);

/* The same for kernels that take views only, from flat arrays: argument i is
   a view of dtype dtypes[i] at data[i] with ranks[i] sizes and strides (in
   elements), taken in order from `sizes` and `strides` (which hold the sum
   of the ranks). strides == NULL means row-major. */
TG_API tg_status tgb_launch_views(tgb_kernel *kernel, size_t num_args,
                                  const int32_t *dtypes, const uint64_t *data,
                                  const int32_t *ranks, const int64_t *sizes,
                                  const int64_t *strides, uint64_t stream);

/* A launch checked, grid-evaluated and packed once, to be launched many
   times with no more work on the host than the driver call (for timing, and
   for code that launches the same shapes over and over). The plan copies the
   arguments; it lives until destroyed or the bundle is closed. */
TG_API tg_status tgb_plan_create(tgb_kernel *kernel, const tg_arg *args,
                                 size_t num_args, tgb_plan **plan);
TG_API tg_status tgb_plan_grid(const tgb_plan *plan, tg_dim3 *grid);
TG_API tg_status tgb_plan_launch(tgb_plan *plan, uint64_t stream);
TG_API tg_status tgb_plan_destroy(tgb_plan *plan);

/*===-- Programs ----------------------------------------------------------===*/

/* A program (`program NAME = a, b;` in the source, the manifest's
   "programs") runs kernels of the bundle in order on one set of arguments:
   parameters of one name across its kernels are one argument, in order of
   first appearance. Temporaries (views one kernel writes and a later one
   reads) are arguments like any other: the caller allocates them. NULL
   names the bundle's only program. */
TG_API size_t tgb_num_programs(const tgb_bundle *bundle);
/* The name of program `index`, or NULL when out of range. */
TG_API const char *tgb_program_name(const tgb_bundle *bundle, size_t index);

typedef struct tgb_program_info {
  const char *name;
  size_t num_kernels;
  size_t num_params; /* of the merged signature */
} tgb_program_info;

TG_API tg_status tgb_program_info_get(const tgb_bundle *bundle,
                                      const char *program,
                                      tgb_program_info *info);
/* The name of the program's kernel `index` (in launch order), or NULL. */
TG_API const char *tgb_program_kernel(const tgb_bundle *bundle,
                                      const char *program, size_t index);
/* Parameter `index` of the program's merged signature. */
TG_API tg_status tgb_program_param(const tgb_bundle *bundle,
                                   const char *program, size_t index,
                                   tg_param *param);
/* Checks the arguments against the merged signature (dimensions of one name
   agree across every kernel) and each kernel's share of them, and evaluates
   every grid: "program 'fullsum': argument 2 'p': expected rank 1, got 2". */
TG_API tg_status tgb_program_check_args(const tgb_bundle *bundle,
                                        const char *program, const tg_arg *args,
                                        size_t num_args);
/* Loads every kernel of the program on GPU `ordinal` (as tgb_load does);
   the same handle for the same program and GPU. */
TG_API tg_status tgb_load_program(tgb_bundle *bundle, const char *program,
                                  int ordinal, tgb_program **loaded);
/* Checks everything first (as tgb_program_check_args), then launches the
   kernels in order on `stream`; nothing is launched when a check fails. */
TG_API tg_status tgb_program_launch(tgb_program *program, const tg_arg *args,
                                    size_t num_args, uint64_t stream);

/*===-- Variants ----------------------------------------------------------===*/

/* A bundle of variants (manifest version 2, what tilegym-tune --bundle
   writes) holds its kernels compiled several times with different consts
   and a dispatch table by shape: every function above works on it as on a
   bundle of kernels (signatures, info and image are the default
   variant's), tgb_load loads every variant, and each launch runs the
   variant the table picks for its arguments' shapes (a program's, for all
   of a program's kernels). A bundle of kernels is its own only variant. */
TG_API size_t tgb_num_variants(const tgb_bundle *bundle);
/* What variant `index` was tuned with ("BM=128 BN=64"); "" for a bundle of
   kernels or an index out of range. Valid until the next call on this
   thread. */
TG_API const char *tgb_variant_tuned(const tgb_bundle *bundle, size_t index);
/* Checks the arguments of kernel or program `name` (NULL: the only kernel)
   and gives the variant a launch with them runs. */
TG_API tg_status tgb_select_variant(const tgb_bundle *bundle, const char *name,
                                    const tg_arg *args, size_t num_args,
                                    size_t *variant);
/* Sets the rule for kernel or program `name` (NULL: the only kernel) at
   the shape buckets of `args` to `variant`, in memory (tilegym.tune writes
   the manifest too): later launches, and plans made after, at those buckets
   run it. Not while other threads launch from the bundle. */
TG_API tg_status tgb_set_rule(tgb_bundle *bundle, const char *name,
                              const tg_arg *args, size_t num_args,
                              size_t variant);
/* Launches variant `variant` of the kernel, whatever the table says (for
   tuners, which time each variant on the caller's arguments). */
TG_API tg_status tgb_launch_variant(tgb_kernel *kernel, size_t variant,
                                    const tg_arg *args, size_t num_args,
                                    uint64_t stream);

/* Waits for everything on GPU `ordinal`'s primary context (cuCtxSynchronize):
   a kernel fault shows here, naming the last kernel launched through this
   API. */
TG_API tg_status tgb_synchronize(int ordinal);

#ifdef __cplusplus
}
#endif

#endif /* TILEGYM_BUNDLE_TILEGYM_BUNDLE_H */
