"""Plain Triton peers for bench/run.py: the classic tutorial kernels, one
fixed configuration each (no autotuning), so that the comparison is with
what a Triton user writes first, not with a tuned library.

    vector_add     tutorial 01, BLOCK = 1024
    gelu           y = gelu_tanh(x * w + b), one row chunk of BLOCK_N per program,
                   tanh from libdevice
    gelu_sigmoid   the same through 1 / (1 + exp(-2u)) with exp2 (the form
                   examples/gelu.tile uses)
    softmax        tutorial 02's classic form: one row per program,
                   BLOCK = next_pow2(N), warps 4 / 8 / 16 by BLOCK
    matmul         tutorial 03: grouped ordering, 128x256x64 (f32 in tf32: 128x256x32),
                   3 stages, 8 warps
    attention      FA2-style forward: one query block per program, online
                   softmax with exp2, causal in two stages (unmasked blocks,
                   then the diagonal block)
"""
import torch
import triton
import triton.language as tl

try:  # Triton 3.x
    from triton.language.extra import libdevice

    _tanh = libdevice.tanh
except Exception:  # pragma: no cover
    _tanh = None


# --------------------------------------------------------------- vector add
@triton.jit
def _add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, a + b, mask=mask)


def vector_add(a, b, c):
    n = c.numel()
    _add_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
    return c


# --------------------------------------------------------------------- gelu
@triton.jit
def _tanh_exp(u):
    # tanh(u) = 1 - 2 / (exp(2u) + 1)
    return 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)


@triton.jit
def _gelu_input(x_ptr, w_ptr, b_ptr, N, stride_x, BLOCK_N: tl.constexpr):
    # This program's block of v = x * w + b in f32, its row, columns and mask.
    row = tl.program_id(1)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    return row, cols, mask, x * w + b


@triton.jit
def _gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y,
                 BLOCK_N: tl.constexpr, USE_LIBDEVICE: tl.constexpr):
    row, cols, mask, v = _gelu_input(x_ptr, w_ptr, b_ptr, N, stride_x, BLOCK_N)
    u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    if USE_LIBDEVICE:
        t = libdevice.tanh(u)
    else:
        t = _tanh_exp(u)
    g = 0.5 * v * (1.0 + t)
    tl.store(y_ptr + row * stride_y + cols, g.to(y_ptr.dtype.element_ty), mask=mask)


def gelu(x, w, b, y):
    M, N = x.shape
    BLOCK_N = 1024
    _gelu_kernel[(triton.cdiv(N, BLOCK_N), M)](
        x, w, b, y, N, x.stride(0), y.stride(0), BLOCK_N=BLOCK_N,
        USE_LIBDEVICE=_tanh is not None)
    return y


@triton.jit
def _gelu_sigmoid_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y,
                         BLOCK_N: tl.constexpr):
    # The same GELU through 0.5 * (1 + tanh(u)) = 1 / (1 + exp(-2u)): the
    # formulation examples/gelu.tile uses, so the two kernels do equal math.
    row, cols, mask, v = _gelu_input(x_ptr, w_ptr, b_ptr, N, stride_x, BLOCK_N)
    # -2 * sqrt(2/pi) * log2(e) and that times 0.044715
    g = v / (1.0 + tl.exp2(v * (-2.302208198144325 - 0.1029432395800235 * v * v)))
    tl.store(y_ptr + row * stride_y + cols, g.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_sigmoid(x, w, b, y):
    M, N = x.shape
    BLOCK_N = 1024
    _gelu_sigmoid_kernel[(triton.cdiv(N, BLOCK_N), M)](
        x, w, b, y, N, x.stride(0), y.stride(0), BLOCK_N=BLOCK_N)
    return y


# ------------------------------------------------------------------ softmax
@triton.jit
def _softmax_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask,
                other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def softmax(x, y):
    M, N = x.shape
    BLOCK = triton.next_power_of_2(N)
    num_warps = 4 if BLOCK < 2048 else (8 if BLOCK < 4096 else 16)
    _softmax_kernel[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=BLOCK,
                          num_warps=num_warps)
    return y


# ------------------------------------------------------------------- matmul
@triton.jit
def _matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                   stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def matmul(a, b, c):
    M, K = a.shape
    _, N = b.shape
    # f32 (tf32 dots) at BK 32: three stages of 128x32 and 32x256 f32 fit in shared memory.
    BM, BN, BK = (128, 256, 32) if a.dtype == torch.float32 else (128, 256, 64)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    _matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                         b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                         BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8,
                         num_stages=3, num_warps=8)
    return c


# ---------------------------------------------------------------- attention
@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_base, v_base, offs_m, offs_d, S, qk_scale,
                lo, hi, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                MASK_CAUSAL: tl.constexpr, EVEN_N: tl.constexpr):
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        if EVEN_N:
            k = tl.load(k_base + cols[:, None] * HEAD_DIM + offs_d[None, :])
            v = tl.load(v_base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        else:
            k = tl.load(k_base + cols[:, None] * HEAD_DIM + offs_d[None, :],
                        mask=cols[:, None] < S, other=0.0)
            v = tl.load(v_base + cols[:, None] * HEAD_DIM + offs_d[None, :],
                        mask=cols[:, None] < S, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        if MASK_CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, -float("inf"))
        if not EVEN_N:
            qk = tl.where(cols[None, :] < S, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, O, S, sm_scale, HEAD_DIM: tl.constexpr,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, EVEN_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1).to(tl.int64)
    base = off_bh * S * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
                mask=offs_m[:, None] < S, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    if CAUSAL:
        # Blocks wholly below the diagonal, then the diagonal block, masked.
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base, offs_m,
                                    offs_d, S, qk_scale, 0, start_m * BLOCK_M,
                                    BLOCK_N, HEAD_DIM, False, EVEN_N)
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base, offs_m,
                                    offs_d, S, qk_scale, start_m * BLOCK_M,
                                    tl.minimum((start_m + 1) * BLOCK_M, S),
                                    BLOCK_N, HEAD_DIM, True, EVEN_N)
    else:
        acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base, offs_m,
                                    offs_d, S, qk_scale, 0, S, BLOCK_N, HEAD_DIM,
                                    False, EVEN_N)
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
             acc.to(O.dtype.element_ty), mask=offs_m[:, None] < S)


def attention(q, k, v, o, causal):
    B, H, S, D = q.shape
    BM, BN = 128, 64
    warps = 8 if D >= 128 else 4
    grid = (triton.cdiv(S, BM), B * H)
    _attn_fwd[grid](q, k, v, o, S, D ** -0.5, HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN,
                    CAUSAL=causal, EVEN_N=(S % BN == 0), num_warps=warps,
                    num_stages=3)
    return o
