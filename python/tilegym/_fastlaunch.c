/*===- _fastlaunch.c - the Python launch path of tilegym, in C ------------===*/
/*
 * A kernel called from Python with every argument in order goes through
 * launch(state, values, stream): each tensor's data pointer, sizes, strides
 * and dtype are read through the C API and packed into the kernel's
 * argument array, which goes to tgb_launch (that checks it against the
 * signature, picks the variant and launches). Reading a tensor's
 * attributes from Python bytecode was most of the cost of a launch; here it
 * is a handful of C calls. Anything that is not a CUDA tensor of a known
 * dtype where a view goes is handed to the state's Python fallback, which
 * packs it (or says what is wrong with it).
 *
 * Built against the stable ABI (Py_LIMITED_API, 3.10), so one build loads
 * in every CPython from 3.10 on; no torch headers: tensors are read as any
 * Python object, through their attributes.
 *
 * state is a tuple made once per kernel (python/tilegym/__init__.py):
 *   (launch, handle, buffer, is_view, tensor_type, dtypes, raw_stream, slow,
 *    getters, methods)
 *   launch      address of tgb_launch
 *   handle      the tgb_kernel
 *   buffer      address of num_args tg_arg structs
 *   is_view     bytes, one per parameter: 1 for a view
 *   tensor_type the exact type a tensor has (torch.Tensor)
 *   dtypes      dict: dtype object -> tg_dtype code
 *   raw_stream  callable: device index -> the current CUstream as an int
 *   slow        callable (index, value): packs argument `index` in Python
 *   getters     the tensor type's descriptors of dtype and shape
 *   methods     its unbound stride, data_ptr and get_device (-1 off the GPU)
 * The descriptors are called directly, as attribute lookup would after
 * walking the type's bases and the tensor's __dict__: a tensor's
 * attributes are read three times per launch, and the lookup was half of
 * their cost.
 */
/*===----------------------------------------------------------------------===*/

#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tilegym/Runtime/tilegym_runtime.h"

#include <stdint.h>
#include <string.h>

typedef int (*launch_fn)(void *kernel, const tg_arg *args, size_t num_args,
                         uint64_t stream);

/* The descriptors of one launch's tensor type (state items 8 and 9). */
typedef struct {
  PyObject *getters[2]; /* dtype, shape */
  descrgetfunc get[2];
  PyObject *methods[3]; /* stride, data_ptr, get_device */
  PyObject *type;
} tensor_access;

static PyObject *get(const tensor_access *t, int which, PyObject *v) {
  return t->get[which](t->getters[which], v, t->type);
}

static PyObject *call(const tensor_access *t, int which, PyObject *v) {
  return PyObject_CallFunctionObjArgs(t->methods[which], v, NULL);
}

/* Sizes or strides (a tuple, or torch.Size, a tuple subclass) into out;
   0 on success. */
static int read_ints(PyObject *seq, int64_t *out, Py_ssize_t rank) {
  if (!PyTuple_Check(seq) || PyTuple_Size(seq) != rank)
    return -1;
  for (Py_ssize_t d = 0; d < rank; ++d) {
    long long v = PyLong_AsLongLong(PyTuple_GetItem(seq, d));
    if (v == -1 && PyErr_Occurred())
      return -1;
    out[d] = v;
  }
  return 0;
}

/* Packs tensor `v` as a view into `arg`; 0 on success, -1 to fall back
   (with no Python error left set), -2 for a tensor on another GPU
   (`*other`) than `device`, which is set from the first tensor. */
static int pack_tensor(const tensor_access *t, PyObject *v, PyObject *dtypes,
                       tg_arg *arg, long *device, long *other) {
  int result = -1;
  PyObject *gpu = NULL, *dtype = NULL, *shape = NULL, *stride = NULL,
           *ptr = NULL;
  gpu = call(t, 2, v);
  long index = gpu ? PyLong_AsLong(gpu) : -1;
  if (index < 0)
    goto done; /* Not on a GPU. */
  if (*device >= 0 && index != *device) {
    *other = index;
    result = -2;
    goto done;
  }
  dtype = get(t, 0, v);
  PyObject *code = dtype ? PyDict_GetItem(dtypes, dtype) : NULL; /* borrowed */
  if (!code)
    goto done;
  shape = get(t, 1, v);
  if (!shape || !PyTuple_Check(shape))
    goto done;
  Py_ssize_t rank = PyTuple_Size(shape);
  if (rank > TG_MAX_RANK)
    goto done;
  memset(arg, 0, sizeof(*arg));
  arg->kind = TG_ARG_VIEW;
  arg->dtype = (tg_dtype)PyLong_AsLong(code);
  arg->rank = (int32_t)rank;
  /* Each call only while no error is pending: one that failed leaves its
     exception, cleared below, and the tensor takes the fallback. */
  if (PyErr_Occurred() || !(stride = call(t, 0, v)) || !(ptr = call(t, 1, v)) ||
      read_ints(shape, arg->sizes, rank) ||
      read_ints(stride, arg->strides, rank))
    goto done;
  arg->data = PyLong_AsUnsignedLongLong(ptr);
  if (PyErr_Occurred())
    goto done;
  *device = index;
  result = 0;
done:
  Py_XDECREF(gpu);
  Py_XDECREF(dtype);
  Py_XDECREF(shape);
  Py_XDECREF(stride);
  Py_XDECREF(ptr);
  if (result)
    PyErr_Clear();
  return result;
}

static PyObject *launch(PyObject *self, PyObject *const *args,
                        Py_ssize_t nargs) {
  if (nargs != 3 || !PyTuple_Check(args[0]) || PyTuple_Size(args[0]) != 10 ||
      !PyTuple_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError,
                    "launch(state, values: tuple, stream) with the state "
                    "tilegym makes");
    return NULL;
  }
  PyObject *state = args[0], *values = args[1], *stream_arg = args[2];
  launch_fn fn = (launch_fn)PyLong_AsVoidPtr(PyTuple_GetItem(state, 0));
  void *handle = PyLong_AsVoidPtr(PyTuple_GetItem(state, 1));
  tg_arg *buffer = (tg_arg *)PyLong_AsVoidPtr(PyTuple_GetItem(state, 2));
  PyObject *is_view = PyTuple_GetItem(state, 3);
  PyObject *tensor_type = PyTuple_GetItem(state, 4);
  PyObject *dtypes = PyTuple_GetItem(state, 5);
  PyObject *raw_stream = PyTuple_GetItem(state, 6);
  PyObject *slow = PyTuple_GetItem(state, 7);
  PyObject *getters = PyTuple_GetItem(state, 8);
  PyObject *methods = PyTuple_GetItem(state, 9);
  if (PyErr_Occurred())
    return NULL;
  tensor_access access;
  access.type = tensor_type;
  for (int k = 0; k < 3; ++k) {
    if (k < 2) {
      access.getters[k] = PyTuple_Check(getters) && PyTuple_Size(getters) == 2
                              ? PyTuple_GetItem(getters, k)
                              : NULL;
      access.get[k] = access.getters[k]
                          ? (descrgetfunc)PyType_GetSlot(
                                Py_TYPE(access.getters[k]), Py_tp_descr_get)
                          : NULL;
    }
    access.methods[k] = PyTuple_Check(methods) && PyTuple_Size(methods) == 3
                            ? PyTuple_GetItem(methods, k)
                            : NULL;
    if ((k < 2 && !access.get[k]) || !access.methods[k]) {
      PyErr_Clear();
      PyErr_SetString(PyExc_TypeError,
                      "launch: the state's tensor descriptors are not "
                      "descriptors");
      return NULL;
    }
  }
  const char *views = PyBytes_AsString(is_view);
  if (!views)
    return NULL;
  if (!PyDict_Check(dtypes)) {
    PyErr_SetString(PyExc_TypeError, "launch: the state's dtypes are not a "
                                     "dict");
    return NULL;
  }
  Py_ssize_t n = PyTuple_Size(values);
  if (n != PyBytes_Size(is_view)) {
    PyErr_SetString(PyExc_TypeError, "launch: one value per parameter");
    return NULL;
  }
  long device = -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *v = PyTuple_GetItem(values, i);
    if (views[i] && (PyObject *)Py_TYPE(v) == tensor_type) {
      long other = -1;
      int packed = pack_tensor(&access, v, dtypes, &buffer[i], &device, &other);
      if (packed == 0)
        continue;
      if (packed == -2) {
        PyErr_Format(PyExc_ValueError,
                     "argument %zd is on GPU %ld, an earlier one on GPU %ld: "
                     "a launch runs on one GPU",
                     i + 1, other, device);
        return NULL;
      }
    }
    PyObject *index = PyLong_FromSsize_t(i);
    PyObject *r =
        index ? PyObject_CallFunctionObjArgs(slow, index, v, NULL) : NULL;
    Py_XDECREF(index);
    if (!r)
      return NULL; /* The fallback raised: what is wrong with v. */
    Py_DECREF(r);
  }
  uint64_t stream = 0;
  if (stream_arg != Py_None) {
    /* Anything int() takes an index from (a numpy integer too), as the
       ctypes path's int(stream). */
    PyObject *index = PyNumber_Index(stream_arg);
    if (!index)
      return NULL;
    stream = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
  } else if (device >= 0) {
    PyObject *d = PyLong_FromLong(device);
    PyObject *s = d ? PyObject_CallFunctionObjArgs(raw_stream, d, NULL) : NULL;
    Py_XDECREF(d);
    if (!s)
      return NULL;
    stream = PyLong_AsUnsignedLongLong(s);
    Py_DECREF(s);
  }
  if (PyErr_Occurred())
    return NULL;
  return PyLong_FromLong(fn(handle, buffer, (size_t)n, stream));
}

static PyMethodDef methods[] = {
    {"launch", (PyCFunction)(void (*)(void))launch, METH_FASTCALL,
     "launch(state, values, stream) -> tg_status: pack and launch"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastlaunch",
                                    "tilegym's launch path in C", -1, methods};

PyMODINIT_FUNC PyInit__fastlaunch(void) { return PyModule_Create(&module); }
