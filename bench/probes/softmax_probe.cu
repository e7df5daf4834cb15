// Hand-written CUDA probes of row-softmax designs, to find out on the H200
// which one beats the one-row-per-block register kernel (ours and Triton's)
// before building it into the compiler. Not part of TileGym: an experiment.
//   nvcc -arch=sm_90a -cubin -O3 -use_fast_math -o softmax_probe.cubin softmax_probe.cu
//   python3 cuab.py ...   (bench/probes/cuab.py times them against Triton)
//
// rowreg    one row per block, held in registers (the current design)
// rowcopy   rowreg without the softmax: the floor of its shape (unchecked)
// rowpipe   persistent, two rows in registers, the next row loading while
//           this one reduces
// rowdelay  rowreg with a pause before the stores; rowdiv: IEEE division
// rowonl    rowreg with one block exchange of (max, sum) pairs, not two
// cpasync   persistent blocks; each thread cp.async-copies its own 16-byte
//           runs of the next S-1 rows into a ring in shared memory
// bulk      persistent blocks; one thread moves whole rows into the ring with
//           cp.async.bulk (the TMA engine) on an mbarrier
// cluster2  one row per cluster of two blocks, each holding half the row;
//           the partial max/sum cross over distributed shared memory
// rowpf     rowreg that also asks the L2 for row blockIdx.x + D (a row a
//           later block will read): cp.async.bulk.prefetch.L2 by one thread
//           (MODE 0 before its loads, 2 after), or prefetch.global.L2 per
//           128-byte line (MODE 1)
// rowtma    rowreg writing its row through shared memory with one
//           cp.async.bulk store (the TMA engine writes; the block waits only
//           for its shared memory to be read)
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <stdint.h>
namespace cg = cooperative_groups;

template <typename T> constexpr int kVec = 16 / sizeof(T);
constexpr float kLog2e = 1.4426950408889634f;

__device__ inline void unpack16(uint4 u, float *v, float) {
  v[0] = __uint_as_float(u.x); v[1] = __uint_as_float(u.y);
  v[2] = __uint_as_float(u.z); v[3] = __uint_as_float(u.w);
}
__device__ inline void unpack16(uint4 u, float *v, __nv_bfloat16) {
  const uint32_t w[4] = {u.x, u.y, u.z, u.w};
  for (int i = 0; i < 4; ++i) {
    __nv_bfloat162 b = *reinterpret_cast<const __nv_bfloat162 *>(&w[i]);
    float2 f = __bfloat1622float2(b);
    v[2 * i] = f.x; v[2 * i + 1] = f.y;
  }
}
__device__ inline uint4 pack16(const float *v, float) {
  return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]),
                    __float_as_uint(v[2]), __float_as_uint(v[3]));
}
__device__ inline uint4 pack16(const float *v, __nv_bfloat16) {
  uint32_t w[4];
  for (int i = 0; i < 4; ++i) {
    __nv_bfloat162 b = __floats2bfloat162_rn(v[2 * i], v[2 * i + 1]);
    w[i] = *reinterpret_cast<uint32_t *>(&b);
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ inline float maxNaN(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

template <int WARPS, bool MAX>
__device__ inline float blockReduce(float v, float *scratch) {
  for (int o = 16; o; o >>= 1) {
    float p = __shfl_xor_sync(~0u, v, o);
    v = MAX ? fmaxf(v, p) : v + p;
  }
  if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = scratch[0];
  for (int i = 1; i < WARPS; ++i) r = MAX ? fmaxf(r, scratch[i]) : r + scratch[i];
  return r;
}

// softmax of the R*VEC values a thread holds; reductions over the block.
template <int K, bool MAX>
__device__ inline float treeReduce(const float *a) {
  if constexpr (K == 1) return a[0];
  else {
    float l = treeReduce<K / 2, MAX>(a), r = treeReduce<K - K / 2, MAX>(a + K / 2);
    return MAX ? fmaxf(l, r) : l + r;
  }
}

// DIVIDE: each value divided by the sum (IEEE, as Triton's `/`) instead of
// multiplied by its reciprocal.
template <typename T, int WARPS, int R, bool FMA = true, bool TREE = false, bool DIVFULL = false,
          bool DIVIDE = false>
__device__ inline void softmaxRegs(float (&v)[R][kVec<T>], float *redMax, float *redSum) {
  float m = -INFINITY;
  if (TREE) m = treeReduce<R * kVec<T>, true>(&v[0][0]);
  else
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < kVec<T>; ++i) m = fmaxf(m, v[j][i]);
  m = blockReduce<WARPS, true>(m, redMax);
  const float m2 = m * kLog2e;
  float s = 0.f;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < kVec<T>; ++i) {
      // FMA=false: exp(x - max) as Triton and TileGym compute it (sub, mul, ex2)
      v[j][i] = FMA ? exp2f(fmaf(v[j][i], kLog2e, -m2)) : exp2f(__fmul_rn(__fsub_rn(v[j][i], m), kLog2e));
      if (!TREE) s += v[j][i];
    }
  if (TREE) s = treeReduce<R * kVec<T>, false>(&v[0][0]);
  s = blockReduce<WARPS, false>(s, redSum);
  if (DIVIDE) {
    for (int j = 0; j < R; ++j)
      for (int i = 0; i < kVec<T>; ++i) v[j][i] = __fdiv_rn(v[j][i], s);
    return;
  }
  if (DIVFULL) asm("div.full.f32 %0, %1, %0;" : "+f"(s) : "f"(1.f));
  else s = 1.f / s;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < kVec<T>; ++i) v[j][i] *= s;
}

// Row `row`'s R 16-byte runs of this thread (run j at column (j * TH + tid) * V),
// unpacked to f32, and back.
template <typename T, int N, int WARPS, int R>
__device__ inline void loadRow(const T *x, size_t row, float (&v)[R][kVec<T>]) {
  constexpr int TH = WARPS * 32, V = kVec<T>;
  const size_t base = row * N;
  for (int j = 0; j < R; ++j)
    unpack16(*reinterpret_cast<const uint4 *>(x + base + (j * TH + threadIdx.x) * V), v[j], T());
}
template <typename T, int N, int WARPS, int R>
__device__ inline void storeRow(T *y, size_t row, float (&v)[R][kVec<T>]) {
  constexpr int TH = WARPS * 32, V = kVec<T>;
  const size_t base = row * N;
  for (int j = 0; j < R; ++j)
    *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
}

template <typename T, int N, int WARPS, bool FMA = true, bool TREE = false, bool DIVFULL = false>
__device__ void rowreg(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  __shared__ float red[2][WARPS];
  float v[R][V];
  loadRow<T, N, WARPS>(x, blockIdx.x, v);
  softmaxRegs<T, WARPS, R, FMA, TREE, DIVFULL>(v, red[0], red[1]);
  storeRow<T, N, WARPS>(y, blockIdx.x, v);
}

template <typename T, int N, int WARPS, int S>
__device__ void cpasync(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  extern __shared__ __align__(128) unsigned char smem[];
  T *ring = reinterpret_cast<T *>(smem);
  __shared__ float red[2][2][WARPS];
  const int G = gridDim.x, first = blockIdx.x;
  const int rows = first < M ? (M - first + G - 1) / G : 0;
  auto issue = [&](int k) {
    if (k < rows) {
      const T *src = x + size_t(first + k * G) * N;
      T *dst = ring + (k % S) * N;
      for (int j = 0; j < R; ++j) {
        int off = (j * TH + threadIdx.x) * V;
        uint32_t d = (uint32_t)__cvta_generic_to_shared(dst + off);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src + off));
      }
    }
    asm volatile("cp.async.commit_group;");
  };
  for (int k = 0; k < S - 1; ++k) issue(k);
  for (int k = 0; k < rows; ++k) {
    issue(k + S - 1);
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 1));
    const T *src = ring + (k % S) * N;
    float v[R][V];
    for (int j = 0; j < R; ++j)
      unpack16(*reinterpret_cast<const uint4 *>(src + (j * TH + threadIdx.x) * V), v[j], T());
    softmaxRegs<T, WARPS, R>(v, red[k & 1][0], red[k & 1][1]);
    const size_t base = size_t(first + k * G) * N;
    for (int j = 0; j < R; ++j)
      *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
  }
}

__device__ inline void mbarWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W;\n}" ::"r"(bar), "r"(parity));
}

template <typename T, int N, int WARPS, int S>
__device__ void bulk(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  constexpr uint32_t BYTES = N * sizeof(T);
  extern __shared__ __align__(128) unsigned char smem[];
  T *ring = reinterpret_cast<T *>(smem);
  __shared__ __align__(8) uint64_t bars[S];
  __shared__ float red[2][2][WARPS];
  const int G = gridDim.x, first = blockIdx.x;
  const int rows = first < M ? (M - first + G - 1) / G : 0;
  auto bar = [&](int s) { return (uint32_t)__cvta_generic_to_shared(&bars[s]); };
  auto issue = [&](int k) {
    if (k >= rows) return;
    int s = k % S;
    uint32_t d = (uint32_t)__cvta_generic_to_shared(ring + s * N);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar(s)), "r"(BYTES));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(d), "l"(x + size_t(first + k * G) * N), "r"(BYTES), "r"(bar(s)) : "memory");
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar(s)));
    asm volatile("fence.mbarrier_init.release.cluster;");
    for (int k = 0; k < S; ++k) issue(k);
  }
  __syncthreads();
  for (int k = 0; k < rows; ++k) {
    const int s = k % S;
    mbarWait(bar(s), (k / S) & 1);
    const T *src = ring + s * N;
    float v[R][V];
    for (int j = 0; j < R; ++j)
      unpack16(*reinterpret_cast<const uint4 *>(src + (j * TH + threadIdx.x) * V), v[j], T());
    // The max reduction's barrier orders every thread's reads of slot s
    // before thread 0 refills it (inside softmaxRegs would be neater; the
    // refill after the whole softmax costs little: S-1 rows stay in flight).
    softmaxRegs<T, WARPS, R>(v, red[k & 1][0], red[k & 1][1]);
    if (threadIdx.x == 0) issue(k + S);
    const size_t base = size_t(first + k * G) * N;
    for (int j = 0; j < R; ++j)
      *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
  }
}

template <typename T, int N, int WARPS>
__device__ void cluster2(const T *x, T *y, int M) {
  constexpr int H = N / 2, TH = WARPS * 32, V = kVec<T>, R = H / (TH * V);
  __shared__ float part[2][2][WARPS];  // [max|sum][rank][warp]
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const size_t base = size_t(blockIdx.x >> 1) * N + rank * H;
  float v[R][V];
  for (int j = 0; j < R; ++j)
    unpack16(*reinterpret_cast<const uint4 *>(x + base + (j * TH + threadIdx.x) * V), v[j], T());
  float *peer = cluster.map_shared_rank(&part[0][0][0], rank ^ 1);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float m = -INFINITY;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < V; ++i) m = fmaxf(m, v[j][i]);
  for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
  if (lane == 0) { part[0][rank][warp] = m; peer[(0 * 2 + rank) * WARPS + warp] = m; }
  cluster.sync();
  m = part[0][0][0];
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < WARPS; ++i) m = fmaxf(m, part[0][r][i]);
  m *= kLog2e;
  float s = 0.f;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < V; ++i) { v[j][i] = exp2f(fmaf(v[j][i], kLog2e, -m)); s += v[j][i]; }
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
  if (lane == 0) { part[1][rank][warp] = s; peer[(1 * 2 + rank) * WARPS + warp] = s; }
  cluster.sync();
  s = 0.f;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < WARPS; ++i) s += part[1][r][i];
  s = 1.f / s;
  for (int j = 0; j < R; ++j) {
    for (int i = 0; i < V; ++i) v[j][i] *= s;
    *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
  }
}


// rowonl: rowreg with the max and the sum in one block exchange (online
// softmax within the block): each thread's exps are taken against its own
// max, the warps combine (max, sum) pairs, and one barrier gives every
// thread the row's pair; its values are then scaled by exp(m_t - M) / S.
__device__ inline void combine(float &m, float &s, float m2, float s2) {
  const float M = fmaxf(m, m2);
  s = s * exp2f((m - M) * kLog2e) + s2 * exp2f((m2 - M) * kLog2e);
  m = M;
}
template <typename T, int N, int WARPS>
__device__ void rowonl(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  __shared__ float2 red[WARPS];
  float v[R][V];
  loadRow<T, N, WARPS>(x, blockIdx.x, v);
  float m = -INFINITY;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < V; ++i) m = fmaxf(m, v[j][i]);
  const float mt = m, m2 = m * kLog2e;
  float s = 0.f;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < V; ++i) {
      v[j][i] = exp2f(fmaf(v[j][i], kLog2e, -m2));
      s += v[j][i];
    }
  for (int o = 16; o; o >>= 1)
    combine(m, s, __shfl_xor_sync(~0u, m, o), __shfl_xor_sync(~0u, s, o));
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = make_float2(m, s);
  __syncthreads();
  float2 r = red[0];
  for (int i = 1; i < WARPS; ++i) r.x = fmaxf(r.x, red[i].x);
  float S = 0.f;
  for (int i = 0; i < WARPS; ++i) S += red[i].y * exp2f((red[i].x - r.x) * kLog2e);
  // A thread whose values are all -inf has mt = -inf: its scale is 0.
  const float scale = exp2f((mt - r.x) * kLog2e) / S;
  const size_t base = size_t(blockIdx.x) * N;
  for (int j = 0; j < R; ++j) { // each run scaled, then stored
    for (int i = 0; i < V; ++i) v[j][i] *= scale;
    *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
  }
}

#define ROWONL(NAME, T, N, W, B) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowonl<T, N, W>(x, y, M); }

// rowcopy: rowreg without the softmax (the row read whole, then written
// back): the floor of the one-row-per-block shape itself. Not a softmax;
// cuab.py times it unchecked.
template <typename T, int N, int WARPS>
__device__ void rowcopy(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  const size_t base = size_t(blockIdx.x) * N;
  uint4 v[R];
  for (int j = 0; j < R; ++j)
    v[j] = *reinterpret_cast<const uint4 *>(x + base + (j * TH + threadIdx.x) * V);
  for (int j = 0; j < R; ++j)
    *reinterpret_cast<uint4 *>(y + base + (j * TH + threadIdx.x) * V) = v[j];
}

// rowpipe: persistent blocks with two rows in registers; the next row's
// loads are issued before this row's reductions, so an SM always has reads
// in flight while it reduces and stores (rows b, b+G, b+2G, ...).
template <typename T, int N, int WARPS>
__device__ void rowpipe(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  __shared__ float red[2][2][WARPS];
  const int G = gridDim.x;
  float a[R][V], b[R][V];
  auto load = [&](float (&v)[R][V], int row) { loadRow<T, N, WARPS>(x, row, v); };
  auto store = [&](float (&v)[R][V], int row) { storeRow<T, N, WARPS>(y, row, v); };
  int row = blockIdx.x;
  if (row < M) load(a, row);
  for (; row < M; row += 2 * G) {
    if (row + G < M) load(b, row + G);
    softmaxRegs<T, WARPS, R>(a, red[0][0], red[0][1]);
    store(a, row);
    if (row + G >= M) break;
    if (row + 2 * G < M) load(a, row + 2 * G);
    softmaxRegs<T, WARPS, R>(b, red[1][0], red[1][1]);
    store(b, row + G);
  }
}

#define ROWCOPY(NAME, T, N, W, B) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowcopy<T, N, W>(x, y, M); }
#define ROWPIPE(NAME, T, N, W, B) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowpipe<T, N, W>(x, y, M); }

// rowdelay: rowreg with a pause of D nanoseconds before the stores (does a
// later write of the row, as in Triton's slower normalization, help the
// DRAM?), and rowdiv: the normalization as one IEEE division per element.
template <typename T, int N, int WARPS, int D, bool DIV>
__device__ void rowdelay(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  __shared__ float red[2][WARPS];
  float v[R][V];
  loadRow<T, N, WARPS>(x, blockIdx.x, v);
  softmaxRegs<T, WARPS, R, true, false, false, DIV>(v, red[0], red[1]);
  if (D) __nanosleep(D);
  storeRow<T, N, WARPS>(y, blockIdx.x, v);
}

#define ROWDELAY(NAME, T, N, W, B, D, DIV) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowdelay<T, N, W, D, DIV>(x, y, M); }
#define ROWREG(NAME, T, N, W) \
  extern "C" __global__ void __launch_bounds__(W * 32) NAME(const T *x, T *y, int M) { rowreg<T, N, W>(x, y, M); }
#define ROWREG_FLAGS(NAME, T, N, W, B, FMA, TREE, DIVFULL) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowreg<T, N, W, FMA, TREE, DIVFULL>(x, y, M); }
#define CPASYNC(NAME, T, N, W, S) \
  extern "C" __global__ void __launch_bounds__(W * 32) NAME(const T *x, T *y, int M) { cpasync<T, N, W, S>(x, y, M); }
#define BULK(NAME, T, N, W, S) \
  extern "C" __global__ void __launch_bounds__(W * 32) NAME(const T *x, T *y, int M) { bulk<T, N, W, S>(x, y, M); }
#define CLUSTER2(NAME, T, N, W) \
  extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(W * 32) NAME(const T *x, T *y, int M) { cluster2<T, N, W>(x, y, M); }

// rowpf: see the header. Row blockIdx.x + D is the row of a block starting
// about D / (blocks per SM * SMs) generations later; the prefetch moves its
// DRAM reads earlier, into the time this block spends reducing and writing.
template <typename T, int N>
__device__ inline void prefetchRowL2(const T *x, size_t row, int mode) {
  constexpr uint32_t BYTES = N * sizeof(T);
  const T *p = x + row * N;
  if (mode != 1) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(BYTES) : "memory");
  } else {
    for (uint32_t line = threadIdx.x; line < BYTES / 128; line += blockDim.x)
      asm volatile("prefetch.global.L2 [%0];" ::"l"(reinterpret_cast<const char *>(p) + line * 128));
  }
}
template <typename T, int N, int WARPS, int D, int MODE>
__device__ void rowpf(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  __shared__ float red[2][WARPS];
  float v[R][V];
  const bool ahead = blockIdx.x + D < M;
  if (MODE != 2 && ahead) prefetchRowL2<T, N>(x, blockIdx.x + D, MODE);
  loadRow<T, N, WARPS>(x, blockIdx.x, v);
  if (MODE == 2 && ahead) prefetchRowL2<T, N>(x, blockIdx.x + D, MODE);
  softmaxRegs<T, WARPS, R>(v, red[0], red[1]);
  storeRow<T, N, WARPS>(y, blockIdx.x, v);
}

// rowtma: see the header. The normalized row goes to shared memory (each
// thread its own 16-byte runs), then thread 0 writes it with one bulk copy.
template <typename T, int N, int WARPS>
__device__ void rowtma(const T *x, T *y, int M) {
  constexpr int TH = WARPS * 32, V = kVec<T>, R = N / (TH * V);
  extern __shared__ __align__(128) unsigned char smem[];
  T *out = reinterpret_cast<T *>(smem);
  __shared__ float red[2][WARPS];
  float v[R][V];
  loadRow<T, N, WARPS>(x, blockIdx.x, v);
  softmaxRegs<T, WARPS, R>(v, red[0], red[1]);
  for (int j = 0; j < R; ++j)
    *reinterpret_cast<uint4 *>(out + (j * TH + threadIdx.x) * V) = pack16(v[j], T());
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t s = (uint32_t)__cvta_generic_to_shared(out);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(y + size_t(blockIdx.x) * N), "r"(s), "r"((uint32_t)(N * sizeof(T))) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

#define ROWPF(NAME, T, N, W, B, D, MODE) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowpf<T, N, W, D, MODE>(x, y, M); }
#define ROWTMA(NAME, T, N, W, B) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(const T *x, T *y, int M) { rowtma<T, N, W>(x, y, M); }

using bf16 = __nv_bfloat16;
// f32, rows of 16384
ROWREG_FLAGS(rowreg_f32_16384_w16, float, 16384, 16, 2, true, false, false)
ROWREG_FLAGS(rowregsub_f32_16384_w16, float, 16384, 16, 2, false, false, false)
ROWREG_FLAGS(rowregsubtreediv_f32_16384_w16, float, 16384, 16, 2, false, true, true)
ROWCOPY(rowcopy_f32_16384_w16, float, 16384, 16, 2)
ROWPIPE(rowpipe_f32_16384_w32, float, 16384, 32, 1)
ROWPIPE(rowpipe_f32_16384_w16, float, 16384, 16, 1)
ROWDELAY(rowdelay0_f32_16384_w16, float, 16384, 16, 2, 0, false)
ROWDELAY(rowdelay250_f32_16384_w16, float, 16384, 16, 2, 250, false)
ROWDELAY(rowdelay500_f32_16384_w16, float, 16384, 16, 2, 500, false)
ROWDELAY(rowdelay1000_f32_16384_w16, float, 16384, 16, 2, 1000, false)
ROWDELAY(rowdelay2000_f32_16384_w16, float, 16384, 16, 2, 2000, false)
ROWDELAY(rowdiv_f32_16384_w16, float, 16384, 16, 2, 0, true)
ROWONL(rowonl_f32_16384_w16, float, 16384, 16, 2)
ROWPF(rowpf0d132_f32_16384_w16, float, 16384, 16, 2, 132, 0)
ROWPF(rowpf1d132_f32_16384_w16, float, 16384, 16, 2, 132, 1)
ROWPF(rowpf2d33_f32_16384_w16, float, 16384, 16, 2, 33, 2)
ROWPF(rowpf2d66_f32_16384_w16, float, 16384, 16, 2, 66, 2)
ROWPF(rowpf2d99_f32_16384_w16, float, 16384, 16, 2, 99, 2)
ROWPF(rowpf2d132_f32_16384_w16, float, 16384, 16, 2, 132, 2)
ROWPF(rowpf2d198_f32_16384_w16, float, 16384, 16, 2, 198, 2)
ROWPF(rowpf2d264_f32_16384_w16, float, 16384, 16, 2, 264, 2)
ROWTMA(rowtma_f32_16384_w16_s1, float, 16384, 16, 2)
ROWONL(rowonl_f32_16384_w32, float, 16384, 32, 1)
CPASYNC(cpasync_f32_16384_w16_s3, float, 16384, 16, 3)
CPASYNC(cpasync_f32_16384_w8_s3, float, 16384, 8, 3)
BULK(bulk_f32_16384_w16_s3, float, 16384, 16, 3)
BULK(bulk_f32_16384_w8_s3, float, 16384, 8, 3)
BULK(bulk_f32_16384_w16_s2, float, 16384, 16, 2)
CLUSTER2(cluster2_f32_16384_w16, float, 16384, 16)
CLUSTER2(cluster2_f32_16384_w8, float, 16384, 8)
// f32, rows of 4096
ROWREG(rowreg_f32_4096_w4, float, 4096, 4)
ROWREG(rowreg_f32_4096_w16, float, 4096, 16)
ROWREG_FLAGS(rowregsub_f32_4096_w4, float, 4096, 4, 1, false, false, false)
ROWREG_FLAGS(rowregsubtreediv_f32_4096_w16, float, 4096, 16, 4, false, true, true)
ROWCOPY(rowcopy_f32_4096_w16, float, 4096, 16, 4)
ROWPIPE(rowpipe_f32_4096_w16, float, 4096, 16, 2)
ROWPIPE(rowpipe_f32_4096_w8, float, 4096, 8, 4)
ROWPIPE(rowpipe_f32_4096_w32, float, 4096, 32, 1)
ROWDELAY(rowdelay0_f32_4096_w16, float, 4096, 16, 4, 0, false)
ROWDELAY(rowdelay250_f32_4096_w16, float, 4096, 16, 4, 250, false)
ROWDELAY(rowdelay500_f32_4096_w16, float, 4096, 16, 4, 500, false)
ROWDELAY(rowdelay1000_f32_4096_w16, float, 4096, 16, 4, 1000, false)
ROWDELAY(rowdiv_f32_4096_w16, float, 4096, 16, 4, 0, true)
ROWONL(rowonl_f32_4096_w16, float, 4096, 16, 4)
ROWPF(rowpf0d264_f32_4096_w16, float, 4096, 16, 4, 264, 0)
ROWPF(rowpf1d264_f32_4096_w16, float, 4096, 16, 4, 264, 1)
ROWPF(rowpf2d66_f32_4096_w16, float, 4096, 16, 4, 66, 2)
ROWPF(rowpf2d132_f32_4096_w16, float, 4096, 16, 4, 132, 2)
ROWPF(rowpf2d198_f32_4096_w16, float, 4096, 16, 4, 198, 2)
ROWPF(rowpf2d264_f32_4096_w16, float, 4096, 16, 4, 264, 2)
ROWPF(rowpf2d396_f32_4096_w16, float, 4096, 16, 4, 396, 2)
ROWPF(rowpf2d528_f32_4096_w16, float, 4096, 16, 4, 528, 2)
ROWTMA(rowtma_f32_4096_w16_s1, float, 4096, 16, 4)
ROWONL(rowonl_f32_4096_w8, float, 4096, 8, 8)
ROWONL(rowonl_f32_4096_w4, float, 4096, 4, 1)
CPASYNC(cpasync_f32_4096_w4_s3, float, 4096, 4, 3)
CPASYNC(cpasync_f32_4096_w8_s4, float, 4096, 8, 4)
BULK(bulk_f32_4096_w4_s3, float, 4096, 4, 3)
BULK(bulk_f32_4096_w4_s4, float, 4096, 4, 4)
BULK(bulk_f32_4096_w8_s4, float, 4096, 8, 4)
CLUSTER2(cluster2_f32_4096_w4, float, 4096, 4)
CLUSTER2(cluster2_f32_4096_w8, float, 4096, 8)
// bf16, rows of 16384
ROWREG_FLAGS(rowreg_bf16_16384_w16, bf16, 16384, 16, 2, true, false, false)
ROWREG_FLAGS(rowregsub_bf16_16384_w16, bf16, 16384, 16, 2, false, false, false)
ROWREG_FLAGS(rowregsubtree_bf16_16384_w16, bf16, 16384, 16, 2, false, true, false)
ROWREG_FLAGS(rowregsubdiv_bf16_16384_w16, bf16, 16384, 16, 2, false, false, true)
ROWREG_FLAGS(rowregsubtreediv_bf16_16384_w16, bf16, 16384, 16, 2, false, true, true)
ROWREG_FLAGS(rowregtree_bf16_16384_w16, bf16, 16384, 16, 2, true, true, false)
ROWONL(rowonl_bf16_16384_w16, bf16, 16384, 16, 2)
ROWPF(rowpf2d66_bf16_16384_w16, bf16, 16384, 16, 2, 66, 2)
ROWPF(rowpf2d132_bf16_16384_w16, bf16, 16384, 16, 2, 132, 2)
ROWPF(rowpf2d264_bf16_16384_w16, bf16, 16384, 16, 2, 264, 2)
CPASYNC(cpasync_bf16_16384_w16_s3, bf16, 16384, 16, 3)
BULK(bulk_bf16_16384_w16_s3, bf16, 16384, 16, 3)
BULK(bulk_bf16_16384_w8_s4, bf16, 16384, 8, 4)
BULK(bulk_bf16_16384_w16_s6, bf16, 16384, 16, 6)
CLUSTER2(cluster2_bf16_16384_w16, bf16, 16384, 16)
CLUSTER2(cluster2_bf16_16384_w8, bf16, 16384, 8)

// f32 rows of 1024, bf16 rows of 4096 (the bench's other shapes)
ROWREG(rowreg_f32_1024_w2, float, 1024, 2)
ROWPF(rowpf2d264_f32_1024_w2, float, 1024, 2, 1, 264, 2)
ROWPF(rowpf2d528_f32_1024_w2, float, 1024, 2, 1, 528, 2)
ROWPF(rowpf2d1056_f32_1024_w2, float, 1024, 2, 1, 1056, 2)
ROWPF(rowpf2d2112_f32_1024_w2, float, 1024, 2, 1, 2112, 2)
ROWREG(rowreg_bf16_4096_w4, bf16, 4096, 4)
ROWPF(rowpf2d264_bf16_4096_w4, bf16, 4096, 4, 1, 264, 2)
ROWPF(rowpf2d528_bf16_4096_w4, bf16, 4096, 4, 1, 528, 2)
ROWPF(rowpf2d1056_bf16_4096_w4, bf16, 4096, 4, 1, 1056, 2)
ROWPF(rowpf2d2112_bf16_4096_w4, bf16, 4096, 4, 1, 2112, 2)

// TileGym's ABI and structure, step by step: views as expanded memref
// descriptors (runtime sizes and strides, 32-bit index math), a runtime
// test for 16-byte access (alignment, unit inner stride, row in bounds)
// choosing one vector branch per thread or scalar edge loads, max.NaN.
struct View2 {
  const float *alloc, *data;
  long long offset, size0, size1, stride0, stride1;
};

template <int N, int WARPS, bool CHECKS, bool NANMAX>
__device__ void tgabi(View2 x, View2 y) {
  constexpr int TH = WARPS * 32, R = N / (TH * 4);
  __shared__ float red[2][WARPS];
  const int row = blockIdx.x;
  const int size1 = (int)x.size1, stride0 = (int)x.stride0;
  const float *xr = x.data + x.offset;
  float v[R][4];
  bool fast = true;
  if (CHECKS) {
    fast = ((reinterpret_cast<uintptr_t>(xr) & 15) == 0) && (stride0 % 4 == 0) &&
           x.stride1 == 1 && size1 >= 4 && row < (int)x.size0 &&
           (R - 1) * TH * 4 + threadIdx.x * 4 <= size1 - 4;
  }
  if (fast) {
    for (int j = 0; j < R; ++j)
      unpack16(*reinterpret_cast<const uint4 *>(xr + row * stride0 + (j * TH + threadIdx.x) * 4), v[j], float());
  } else {
    for (int j = 0; j < R; ++j)
      for (int i = 0; i < 4; ++i) {
        int c = (j * TH + threadIdx.x) * 4 + i;
        v[j][i] = (row < (int)x.size0 && c < size1) ? xr[row * stride0 + c * (int)x.stride1] : -INFINITY;
      }
  }
  float m = -INFINITY;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < 4; ++i) m = NANMAX ? maxNaN(m, v[j][i]) : fmaxf(m, v[j][i]);
  for (int o = 1; o < 32; o <<= 1) {
    float p = __shfl_xor_sync(~0u, m, o);
    m = NANMAX ? maxNaN(m, p) : fmaxf(m, p);
  }
  red[0][threadIdx.x >> 5] = m;
  __syncthreads();
  m = red[0][0];
  for (int i = 1; i < WARPS; ++i) m = NANMAX ? maxNaN(m, red[0][i]) : fmaxf(m, red[0][i]);
  float s = 0.f;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < 4; ++i) { v[j][i] = exp2f(__fmul_rn(__fsub_rn(v[j][i], m), kLog2e)); s += v[j][i]; }
  for (int o = 1; o < 32; o <<= 1) s += __shfl_xor_sync(~0u, s, o);
  red[1][threadIdx.x >> 5] = s;
  __syncthreads();
  s = red[1][0];
  for (int i = 1; i < WARPS; ++i) s += red[1][i];
  asm("div.full.f32 %0, %1, %0;" : "+f"(s) : "f"(1.f));
  float *yr = const_cast<float *>(y.data) + y.offset;
  const int ystride0 = (int)y.stride0, ysize1 = (int)y.size1;
  bool yfast = true;
  if (CHECKS)
    yfast = ((reinterpret_cast<uintptr_t>(yr) & 15) == 0) && (ystride0 % 4 == 0) &&
            y.stride1 == 1 && ysize1 >= 4 && row < (int)y.size0 &&
            (R - 1) * TH * 4 + threadIdx.x * 4 <= ysize1 - 4;
  for (int j = 0; j < R; ++j)
    for (int i = 0; i < 4; ++i) v[j][i] *= s;
  if (yfast) {
    for (int j = 0; j < R; ++j)
      *reinterpret_cast<uint4 *>(yr + row * ystride0 + (j * TH + threadIdx.x) * 4) = pack16(v[j], float());
  } else {
    for (int j = 0; j < R; ++j)
      for (int i = 0; i < 4; ++i) {
        int c = (j * TH + threadIdx.x) * 4 + i;
        if (row < (int)y.size0 && c < ysize1) yr[row * ystride0 + c * (int)y.stride1] = v[j][i];
      }
  }
}

#define TGABI(NAME, N, W, B, CHECKS, NANMAX) \
  extern "C" __global__ void __launch_bounds__(W * 32, B) NAME(View2 x, View2 y) { tgabi<N, W, CHECKS, NANMAX>(x, y); }
TGABI(tgabi_f32_16384_w16, 16384, 16, 2, false, false)
TGABI(tgabichk_f32_16384_w16, 16384, 16, 2, true, false)
TGABI(tgabichknan_f32_16384_w16, 16384, 16, 2, true, true)
TGABI(tgabi_f32_4096_w16, 4096, 16, 4, false, false)
TGABI(tgabichk_f32_4096_w16, 4096, 16, 4, true, false)
TGABI(tgabichknan_f32_4096_w16, 4096, 16, 4, true, true)
