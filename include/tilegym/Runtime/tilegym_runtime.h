/*===- tilegym_runtime.h - C API of the TileGym GPU runtime -------*- C -*-===*/
/*
 * Loads compiled kernels (cubin or PTX) through the CUDA driver API and
 * launches them. No MLIR, no LLVM, no CUDA at build time: the driver is
 * opened with dlopen at run time, so programs using this API build and run
 * everywhere and report "no CUDA driver" or "no GPU" as ordinary errors.
 *
 * Every function returning tg_status sets the message that tg_last_error()
 * returns on the calling thread ("" on success). Kernel arguments are
 * checked against the kernel's signature before anything reaches the
 * driver. See docs/runtime.md.
 */
/*===----------------------------------------------------------------------===*/

#ifndef TILEGYM_RUNTIME_TILEGYM_RUNTIME_H
#define TILEGYM_RUNTIME_TILEGYM_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TG_API __attribute__((visibility("default")))
#else
#define TG_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tg_status {
  TG_SUCCESS = 0,
  TG_ERROR_NO_DRIVER = 1,        /* libcuda.so.1 missing or too old */
  TG_ERROR_NO_DEVICE = 2,        /* driver present, no GPU */
  TG_ERROR_CUDA = 3,             /* a driver call failed */
  TG_ERROR_INVALID_VALUE = 4,    /* misuse of this API: null handle, ... */
  TG_ERROR_ARGUMENT_MISMATCH = 5 /* kernel arguments do not fit the signature */
} tg_status;

/* "TG_ERROR_NO_DRIVER" etc. */
TG_API const char *tg_status_name(tg_status status);
/* What went wrong in the last call on this thread; "" after a success. */
TG_API const char *tg_last_error(void);

typedef enum tg_dtype {
  TG_F32 = 0,
  TG_F16 = 1,
  TG_BF16 = 2,
  TG_F64 = 3,
  TG_I1 = 4, /* one byte per element, 0 or 1 */
  TG_I8 = 5,
  TG_I32 = 6,
  TG_I64 = 7,
  TG_F8E4M3 = 8, /* e4m3 without infinities (torch.float8_e4m3fn) */
  TG_F8E5M2 = 9  /* e5m2 (torch.float8_e5m2) */
} tg_dtype;

/* "f32", "bf16", ...; "?" for a value outside the enum. */
TG_API const char *tg_dtype_name(tg_dtype dtype);
/* Bytes per element; 0 for a value outside the enum. */
TG_API size_t tg_dtype_size(tg_dtype dtype);

/*===-- Environment ------------------------------------------------------===*/

/* Loads the driver and calls cuInit once per process. TILEGYM_LIBCUDA
   overrides the library path. Every later GPU call reports this status if it
   is an error. */
TG_API tg_status tg_init(void);
/* CUDA version the driver supports, e.g. 13000 for 13.0. */
TG_API tg_status tg_driver_version(int *version);
TG_API tg_status tg_device_count(int *count);

typedef struct tg_device_info {
  char name[256];
  int cc_major;
  int cc_minor;
  int sm_count;
  uint64_t total_memory; /* bytes */
  char target[16];       /* tg_target_for_cc of this GPU */
} tg_device_info;

TG_API tg_status tg_get_device_info(int ordinal, tg_device_info *info);

/* Path of ptxas (PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin), or ""
   when there is none. */
TG_API const char *tg_ptxas_path(void);
/* The compilation target for a compute capability: "sm_90a" for 9.0 (its
   wgmma and TMA need the arch-specific target), "sm_80" for every 8.x,
   "sm_<M><m>" from 10.0 on, "cpu" below 8.0 (the GPU backend needs
   mma.sync). */
TG_API const char *tg_target_for_cc(int major, int minor);
/* What `--target=auto` picks: GPU 0's target, or "cpu" without a GPU. */
TG_API const char *tg_auto_target(void);

/*===-- Kernel arguments -------------------------------------------------===*/

#define TG_MAX_RANK 8
/* A size the kernel signature leaves open. */
#define TG_DYNAMIC (-1)

typedef enum tg_arg_kind { TG_ARG_VIEW = 0, TG_ARG_SCALAR = 1 } tg_arg_kind;

/* One launch argument. A view is strided device memory; a scalar is passed by
   value (i32, i64, f32 or f64). */
typedef struct tg_arg {
  tg_arg_kind kind;
  tg_dtype dtype;               /* element type of a view, type of a scalar */
  uint64_t data;                /* view: device address of element 0 */
  int32_t rank;                 /* view: 0..TG_MAX_RANK */
  int64_t sizes[TG_MAX_RANK];   /* view: first `rank` entries */
  int64_t strides[TG_MAX_RANK]; /* view: in elements, not bytes */
  int64_t int_value;            /* scalar of type i32 or i64 */
  double float_value;           /* scalar of type f32 or f64 */
} tg_arg;

/* A view of `rank` sizes; strides == NULL means contiguous row-major. */
TG_API tg_arg tg_view(tg_dtype dtype, uint64_t data, int32_t rank,
                      const int64_t *sizes, const int64_t *strides);
TG_API tg_arg tg_scalar_int(tg_dtype dtype, int64_t value);
TG_API tg_arg tg_scalar_float(tg_dtype dtype, double value);

/* One parameter of a kernel's signature. */
typedef struct tg_param {
  const char *name;
  tg_arg_kind kind;
  tg_dtype dtype;
  int32_t rank;               /* views */
  int64_t sizes[TG_MAX_RANK]; /* views: static size, or TG_DYNAMIC */
  /* views: a dimension's name, or NULL or "" for none. Dimensions of one
     name must have equal sizes in every launch (tg_check_args, tg_launch). */
  const char *dims[TG_MAX_RANK];
} tg_param;

/* Checks `args` against `params` without touching the driver. On mismatch
   returns TG_ERROR_ARGUMENT_MISMATCH with a message such as
   "argument 2 'y': expected rank 2, got 1" or "argument 3 'w': dimension N
   (size[0]) is 512, but argument 1 'x' has N = 1024" (arguments count from
   1). */
TG_API tg_status tg_check_args(const tg_param *params, size_t num_params,
                               const tg_arg *args, size_t num_args);

/*===-- Contexts, memory, modules, launches, events ----------------------===*/

typedef struct tg_context tg_context;
typedef struct tg_module tg_module;
typedef struct tg_kernel tg_kernel;
typedef struct tg_event tg_event;

typedef struct tg_dim3 {
  uint32_t x, y, z;
} tg_dim3;

/* Retains the primary context of GPU `ordinal` (the one the CUDA runtime and
   PyTorch use too). Destroying releases it. */
TG_API tg_status tg_context_create(int ordinal, tg_context **context);
TG_API tg_status tg_context_destroy(tg_context *context);
TG_API tg_status tg_context_synchronize(tg_context *context);

TG_API tg_status tg_mem_alloc(tg_context *context, size_t bytes,
                              uint64_t *device_ptr);
TG_API tg_status tg_mem_free(tg_context *context, uint64_t device_ptr);
TG_API tg_status tg_memcpy_htod(tg_context *context, uint64_t dst,
                                const void *src, size_t bytes);
TG_API tg_status tg_memcpy_dtoh(tg_context *context, void *dst, uint64_t src,
                                size_t bytes);

/* A cubin, fatbin or PTX image (PTX needs no terminating NUL; the driver
   JIT-compiles it and its error log lands in tg_last_error). */
TG_API tg_status tg_module_load(tg_context *context, const void *image,
                                size_t size, tg_module **module);
/* Also frees the module's kernels. */
TG_API tg_status tg_module_unload(tg_module *module);

/* Looks up kernel `name`; `params` (copied) is the signature every launch is
   checked against. The kernel lives as long as its module. */
TG_API tg_status tg_kernel_get(tg_module *module, const char *name,
                               const tg_param *params, size_t num_params,
                               tg_kernel **kernel);
/* Checks the arguments, then launches on the default stream (asynchronous).
   Dynamic shared memory above 48 KiB is opted into automatically. */
TG_API tg_status tg_launch(tg_kernel *kernel, tg_dim3 grid, tg_dim3 block,
                           uint32_t shared_bytes, const tg_arg *args,
                           size_t num_args);

TG_API tg_status tg_event_create(tg_context *context, tg_event **event);
TG_API tg_status tg_event_destroy(tg_event *event);
/* Records on the default stream. */
TG_API tg_status tg_event_record(tg_event *event);
/* Waits for `end`, then gives the time between the two records. */
TG_API tg_status tg_event_elapsed_ms(tg_event *start, tg_event *end, float *ms);

#ifdef __cplusplus
}
#endif

#endif /* TILEGYM_RUNTIME_TILEGYM_RUNTIME_H */
