/* A fake libcuda.so.1 for tests on machines without a GPU. Loaded through
   TILEGYM_LIBCUDA, it prints every call as "fake-cuda: ..." so a test can
   check what reached the driver, and in what form.

   Environment: FAKE_CUDA_GPUS (default 1; 0 makes cuInit fail with
   CUDA_ERROR_NO_DEVICE as a real driver does), FAKE_CUDA_CC (default 90).

   A module image is text with one ".entry NAME NUM_PARAMS" line per kernel;
   an image containing "syntax error" fails to load with a JIT log. Launching
   kernel "faulty" makes the next cuCtxSynchronize fail. Memory is host memory.
   Only cuEventElapsedTime (not _v2) is exported, as by drivers before 12.8. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE(...)                                                             \
  do {                                                                         \
    printf("fake-cuda: " __VA_ARGS__);                                         \
    printf("\n");                                                              \
  } while (0)

enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  NO_DEVICE = 100,
  INVALID_DEVICE = 101,
  INVALID_PTX = 218,
  NOT_FOUND = 500,
  ILLEGAL_ADDRESS = 700
};

static const struct {
  int code;
  const char *name, *text;
} errors[] = {
    {SUCCESS, "CUDA_SUCCESS", "no error"},
    {INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
};

static int find_error(int code) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == code)
      return (int)i;
  return -1;
}

static int env_int(const char *name, int fallback) {
  const char *value = getenv(name);
  return value && *value ? atoi(value) : fallback;
}

static int gpus(void) { return env_int("FAKE_CUDA_GPUS", 1); }

int cuGetErrorName(int code, const char **name) {
  int i = find_error(code);
  *name = i < 0 ? NULL : errors[i].name;
  return i < 0 ? INVALID_VALUE : SUCCESS;
}

int cuGetErrorString(int code, const char **text) {
  int i = find_error(code);
  *text = i < 0 ? NULL : errors[i].text;
  return i < 0 ? INVALID_VALUE : SUCCESS;
}

int cuInit(unsigned flags) {
  TRACE("cuInit");
  return gpus() > 0 ? SUCCESS : NO_DEVICE;
}

int cuDriverGetVersion(int *version) {
  *version = 13000;
  return SUCCESS;
}

int cuDeviceGetCount(int *count) {
  *count = gpus();
  return SUCCESS;
}

int cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= gpus())
    return INVALID_DEVICE;
  *device = ordinal;
  return SUCCESS;
}

int cuDeviceGetName(char *name, int length, int device) {
  snprintf(name, (size_t)length, "Fake GPU %d", device);
  return SUCCESS;
}

int cuDeviceGetAttribute(int *value, int attribute, int device) {
  int cc = env_int("FAKE_CUDA_CC", 90);
  switch (attribute) {
  case 16:
    *value = 132;
    return SUCCESS;
  case 75:
    *value = cc / 10;
    return SUCCESS;
  case 76:
    *value = cc % 10;
    return SUCCESS;
  }
  return INVALID_VALUE;
}

int cuDeviceTotalMem_v2(size_t *bytes, int device) {
  *bytes = (size_t)140 << 30;
  return SUCCESS;
}

static int context;

int cuDevicePrimaryCtxRetain(void **ctx, int device) {
  TRACE("cuDevicePrimaryCtxRetain %d", device);
  *ctx = &context;
  return SUCCESS;
}

int cuDevicePrimaryCtxRelease_v2(int device) {
  TRACE("cuDevicePrimaryCtxRelease %d", device);
  return SUCCESS;
}

int cuCtxSetCurrent(void *ctx) {
  TRACE("cuCtxSetCurrent");
  return ctx == &context ? SUCCESS : INVALID_VALUE;
}

static int pending_fault;

int cuCtxSynchronize(void) {
  TRACE("cuCtxSynchronize");
  int result = pending_fault ? ILLEGAL_ADDRESS : SUCCESS;
  pending_fault = 0;
  return result;
}

struct kernel {
  char name[64];
  int num_params;
};
struct module {
  struct kernel kernels[8];
  int num_kernels;
};

int cuModuleLoadDataEx(struct module **module, const void *image,
                       unsigned num_options, int *options, void **values) {
  const char *text = image;
  TRACE("cuModuleLoadDataEx %zu bytes", strlen(text));
  if (strstr(text, "syntax error")) {
    for (unsigned i = 0; i < num_options; ++i)
      if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
        strcpy(values[i], "ptxas fatal: fake syntax error at line 1");
    return INVALID_PTX;
  }
  struct module *m = calloc(1, sizeof(*m));
  for (const char *p = text; (p = strstr(p, ".entry ")) && m->num_kernels < 8;
       ++p) {
    struct kernel *k = &m->kernels[m->num_kernels++];
    /* Fake PTX reads ".entry NAME COUNT"; real PTX ".entry NAME(": the
       name stops at the first character that is not in a symbol. */
    sscanf(p, ".entry %63[A-Za-z0-9_$] %d", k->name, &k->num_params);
  }
  *module = m;
  return SUCCESS;
}

int cuModuleUnload(struct module *module) {
  TRACE("cuModuleUnload");
  free(module);
  return SUCCESS;
}

int cuModuleGetFunction(struct kernel **function, struct module *module,
                        const char *name) {
  TRACE("cuModuleGetFunction %s", name);
  for (int i = 0; i < module->num_kernels; ++i)
    if (!strcmp(module->kernels[i].name, name)) {
      *function = &module->kernels[i];
      return SUCCESS;
    }
  return NOT_FOUND;
}

int cuFuncSetAttribute(struct kernel *function, int attribute, int value) {
  TRACE("cuFuncSetAttribute %s %d = %d", function->name, attribute, value);
  return SUCCESS;
}

/* Blocks an SM holds: FAKE_CUDA_RESIDENT_BLOCKS (8 by default; -1 fails). */
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, struct kernel *f,
                                                int threads, size_t shared) {
  int n = env_int("FAKE_CUDA_RESIDENT_BLOCKS", 8);
  TRACE("cuOccupancyMaxActiveBlocksPerMultiprocessor %s threads %d shared %zu",
        f->name, threads, shared);
  if (n < 0)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  *blocks = n;
  return SUCCESS;
}

/* Clusters the GPU holds at once: FAKE_CUDA_ACTIVE_CLUSTERS (66 by default;
   -1 fails). */
struct launch_config {
  unsigned gx, gy, gz, bx, by, bz, shared;
  void *stream;
  struct {
    int id;
    char pad[4];
    union {
      char bytes[64];
      struct {
        unsigned x, y, z;
      } cluster;
    } value;
  } *attrs;
  unsigned num_attrs;
};

int cuOccupancyMaxActiveClusters(int *clusters, struct kernel *f,
                                 const struct launch_config *config) {
  int n = env_int("FAKE_CUDA_ACTIVE_CLUSTERS", 66);
  unsigned cx = config->num_attrs ? config->attrs[0].value.cluster.x : 1;
  TRACE("cuOccupancyMaxActiveClusters %s cluster %u threads %u shared %u",
        f->name, cx, config->bx * config->by * config->bz, config->shared);
  if (n < 0)
    return 1; /* CUDA_ERROR_INVALID_VALUE */
  *clusters = n;
  return SUCCESS;
}

static int launch(const char *how, struct kernel *f, unsigned gx, unsigned gy,
                  unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  unsigned shared, void *stream, void **params,
                  const char *cluster);

int cuLaunchKernelEx(const struct launch_config *config, struct kernel *f,
                     void **params, void **extra) {
  char cluster[64] = "";
  for (unsigned i = 0; i < config->num_attrs; ++i)
    if (config->attrs[i].id == 4) /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */
      snprintf(cluster, sizeof(cluster), " cluster %ux%ux%u",
               config->attrs[i].value.cluster.x,
               config->attrs[i].value.cluster.y,
               config->attrs[i].value.cluster.z);
  return launch("cuLaunchKernelEx", f, config->gx, config->gy, config->gz,
                config->bx, config->by, config->bz, config->shared,
                config->stream, params, cluster);
}

int cuLaunchKernel(struct kernel *f, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned shared,
                   void *stream, void **params, void **extra) {
  return launch("cuLaunchKernel", f, gx, gy, gz, bx, by, bz, shared, stream,
                params, "");
}

static int launch(const char *how, struct kernel *f, unsigned gx, unsigned gy,
                  unsigned gz, unsigned bx, unsigned by, unsigned bz,
                  unsigned shared, void *stream, void **params,
                  const char *cluster) {
  /* Reads 8 bytes per parameter: the runtime gives each an 8-byte slot. */
  printf("fake-cuda: %s %s grid %ux%ux%u%s block %ux%ux%u shared %u params",
         how, f->name, gx, gy, gz, cluster, bx, by, bz, shared);
  for (int i = 0; i < f->num_params; ++i) {
    uint64_t value;
    memcpy(&value, params[i], sizeof(value));
    printf(" 0x%llx", (unsigned long long)value);
  }
  /* The legacy default stream (0) is not shown, a stream handle is. */
  if (stream)
    printf(" stream 0x%llx", (unsigned long long)(uintptr_t)stream);
  printf("\n");
  if (!strcmp(f->name, "faulty"))
    pending_fault = 1;
  return SUCCESS;
}

/* The TMA's tensor map: prints what it was asked to encode (dimensions
   innermost first, strides in bytes, the box) and fills the 128 bytes with
   0x7a, which the launch then shows as that parameter's first 8 bytes. */
int cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *address,
                           const uint64_t *dims, const uint64_t *strides,
                           const unsigned *box, const unsigned *elementStrides,
                           int interleave, int swizzle, int l2, int oobFill) {
  printf("fake-cuda: cuTensorMapEncodeTiled dtype %d rank %u dims", dtype,
         rank);
  for (unsigned i = 0; i < rank; ++i)
    printf(" %llu", (unsigned long long)dims[i]);
  printf(" strides");
  for (unsigned i = 0; i + 1 < rank; ++i)
    printf(" %llu", (unsigned long long)strides[i]);
  printf(" box");
  for (unsigned i = 0; i < rank; ++i)
    printf(" %u", box[i]);
  printf(" element strides");
  for (unsigned i = 0; i < rank; ++i)
    printf(" %u", elementStrides[i]);
  printf(" interleave %d swizzle %d l2 %d oob %d aligned %d\n", interleave,
         swizzle, l2, oobFill, (int)((uintptr_t)address % 16 == 0));
  memset(map, 0x7a, 128);
  return SUCCESS;
}

int cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  TRACE("cuMemAlloc %zu", bytes);
  *ptr = (uint64_t)(uintptr_t)malloc(bytes);
  return SUCCESS;
}

int cuMemFree_v2(uint64_t ptr) {
  TRACE("cuMemFree");
  free((void *)(uintptr_t)ptr);
  return SUCCESS;
}

int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  TRACE("cuMemcpyHtoD %zu", bytes);
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return SUCCESS;
}

int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  TRACE("cuMemcpyDtoH %zu", bytes);
  memcpy(dst, (const void *)(uintptr_t)src, bytes);
  return SUCCESS;
}

int cuMemsetD8Async(uint64_t dst, unsigned char value, size_t bytes,
                    void *stream) {
  TRACE("cuMemsetD8Async %zu", bytes);
  (void)stream;
  memset((void *)(uintptr_t)dst, value, bytes);
  return SUCCESS;
}

int cuEventCreate(void **event, unsigned flags) {
  TRACE("cuEventCreate");
  *event = malloc(1);
  return SUCCESS;
}

int cuEventDestroy_v2(void *event) {
  TRACE("cuEventDestroy");
  free(event);
  return SUCCESS;
}

int cuEventRecord(void *event, void *stream) {
  TRACE("cuEventRecord");
  return SUCCESS;
}

int cuEventSynchronize(void *event) {
  TRACE("cuEventSynchronize");
  return SUCCESS;
}

int cuEventElapsedTime(float *ms, void *start, void *end) {
  TRACE("cuEventElapsedTime");
  *ms = 1.25f;
  return SUCCESS;
}
