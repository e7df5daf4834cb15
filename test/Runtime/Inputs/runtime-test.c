/* Exercises the runtime's C API without a GPU. Prints one line per check,
   with the status and message it got, then "N passed, N failed"; exits 1 on
   any failure.

   tilegym-runtime-test offline          no driver needed: dtypes, targets,
                                         argument checks, null handles
   tilegym-runtime-test status STATUS    every GPU call fails with STATUS
                                         (run with TILEGYM_LIBCUDA set)
   tilegym-runtime-test fake             the GPU paths, against the fake
                                         driver of Inputs/fake-cuda.c */

#include "tilegym/Runtime/tilegym_runtime.h"

#include <stdio.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  if (ok)
    ++passed;
  else
    ++failed;
}

/* Checks a status and that the message contains `text`. */
static void expect(tg_status got, tg_status want, const char *text,
                   const char *what) {
  const char *message = tg_last_error();
  int ok = got == want && strstr(message, text) != NULL;
  printf("%s: %s: %s: %s\n", ok ? "PASS" : "FAIL", what, tg_status_name(got),
         message);
  if (ok)
    ++passed;
  else
    ++failed;
}

/* softmax(x: view<?x?xf32>, y: view<?x128xf32>, n: i32) */
static tg_param signature[3];

static void make_signature(void) {
  tg_param x = {"x", TG_ARG_VIEW, TG_F32, 2, {TG_DYNAMIC, TG_DYNAMIC}};
  tg_param y = {"y", TG_ARG_VIEW, TG_F32, 2, {TG_DYNAMIC, 128}};
  tg_param n = {"n", TG_ARG_SCALAR, TG_I32, 0, {0}};
  signature[0] = x;
  signature[1] = y;
  signature[2] = n;
}

static void good_args(tg_arg args[3]) {
  int64_t sizes[2] = {4, 128};
  args[0] = tg_view(TG_F32, 0x1000, 2, sizes, NULL);
  args[1] = tg_view(TG_F32, 0x2000, 2, sizes, NULL);
  args[2] = tg_scalar_int(TG_I32, 7);
}

static void offline(void) {
  check(!strcmp(tg_dtype_name(TG_BF16), "bf16") && tg_dtype_size(TG_BF16) == 2,
        "bf16 is 2 bytes");
  check(tg_dtype_size(TG_I1) == 1 && tg_dtype_size(TG_F64) == 8,
        "i1 is 1 byte, f64 8");
  check(!strcmp(tg_dtype_name((tg_dtype)42), "?") &&
            tg_dtype_size((tg_dtype)42) == 0,
        "unknown dtype has no name or size");

  check(!strcmp(tg_target_for_cc(9, 0), "sm_90a"), "cc 9.0 -> sm_90a");
  check(!strcmp(tg_target_for_cc(8, 6), "sm_80"), "cc 8.6 -> sm_80");
  check(!strcmp(tg_target_for_cc(10, 0), "sm_100"), "cc 10.0 -> sm_100");
  check(!strcmp(tg_target_for_cc(7, 5), "cpu"), "cc 7.5 -> cpu");

  int64_t sizes[3] = {3, 4, 5};
  tg_arg v = tg_view(TG_F16, 0x1000, 3, sizes, NULL);
  check(v.strides[0] == 20 && v.strides[1] == 5 && v.strides[2] == 1,
        "tg_view defaults to row-major strides");

  make_signature();
  tg_arg args[3];
  good_args(args);
  expect(tg_check_args(signature, 3, args, 3), TG_SUCCESS, "",
         "matching arguments");
  check(tg_last_error()[0] == '\0', "success clears tg_last_error");
  expect(tg_check_args(signature, 3, args, 2), TG_ERROR_ARGUMENT_MISMATCH,
         "expected 3 arguments, got 2", "argument count");

  int64_t row[1] = {128};
  good_args(args);
  args[1] = tg_view(TG_F32, 0x2000, 1, row, NULL);
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 2 'y': expected rank 2, got 1", "wrong rank");

  good_args(args);
  args[0].dtype = TG_BF16;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 1 'x': expected dtype f32, got bf16", "wrong dtype");

  good_args(args);
  args[0].dtype = (tg_dtype)42;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 1 'x': expected dtype f32, got unknown dtype 42",
         "unknown dtype");

  good_args(args);
  args[0].data = 0;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 1 'x': null data pointer for a non-empty view",
         "null pointer");

  good_args(args);
  args[0].data = 0;
  args[0].sizes[0] = 0;
  expect(tg_check_args(signature, 3, args, 3), TG_SUCCESS, "",
         "null pointer of an empty view");

  good_args(args);
  args[0].sizes[1] = -1;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 1 'x': size[1] is -1, must be >= 0", "negative size");

  good_args(args);
  args[1].sizes[1] = 100;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 2 'y': expected size[1] = 128, got 100", "static size");

  good_args(args);
  args[2] = args[0];
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 3 'n': expected a scalar, got a view", "view for a scalar");

  /* Dimensions of one name must agree across arguments: x is [M, K], y is
     [M, 128]. */
  signature[0].dims[0] = "M";
  signature[0].dims[1] = "K";
  signature[1].dims[0] = "M";
  good_args(args);
  expect(tg_check_args(signature, 3, args, 3), TG_SUCCESS, "",
         "named dimensions that agree");
  args[1].sizes[0] = 5;
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 2 'y': dimension M (size[0]) is 5, but argument 1 'x' has "
         "M = 4",
         "named dimensions that disagree");
  make_signature();

  good_args(args);
  args[2] = tg_scalar_int(TG_I64, 7);
  expect(tg_check_args(signature, 3, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "argument 3 'n': expected dtype i32, got i64", "scalar type");

  tg_param half = {"h", TG_ARG_SCALAR, TG_F16, 0, {0}};
  tg_arg h = tg_scalar_float(TG_F16, 1.0);
  expect(tg_check_args(&half, 1, &h, 1), TG_ERROR_INVALID_VALUE,
         "parameter 1 'h': scalar type f16 is not supported",
         "unsupported scalar parameter");
  tg_param deep = {"d", TG_ARG_VIEW, TG_F32, 9, {0}};
  expect(tg_check_args(&deep, 1, NULL, 0), TG_ERROR_INVALID_VALUE,
         "parameter 1 'd': rank 9 is outside 0..8", "rank above TG_MAX_RANK");

  tg_dim3 one = {1, 1, 1};
  expect(tg_launch(NULL, one, one, 0, args, 3), TG_ERROR_INVALID_VALUE,
         "tg_launch: kernel is null", "null kernel");
  expect(tg_context_create(0, NULL), TG_ERROR_INVALID_VALUE,
         "tg_context_create: context is null", "null out-pointer");
  check(!strcmp(tg_status_name(TG_ERROR_ARGUMENT_MISMATCH),
                "TG_ERROR_ARGUMENT_MISMATCH"),
        "status names");
}

static tg_status parse_status(const char *name) {
  for (int s = TG_SUCCESS; s <= TG_ERROR_ARGUMENT_MISMATCH; ++s)
    if (!strcmp(tg_status_name((tg_status)s), name))
      return (tg_status)s;
  return (tg_status)-1;
}

static void status(tg_status want) {
  expect(tg_init(), want, "", "tg_init");
  int count = -1;
  expect(tg_device_count(&count), want, "", "tg_device_count");
  tg_device_info info;
  expect(tg_get_device_info(0, &info), want, "", "tg_get_device_info");
  tg_context *context = (tg_context *)&count;
  expect(tg_context_create(0, &context), want, "", "tg_context_create");
  check(context == NULL, "no context on failure");
  printf("auto target: %s\n", tg_auto_target());
  check(!strcmp(tg_auto_target(), "cpu"), "auto target is cpu");
}

static void fake(void) {
  expect(tg_init(), TG_SUCCESS, "", "tg_init");
  int version = 0, count = 0;
  expect(tg_driver_version(&version), TG_SUCCESS, "", "tg_driver_version");
  check(version == 13000, "driver version 13000");
  expect(tg_device_count(&count), TG_SUCCESS, "", "tg_device_count");
  check(count == 1, "one GPU");
  tg_device_info info;
  expect(tg_get_device_info(0, &info), TG_SUCCESS, "", "tg_get_device_info");
  printf("gpu 0: %s, cc %d.%d, %d SMs, %llu bytes, %s\n", info.name,
         info.cc_major, info.cc_minor, info.sm_count,
         (unsigned long long)info.total_memory, info.target);
  check(!strcmp(tg_auto_target(), "sm_90a"), "auto target sm_90a");

  tg_context *context = NULL;
  expect(tg_context_create(1, &context), TG_ERROR_INVALID_VALUE,
         "GPU 1 does not exist (1 GPUs)", "missing GPU");
  expect(tg_context_create(0, &context), TG_SUCCESS, "", "context");

  uint64_t buffer = 0;
  float in[4] = {1, 2, 3, 4}, out[4] = {0};
  expect(tg_mem_alloc(context, sizeof(in), &buffer), TG_SUCCESS, "", "alloc");
  expect(tg_memcpy_htod(context, buffer, in, sizeof(in)), TG_SUCCESS, "",
         "copy to device");
  expect(tg_memcpy_dtoh(context, out, buffer, sizeof(out)), TG_SUCCESS, "",
         "copy to host");
  check(!memcmp(in, out, sizeof(in)), "round trip");
  expect(tg_mem_free(context, buffer), TG_SUCCESS, "", "free");

  tg_module *module = NULL;
  const char *broken = "syntax error";
  expect(tg_module_load(context, broken, strlen(broken), &module),
         TG_ERROR_CUDA, "ptxas fatal: fake syntax error at line 1",
         "PTX error log");
  /* Not NUL-terminated: the runtime must add the terminator. */
  const char ptx[] = ".entry softmax 15\n.entry faulty 0\nTRAILING";
  expect(
      tg_module_load(context, ptx, strlen(ptx) - strlen("TRAILING"), &module),
      TG_SUCCESS, "", "module");

  tg_kernel *kernel = NULL;
  expect(tg_kernel_get(module, "missing", NULL, 0, &kernel), TG_ERROR_CUDA,
         "cuModuleGetFunction(kernel 'missing'): CUDA_ERROR_NOT_FOUND "
         "(named symbol not found)",
         "missing kernel");
  make_signature();
  expect(tg_kernel_get(module, "softmax", signature, 3, &kernel), TG_SUCCESS,
         "", "kernel");

  tg_arg args[3];
  tg_dim3 grid = {4, 1, 1}, block = {128, 1, 1}, zero = {0, 1, 1};
  int64_t row[1] = {128};
  good_args(args);
  args[1] = tg_view(TG_F32, 0x2000, 1, row, NULL);
  printf("--- bad launch\n");
  expect(tg_launch(kernel, grid, block, 0, args, 3), TG_ERROR_ARGUMENT_MISMATCH,
         "kernel 'softmax': argument 2 'y': expected rank 2, got 1",
         "launch checks arguments first");
  good_args(args);
  expect(tg_launch(kernel, zero, block, 0, args, 3), TG_ERROR_INVALID_VALUE,
         "kernel 'softmax': grid 0x1x1 and block 128x1x1 must not have a 0 "
         "dimension",
         "zero grid");
  printf("--- end of bad launches\n");

  expect(tg_launch(kernel, grid, block, 0, args, 3), TG_SUCCESS, "", "launch");
  args[2] = tg_scalar_int(TG_I32, -1);
  expect(tg_launch(kernel, grid, block, 40000, args, 3), TG_SUCCESS, "",
         "launch with 40000 bytes of shared memory");
  expect(tg_launch(kernel, grid, block, 100000, args, 3), TG_SUCCESS, "",
         "launch with 100000 bytes of shared memory");
  expect(tg_launch(kernel, grid, block, 100000, args, 3), TG_SUCCESS, "",
         "launch again, already opted in");

  tg_event *start = NULL, *end = NULL;
  float ms = 0;
  expect(tg_event_create(context, &start), TG_SUCCESS, "", "event");
  expect(tg_event_create(context, &end), TG_SUCCESS, "", "event");
  expect(tg_event_record(start), TG_SUCCESS, "", "record");
  expect(tg_event_record(end), TG_SUCCESS, "", "record");
  expect(tg_event_elapsed_ms(start, end, &ms), TG_SUCCESS, "", "elapsed");
  check(ms == 1.25f, "elapsed 1.25 ms");

  tg_kernel *faulty = NULL;
  expect(tg_kernel_get(module, "faulty", NULL, 0, &faulty), TG_SUCCESS, "",
         "kernel without parameters");
  expect(tg_launch(faulty, grid, block, 0, NULL, 0), TG_SUCCESS, "",
         "faulty launch");
  expect(tg_context_synchronize(context), TG_ERROR_CUDA,
         "cuCtxSynchronize (after kernel 'faulty'): CUDA_ERROR_ILLEGAL_ADDRESS",
         "fault names the kernel");

  expect(tg_event_destroy(start), TG_SUCCESS, "", "destroy event");
  expect(tg_event_destroy(end), TG_SUCCESS, "", "destroy event");
  expect(tg_module_unload(module), TG_SUCCESS, "", "unload");
  expect(tg_context_destroy(context), TG_SUCCESS, "", "destroy context");
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "offline"))
    offline();
  else if (argc == 3 && !strcmp(argv[1], "status") &&
           (int)parse_status(argv[2]) > 0)
    status(parse_status(argv[2]));
  else if (argc == 2 && !strcmp(argv[1], "fake"))
    fake();
  else {
    fprintf(stderr, "usage: %s offline | status TG_ERROR_... | fake\n",
            argv[0]);
    return 2;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
