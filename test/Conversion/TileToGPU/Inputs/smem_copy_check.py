# tilegpu shared-memory ops on the GPU: a ring of two swizzled stages filled
# by cp.async, read back as is and transposed, against torch, at ragged shapes.
import sys, torch
# Run from the tree root on the GPU machine, with the bench kit (.bench-kit)
# and the bundle in .py-check/.
sys.path.insert(0, ".bench-kit")
import tilegym
k = tilegym.Bundle(".py-check/smem_copy.tgb").load()
bad = 0
for M, N in [(64, 64), (200, 136), (1, 70), (257, 513)]:
    x = torch.randn(M, N, device="cuda").to(torch.bfloat16)
    y = torch.full_like(x, float("nan"))
    z = torch.full_like(x, float("nan"))
    k(x, y, z)
    torch.cuda.synchronize()
    Mp, Np = -(-M // 64) * 64, -(-N // 64) * 64
    xp = torch.zeros(Mp, Np, device="cuda", dtype=x.dtype)
    xp[:M, :N] = x
    zt = xp.view(Mp // 64, 64, Np // 64, 64).transpose(1, 3).reshape(Mp, Np)[:M, :N]
    ok_y = torch.equal(y, x)
    ok_z = torch.equal(z, zt)
    print(f"{M}x{N}: copy {'ok' if ok_y else 'WRONG'}, transposed {'ok' if ok_z else 'WRONG'}")
    bad += (not ok_y) + (not ok_z)
print(f"{8 - bad} passed, {bad} failed")
sys.exit(1 if bad else 0)
