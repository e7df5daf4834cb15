//===- Dot.cpp - dots on tensor cores, operands in shared memory ----------===//
#include "KernelEmitter.h"

#include <map>

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

/// Registers c0..c3 of N blocks 2k and 2k+1 of a 16-bit tile in the mma
/// layout are a0..a3 of mma.sync's (and wgmma's) m16n8k16 A fragment for K
/// step k (16 deep) of M repetition `rm`, as pairs (vector<2 x elem>).
SmallVector<Value> KernelEmitter::accumulatorAFragment(Value lhs, int64_t rm,
                                                       int64_t k) {
  auto type = cast<RankedTensorType>(lhs.getType());
  auto pairType = VectorType::get({2}, type.getElementType());
  const SmallVector<Value> &regs = tiles[lhs];
  int64_t blocksK = type.getDimSize(1) / 8;
  SmallVector<Value> frag;
  for (int64_t kb : {k / 8, k / 8 + 1}) {
    int64_t base = 4 * (kb + blocksK * rm);
    for (int64_t j = 0; j < 4; j += 2) {
      Value pair = LLVM::PoisonOp::create(b, loc(), pairType);
      for (int64_t e = 0; e < 2; ++e)
        pair = LLVM::InsertElementOp::create(b, loc(), pair, regs[base + j + e],
                                             i32(e));
      frag.push_back(pair);
    }
  }
  return frag;
}

/// A dot on tensor cores. The operands are in shared memory row-major, A as
/// [M][K] and B as [K][N] (or [N][K] where its memdesc is transposed),
/// read into fragments by ldmatrix (.trans for a [K][N] B); then every
/// warp runs mma.sync over its 16x8 tiles of the accumulator, which is in
/// the mma layout: m16n8k16 for f16/bf16, m16n8k8 for f32 rounded to tf32.
LogicalResult KernelEmitter::emitDot(tilegpu::MmaOp op) {
  if (op.getInstruction() == tilegpu::DotInstruction::Wgmma) {
    if (!target.wgmma)
      return fail(op) << "is a wgmma dot, which needs sm_90a; the target is "
                      << target.chip;
    return op.isSwapped() ? emitSwappedWgmmaDot(op) : emitWgmmaDot(op);
  }
  Type elem = op.getOperandElementType();
  int64_t M = op.getM(), N = op.getN(), K = op.getK();
  bool tf32 = elem.isF32();
  int64_t kStep = tf32 ? 8 : 16;
  RegMap acc = regMap(op.getResult());
  const Layout &l = *acc.layout;
  if (K % kStep)
    return fail(op) << "needs K to be a multiple of " << kStep << ", got " << K;
  if (tf32 && op.getPrecision() != Precision::TF32)
    return fail(op) << "f32 inputs at ieee precision are not supported by "
                       "the GPU backend yet";

  if (M < 16 * l.warpsM || N < 8 * l.warpsN)
    return fail(op) << "tile " << M << "x" << N << " is smaller than the "
                    << 16 * l.warpsM << "x" << 8 * l.warpsN
                    << " its warps cover";

  // 1. Both operands row-major in shared memory, A as [M][K] and B as
  // [K][N], rows padded (getPaddedRowElements). A memdesc operand is there
  // already (a stage of its ring); the others are staged from registers,
  // each thread storing its contiguous runs as vectors of up to 16 bytes,
  // between two barriers.
  int64_t bytes = elementBytes(elem);
  struct Operand {
    Value tile;
    int64_t rows, cols, stride;
    Value base;          // !llvm.ptr<3> at element [0][0]
    bool nMajor = false; // B stored as [N][K] (a transposed memdesc)
  };
  Operand ops[2] = {
      {op.getLhs(), M, K, tilegpu::getPaddedRowElements(K, bytes), {}},
      {op.getRhs(), K, N, tilegpu::getPaddedRowElements(N, bytes), {}}};
  // An lhs that is its own A fragments needs no shared memory.
  auto inShared = [](Value v) {
    return isa<tilegpu::MemDescType>(v.getType());
  };
  bool lhsInRegisters = op.isLhsItsOwnFragments();
  int64_t stagedElems = 0;
  for (Operand &o : ops)
    if (!inShared(o.tile) && !(lhsInRegisters && o.tile == op.getLhs()))
      stagedElems += o.rows * o.stride;
  if (stagedElems) {
    Value buf = sharedScratch(op, stagedElems * bytes);
    if (!buf)
      return failure();
    gpu::BarrierOp::create(b, loc());
    int64_t offset = 0;
    for (Operand &o : ops) {
      if (inShared(o.tile) || (lhsInRegisters && o.tile == op.getLhs()))
        continue;
      o.base = elementPtr(buf, elem, idx(offset), kShared);
      offset += o.rows * o.stride;
      RegMap map = regMap(o.tile);
      const SmallVector<Value> &regs = tiles[o.tile];
      int64_t width = std::min<int64_t>(map.vectorWidth(), 16 / bytes);
      // Each element is written once, by the thread holding its first copy.
      emitIf(ownsElements(map), [&] {
        for (int64_t i = 0; i < map.count; i += width) {
          if (map.isRegisterReplica(i))
            continue;
          SmallVector<Value> c = coordinates(map, i);
          Value lin = arith::AddIOp::create(
              b, loc(), arith::MulIOp::create(b, loc(), c[0], idx(o.stride)),
              c[1]);
          Value ptr = elementPtr(o.base, elem, lin, kShared);
          if (width == 1) {
            LLVM::StoreOp::create(b, loc(), regs[i], ptr, bytes);
            continue;
          }
          auto vecType = VectorType::get({width}, elem);
          Value vec = LLVM::PoisonOp::create(b, loc(), vecType);
          for (int64_t k = 0; k < width; ++k)
            vec = LLVM::InsertElementOp::create(b, loc(), vec, regs[i + k],
                                                i32(k));
          LLVM::StoreOp::create(b, loc(), vec, ptr, width * bytes);
        }
      });
    }
    gpu::BarrierOp::create(b, loc());
  }
  for (Operand &o : ops) {
    auto desc = dyn_cast<tilegpu::MemDescType>(o.tile.getType());
    if (!desc)
      continue;
    o.base = sharedTiles.lookup(o.tile);
    o.stride = geometryOf(desc).stride;
    o.nMajor = desc.getTransposed();
  }
  const Operand &opA = ops[0], &opB = ops[1];

  // 2. Fragments. A 32-bit register holds two f16/bf16 neighbours along K,
  // or one tf32. f16/bf16 fragments come from ldmatrix: lane i gives the
  // address of row i % 8 of 8x8 matrix i / 8; A's four matrices are rows
  // +0/+8 by K +0/+8 (a0..a3), B's are read transposed from [K][N], K +0/+8
  // by up to two N blocks (b0, b1 of each).
  Type i32Type = b.getI32Type();
  auto sharedAt = [&](const Operand &o, Value row, Value col) {
    Value lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), row, idx(o.stride)), col);
    return elementPtr(o.base, elem, lin, kShared);
  };
  // Round to nearest (ties away) on the 13 dropped mantissa bits, as the CPU
  // backend and cvt.rna.tf32.f32 do.
  auto toTf32 = [&](Value f) -> Value {
    Value bits = LLVM::BitcastOp::create(b, loc(), i32Type, f);
    bits = arith::AddIOp::create(b, loc(), bits, i32(0x1000));
    return arith::AndIOp::create(b, loc(), bits, i32(~0x1fff));
  };
  auto loadTf32 = [&](const Operand &o, Value row, Value col) {
    return toTf32(
        LLVM::LoadOp::create(b, loc(), elem, sharedAt(o, row, col), 4));
  };
  // nvvm.mma.sync takes f16 pairs as vector<2xf16>, bf16 pairs as i32.
  auto pairType = VectorType::get({2}, elem);
  auto ldmatrix = [&](Value ptr, int64_t num, bool trans) {
    Type result = num == 1
                      ? Type(i32Type)
                      : LLVM::LLVMStructType::getLiteral(
                            b.getContext(), SmallVector<Type>(num, i32Type));
    Value m = NVVM::LdMatrixOp::create(
        b, loc(), result, ptr, num,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
        NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> regs;
    for (int64_t j = 0; j < num; ++j) {
      Value r =
          num == 1 ? m : Value(LLVM::ExtractValueOp::create(b, loc(), m, j));
      regs.push_back(elem.isF16()
                         ? Value(LLVM::BitcastOp::create(b, loc(), pairType, r))
                         : r);
    }
    return regs;
  };
  Value lane = laneId;
  Value groupRow = arith::DivUIOp::create(b, loc(), lane, idx(4));
  Value quad = arith::RemUIOp::create(b, loc(), lane, idx(4));
  Value warpN = arith::RemUIOp::create(b, loc(), warpId, idx(l.warpsN));
  Value warpM = arith::RemUIOp::create(
      b, loc(), arith::DivUIOp::create(b, loc(), warpId, idx(l.warpsN)),
      idx(l.warpsM));
  int64_t repsM = std::max<int64_t>(1, M / (16 * l.warpsM));
  int64_t repsN = std::max<int64_t>(1, N / (8 * l.warpsN));
  auto add = [&](Value a, int64_t c) {
    return c ? Value(arith::AddIOp::create(b, loc(), a, idx(c))) : a;
  };
  auto mul = [&](Value a, int64_t c) {
    return Value(arith::MulIOp::create(b, loc(), a, idx(c)));
  };
  Value mBase = add(mul(warpM, 16), 0), nBase = add(mul(warpN, 8), 0);
  Value colPair = tf32 ? quad : mul(quad, 2);
  int64_t half = tf32 ? 4 : 8;
  // ldmatrix lane roles: row within a matrix, which +8 half, which pair.
  Value lane8 = arith::RemUIOp::create(b, loc(), lane, idx(8));
  Value half8 =
      mul(arith::RemUIOp::create(
              b, loc(), arith::DivUIOp::create(b, loc(), lane, idx(8)), idx(2)),
          8);
  Value pair16 = arith::DivUIOp::create(b, loc(), lane, idx(16));
  Value aRow = arith::AddIOp::create(
      b, loc(), add(mBase, 0), arith::AddIOp::create(b, loc(), lane8, half8));
  Value aCol = mul(pair16, 8);
  Value bRow = arith::AddIOp::create(b, loc(), lane8, half8);
  Value bCol =
      arith::AddIOp::create(b, loc(), nBase, mul(pair16, 8 * l.warpsN));
  // B stored as [N][K]: the same matrices, read without transposing, lane i
  // addressing row (n) i % 8 of its N block at K +0/+8.
  Value bRowN = arith::AddIOp::create(b, loc(), bCol, lane8);
  auto loadB = [&](Value k, Value n) {
    return opB.nMajor ? loadTf32(opB, n, k) : loadTf32(opB, k, n);
  };

  SmallVector<Value> out(tiles[op.getAcc()].begin(), tiles[op.getAcc()].end());
  auto f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes ptxType = tf32            ? NVVM::MMATypes::tf32
                           : elem.isBF16() ? NVVM::MMATypes::bf16
                                           : NVVM::MMATypes::f16;
  for (int64_t k = 0; k < K; k += kStep) {
    Value kCol = add(colPair, k);
    SmallVector<SmallVector<Value>> bFrags;
    for (int64_t rn = 0; rn < repsN; rn += tf32 ? 1 : 2) {
      if (tf32) {
        Value n = arith::AddIOp::create(b, loc(), add(nBase, rn * 8 * l.warpsN),
                                        groupRow);
        bFrags.push_back({loadB(kCol, n), loadB(add(kCol, half), n)});
        continue;
      }
      bool two = rn + 1 < repsN;
      SmallVector<Value> r =
          opB.nMajor ? ldmatrix(sharedAt(opB, add(bRowN, rn * 8 * l.warpsN),
                                         add(half8, k)),
                                two ? 4 : 2, /*trans=*/false)
                     : ldmatrix(sharedAt(opB, add(bRow, k),
                                         add(bCol, rn * 8 * l.warpsN)),
                                two ? 4 : 2, /*trans=*/true);
      bFrags.push_back({r[0], r[1]});
      if (two)
        bFrags.push_back({r[2], r[3]});
    }
    for (int64_t rm = 0; rm < repsM; ++rm) {
      SmallVector<Value> aFrag;
      if (tf32) {
        Value r = arith::AddIOp::create(
            b, loc(), add(mBase, rm * 16 * l.warpsM), groupRow);
        aFrag = {loadTf32(opA, r, kCol), loadTf32(opA, add(r, 8), kCol),
                 loadTf32(opA, r, add(kCol, half)),
                 loadTf32(opA, add(r, 8), add(kCol, half))};
      } else if (lhsInRegisters) {
        for (Value pair : accumulatorAFragment(op.getLhs(), rm, k))
          aFrag.push_back(elem.isF16() ? pair
                                       : Value(LLVM::BitcastOp::create(
                                             b, loc(), i32Type, pair)));
      } else {
        aFrag = ldmatrix(
            sharedAt(opA, add(aRow, rm * 16 * l.warpsM), add(aCol, k)), 4,
            /*trans=*/false);
      }
      for (int64_t rn = 0; rn < repsN; ++rn) {
        // Accumulator registers c0..c3 of this 16x8 tile: base bits first,
        // then N repetitions, then M repetitions (RegMap's order).
        int64_t base = 4 * (rn + repsN * rm);
        SmallVector<Value> c(out.begin() + base, out.begin() + base + 4);
        Value d = NVVM::MmaOp::create(
            b, loc(), resultType, aFrag, bFrags[rn], c, {16, 8, kStep},
            std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int64_t j = 0; j < 4; ++j)
          out[base + j] = LLVM::ExtractValueOp::create(b, loc(), d, j);
      }
    }
  }
  if ((int64_t)out.size() != acc.count)
    return fail(op) << "internal error: accumulator registers do not match "
                       "the mma layout";
  tiles[op.getResult()] = out;
  return success();
}

/// wgmma m64nNk16 (f16, bf16) or m64nNk8 (tf32) with A from registers,
/// which nvvm.wgmma.mma_async (A by descriptor only) does not take: the
/// instruction as inline asm and its constraints. Operands: the N/2
/// accumulator registers (outputs, tied to the same inputs), A's four b32
/// fragments, B's descriptor. tf32 has no transpose operand (B K-major).
static std::pair<std::string, std::string>
registerAWgmmaAsm(int64_t N, Type elem, bool transB) {
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  int64_t n = N / 2;
  bool tf32 = elem.isF32();
  const char *type = tf32 ? "tf32" : elem.isBF16() ? "bf16" : "f16";
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << N << (tf32 ? "k8" : "k16")
     << ".f32." << type << "." << type << " {";
  for (int64_t r = 0; r < n; ++r)
    os << (r ? ", $" : "$") << r;
  os << "}, {$" << 2 * n << ", $" << 2 * n + 1 << ", $" << 2 * n + 2 << ", $"
     << 2 * n + 3 << "}, $" << 2 * n + 4 << ", p, 1, 1";
  if (!tf32)
    os << ", " << (transB ? 1 : 0);
  os << ";\n}\n";
  for (int64_t r = 0; r < n; ++r)
    cs << "=f,";
  for (int64_t r = 0; r < n; ++r)
    cs << r << ",";
  cs << "r,r,r,r,l";
  return {text, constraints};
}

// wgmma matrix descriptors: start address, leading and stride byte offsets,
// each in 16-byte units, and the 128-byte swizzle (mode 1, bits 62-63).
// Only the low word (start and LBO) varies: it is computed in 32 bits and
// paired with the constant high word (SBO and the swizzle mode, the same
// for every operand). With the warp index uniform (emit), CUDA 13.0's
// ptxas folded a 64-bit add of the whole descriptor into its uniform
// datapath and dropped the high word (wrong results; bench/NOTES.md,
// experiments). The start moves by constants per instruction: stages lie
// within the 256 KiB its 14 bits address.

/// The low word of the descriptor of the tile at `base` (shared memory)
/// with leading byte offset `leadingBytes`.
Value KernelEmitter::wgmmaDescriptorLow(Value base, int64_t leadingBytes) {
  Type i32Type = b.getI32Type();
  Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI64Type(), base);
  Value start = arith::TruncIOp::create(
      b, loc(), i32Type,
      arith::ShRUIOp::create(
          b, loc(), addr,
          arith::ConstantOp::create(b, loc(), b.getI64IntegerAttr(4))));
  start = arith::AndIOp::create(b, loc(), start, i32(0x3FFF));
  return arith::OrIOp::create(b, loc(), start,
                              i32((int64_t(leadingBytes >> 4) & 0x3FFF) << 16));
}

/// The descriptor `bytes` past the tile whose low word is `low`.
Value KernelEmitter::wgmmaDescriptor(Value low, int64_t bytes) {
  Type i32Type = b.getI32Type();
  if (bytes)
    low = arith::AddIOp::create(b, loc(), low, i32(bytes >> 4));
  const int64_t high = (int64_t(kSwizzleAtomBytes >> 4) & 0x3FFF) | int64_t(1)
                                                                        << 30;
  auto pair = VectorType::get({2}, i32Type);
  Value v = LLVM::PoisonOp::create(b, loc(), pair);
  v = LLVM::InsertElementOp::create(b, loc(), v, low, i32(0));
  v = LLVM::InsertElementOp::create(b, loc(), v, i32(high), i32(1));
  return LLVM::BitcastOp::create(b, loc(), b.getI64Type(), v);
}

/// Bytes from a K-major operand's start ([rows][K], column blocks of 128
/// bytes, `swizzledRows` rows each) to K step `k`: 32 bytes (16 16-bit
/// elements, 8 tf32, 32 fp8) into the swizzled row, or the next column
/// block. Successive 8-row core matrices are 1024 bytes apart (SBO).
static int64_t kMajorStepBytes(int64_t k, int64_t elementBytes,
                               int64_t swizzledRows) {
  int64_t perRow = 128 / elementBytes;
  return (k / perRow) * swizzledRows * 128 + (k % perRow) * elementBytes;
}

/// A dot as wgmma (sm_90a): B in a swizzled tile of shared memory, read by
/// the tensor cores through a matrix descriptor, A likewise or from
/// registers in the accumulator's layout; per 16-deep K step, each
/// warpgroup runs one m64nNk16 for each of its 64-row blocks of the
/// accumulator, then commits them as one group. The result's registers are
/// complete once a tilegpu.mma_wait has waited for the group.
LogicalResult KernelEmitter::emitWgmmaDot(tilegpu::MmaOp op) {
  MLIRContext *ctx = b.getContext();
  auto descB = cast<tilegpu::MemDescType>(op.getRhs().getType());
  auto descA = dyn_cast<tilegpu::MemDescType>(op.getLhs().getType());
  Type elem = op.getOperandElementType();
  int64_t M = op.getM(), N = op.getN(), K = op.getK();
  RegMap acc = regMap(op.getResult());
  // tf32: 8 deep per instruction, both operands K-major (the tensor cores
  // read the f32 bits and drop the low 13 mantissa bits); fp8: 32 deep,
  // both K-major (wgmma transposes only 16-bit operands).
  int64_t bytes = elementBytes(elem), kStep = 32 / bytes;
  if (K % kStep)
    return fail(op) << "needs K to be a multiple of " << kStep << ", got " << K;
  struct Shared {
    Value base;
    int64_t swizzledRows;
  };
  std::optional<Shared> opA; // none: registers
  if (descA)
    opA =
        Shared{sharedTiles.lookup(op.getLhs()), geometryOf(descA).swizzledRows};
  Shared opB{sharedTiles.lookup(op.getRhs()), geometryOf(descB).swizzledRows};
  bool bKMajor = descB.getTransposed(); // stored [N][K]
  // tilegpu.mma's verifier holds tf32 and fp8 operands to shared memory,
  // both K-major.
  assert((bytes == 2 || (opA && bKMajor)) &&
         "tf32 and fp8 wgmma read both operands K-major from shared memory");
  // K-major operands step through K by kMajorStepBytes. An N-major B
  // ([K][N], 16-bit only): K steps of 16 rows, 2048 bytes; N blocks of 64
  // one column block apart (LBO).
  Type i32Type = b.getI32Type();
  // Warpgroup g starts at row 64g of A: 64 rows of 128 bytes further.
  int64_t groups = numWarps / 4;
  Value group = arith::IndexCastOp::create(
      b, loc(), i32Type, arith::DivUIOp::create(b, loc(), warpId, idx(4)));
  Value lowA =
      opA ? Value(arith::AddIOp::create(
                b, loc(), wgmmaDescriptorLow(opA->base, 16),
                arith::MulIOp::create(b, loc(), group, i32(64 * 128 >> 4))))
          : Value();
  Value lowB =
      wgmmaDescriptorLow(opB.base, bKMajor ? 16 : opB.swizzledRows * 128);
  auto wgmmaType = [&](Type t) {
    NVVM::WGMMATypes type = t.isBF16()                 ? NVVM::WGMMATypes::bf16
                            : t.isF16()                ? NVVM::WGMMATypes::f16
                            : isa<Float8E4M3FNType>(t) ? NVVM::WGMMATypes::e4m3
                            : isa<Float8E5M2Type>(t)   ? NVVM::WGMMATypes::e5m2
                                                       : NVVM::WGMMATypes::tf32;
    return NVVM::WGMMATypesAttr::get(ctx, type);
  };
  Type elemB = descB.getElementType();

  // Accumulator registers of a 64-row block, in wgmma's order: for each 8
  // columns, c0..c3 as mma.sync's (RegMap: N repetitions, then M).
  int64_t repsN = N / 8;
  SmallVector<Value> out(tiles[op.getAcc()].begin(), tiles[op.getAcc()].end());
  int64_t blocksM = M / (64 * groups);
  if ((int64_t)out.size() != acc.count || acc.count != blocksM * N / 2)
    return fail(op) << "internal error: accumulator registers do not match "
                       "the wgmma layout";
  auto f32 = b.getF32Type();
  auto structType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(N / 2, f32));
  // fp8 products are added into the accumulator as the tensor cores add
  // them, keeping about 13 mantissa bits (docs/results/language.md), as
  // Triton's default on sm_90 and cuBLAS's fast accumulation do.
  SmallVector<Value> blocks;
  for (int64_t m = 0; m < blocksM; ++m) {
    Value s = LLVM::PoisonOp::create(b, loc(), structType);
    for (int64_t r = 0; r < N / 2; ++r)
      s = LLVM::InsertValueOp::create(b, loc(), s, out[m * repsN * 4 + r], r);
    blocks.push_back(s);
  }
  std::pair<std::string, std::string> registerA;
  if (!opA)
    registerA = registerAWgmmaAsm(N, elem, /*transB=*/!bKMajor);
  NVVM::WgmmaFenceAlignedOp::create(b, loc());
  for (int64_t k = 0; k < K; k += kStep)
    for (int64_t m = 0; m < blocksM; ++m) {
      Value bDesc = wgmmaDescriptor(
          lowB,
          bKMajor ? kMajorStepBytes(k, bytes, opB.swizzledRows) : k * 128);
      if (!opA) {
        SmallVector<Value> operands;
        for (int64_t r = 0; r < N / 2; ++r)
          operands.push_back(
              LLVM::ExtractValueOp::create(b, loc(), blocks[m], r));
        for (Value pair : accumulatorAFragment(op.getLhs(), m, k)) {
          operands.push_back(LLVM::BitcastOp::create(b, loc(), i32Type, pair));
          wgmmaRegisterOperands[op.getResult()].push_back(operands.back());
        }
        operands.push_back(bDesc);
        blocks[m] = LLVM::InlineAsmOp::create(
                        b, loc(), structType, operands, registerA.first,
                        registerA.second, /*has_side_effects=*/true,
                        /*is_align_stack=*/false,
                        LLVM::tailcallkind::TailCallKind::None,
                        LLVM::AsmDialectAttr(), ArrayAttr())
                        .getResult(0);
        continue;
      }
      Value a =
          wgmmaDescriptor(lowA, kMajorStepBytes(k, bytes, opA->swizzledRows) +
                                    m * groups * 64 * 128);
      blocks[m] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc(), structType, blocks[m], a, bDesc,
          NVVM::MMAShapeAttr::get(ctx, 64, N, kStep), wgmmaType(elem),
          wgmmaType(elemB),
          NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
          NVVM::MMALayoutAttr::get(ctx, bKMajor ? NVVM::MMALayout::col
                                                : NVVM::MMALayout::row),
          /*satfinite=*/nullptr);
    }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
  for (int64_t m = 0; m < blocksM; ++m)
    for (int64_t r = 0; r < N / 2; ++r)
      out[m * repsN * 4 + r] =
          LLVM::ExtractValueOp::create(b, loc(), blocks[m], r);
  tiles[op.getResult()] = out;
  return success();
}

/// A tf32 dot as wgmma on its transpose, C^T = B^T A^T (sm_90a): wgmma
/// reads tf32 only K-major, and B is stored [K][N], N-major, in a stage
/// under the 128-byte swizzle (which the TMA writes). Its transpose is
/// wgmma's A from registers, which have no such rule: per 8-deep K step
/// each thread loads its four b32 fragments of B^T (rows n and n + 4 of
/// its warpgroup's 64, K columns q and q + 4, q = lane % 4; the swapped
/// layout's bit order and the swizzle put the 32 lanes of each load in 32
/// banks), then each warpgroup runs one m64nMk8 per 64 rows of
/// N, reading the K-major lhs [M][K] as wgmma's B by descriptor. The
/// accumulator is wgmma's D^T fragments, rows and columns swapped
/// (tilegpu::getSwappedWgmmaLayout); the A registers are read until their
/// group completes: two groups, each half of K (below).
LogicalResult KernelEmitter::emitSwappedWgmmaDot(tilegpu::MmaOp op) {
  MLIRContext *ctx = b.getContext();
  auto descA = cast<tilegpu::MemDescType>(op.getLhs().getType());
  auto descB = cast<tilegpu::MemDescType>(op.getRhs().getType());
  int64_t M = op.getM(), N = op.getN(), K = op.getK();
  int64_t groups = numWarps / 4, blocksN = N / (64 * groups);
  constexpr int64_t kStep = 8;
  if (K % kStep)
    return fail(op) << "needs K to be a multiple of " << kStep << ", got " << K;
  RegMap acc = regMap(op.getResult());
  // Each register by its place in the tile (the thread's own part is in its
  // base coordinates): wgmma's register r of 64-row block nb is column
  // 8 (r / 4) + r % 2 of D^T, our m, and row + 8 when r % 4 >= 2, our n + 4.
  std::map<std::pair<int64_t, int64_t>, int64_t> byOffset;
  for (int64_t i = 0; i < acc.count; ++i) {
    SmallVector<int64_t> off = acc.offsets(i);
    byOffset[{off[0], off[1]}] = i;
  }
  SmallVector<SmallVector<int64_t>> regOf(blocksN);
  for (int64_t nb = 0; nb < blocksN; ++nb)
    for (int64_t r = 0; r < M / 2; ++r) {
      auto it = byOffset.find(
          {8 * (r / 4) + r % 2, (r % 4 >= 2 ? 4 : 0) + nb * 64 * groups});
      if (it == byOffset.end() || (int64_t)byOffset.size() != acc.count ||
          acc.count != blocksN * M / 2)
        return fail(op) << "internal error: accumulator registers do not "
                           "match the swapped wgmma layout";
      regOf[nb].push_back(it->second);
    }
  SmallVector<Value> out(tiles[op.getAcc()].begin(), tiles[op.getAcc()].end());

  // B^T's fragments: element (k, n) of the [K][N] stage, under the 128-byte
  // swizzle (column blocks of 32 elements, K rows each; a row's 16-byte
  // unit xor the row's place in its group of 8). A thread reads rows
  // q + k and q + k + 4 (q = lane % 4, k a multiple of 8) and columns
  // n + c and n + c + 4 (n its base column, c a multiple of 64): k moves
  // within a column block and c across them without changing the xor, so
  // the four (row, column) pairs at k = c = 0 are the thread's only
  // computed offsets, and every fragment is one of them plus a constant.
  // A load's 32 lanes read 4 rows x 8 columns (2 units); the xor sends the
  // 4 rows' units to 8 different units of their 128-byte lines: 32 banks.
  Type i32Type = b.getI32Type(), f32 = b.getF32Type();
  Value baseB = sharedTiles.lookup(op.getRhs());
  int64_t rowsB = geometryOf(descB).swizzledRows;
  constexpr int64_t perBlock = 32; // f32 columns in a 128-byte block
  if (!rowsB || rowsB % 8 || (64 * groups) % perBlock)
    return fail(op) << "internal error: the transposed product's rhs is not "
                       "a swizzled stage of whole column blocks";
  Value quad = arith::RemUIOp::create(b, loc(), laneId, idx(4));
  Value nBase = baseCoords(*acc.layout)[1];
  Value firsts[2][2];
  for (int64_t dk = 0; dk < 2; ++dk)
    for (int64_t dn = 0; dn < 2; ++dn) {
      Value row = arith::AddIOp::create(b, loc(), quad, idx(4 * dk));
      Value col = arith::AddIOp::create(b, loc(), nBase, idx(4 * dn));
      firsts[dk][dn] =
          elementPtr(baseB, b.getI8Type(),
                     swizzledElementOffset(rowsB, row, col, 4), kShared);
    }
  auto fragment = [&](int64_t k, int64_t dk, int64_t c, int64_t dn) {
    Value ptr = elementPtr(firsts[dk][dn], b.getI8Type(),
                           idx((c / perBlock * rowsB + k) * 128), kShared);
    return Value(LLVM::LoadOp::create(b, loc(), i32Type, ptr, 4));
  };

  // The lhs as wgmma's B, K-major under the 128-byte swizzle.
  int64_t swizzledRows = geometryOf(descA).swizzledRows;
  Value low = wgmmaDescriptorLow(sharedTiles.lookup(op.getLhs()), 16);

  auto structType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(M / 2, f32));
  SmallVector<Value> blocks;
  for (int64_t nb = 0; nb < blocksN; ++nb) {
    Value s = LLVM::PoisonOp::create(b, loc(), structType);
    for (int64_t r = 0; r < M / 2; ++r)
      s = LLVM::InsertValueOp::create(b, loc(), s, out[regOf[nb][r]], r);
    blocks.push_back(s);
  }
  auto [text, constraints] = registerAWgmmaAsm(M, f32, /*transB=*/false);
  // Per K step the fragments, then the fence that orders their writes
  // before the wgmmas reading them: the next step's loads overlap this
  // step's wgmmas. The K steps go in two groups, the second (empty for a
  // single step) after waiting for every group but the first: the last
  // dot's second group, which reads the registers the second half loads
  // again. So the tensor cores always have a group queued: the next dot
  // waits for this one's first group only (tilegpu-pipeline's
  // `tilegpu.mma_wait 1` before it), and the second runs meanwhile.
  int64_t steps = K / kStep, firstHalf = (steps + 1) / 2;
  for (int64_t k = 0; k < K; k += kStep) {
    if (k == firstHalf * kStep) {
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 1);
    }
    SmallVector<SmallVector<Value>> frags;
    for (int64_t nb = 0; nb < blocksN; ++nb) {
      int64_t c = nb * 64 * groups;
      frags.push_back({fragment(k, 0, c, 0), fragment(k, 0, c, 1),
                       fragment(k, 1, c, 0), fragment(k, 1, c, 1)});
    }
    NVVM::WgmmaFenceAlignedOp::create(b, loc());
    Value bDesc = wgmmaDescriptor(low, kMajorStepBytes(k, 4, swizzledRows));
    for (int64_t nb = 0; nb < blocksN; ++nb) {
      SmallVector<Value> operands;
      for (int64_t r = 0; r < M / 2; ++r)
        operands.push_back(
            LLVM::ExtractValueOp::create(b, loc(), blocks[nb], r));
      llvm::append_range(operands, frags[nb]);
      operands.push_back(bDesc);
      blocks[nb] = LLVM::InlineAsmOp::create(
                       b, loc(), structType, operands, text, constraints,
                       /*has_side_effects=*/true, /*is_align_stack=*/false,
                       LLVM::tailcallkind::TailCallKind::None,
                       LLVM::AsmDialectAttr(), ArrayAttr())
                       .getResult(0);
    }
  }
  if (steps == firstHalf) { // one step: an empty second group
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 1);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
  for (int64_t nb = 0; nb < blocksN; ++nb)
    for (int64_t r = 0; r < M / 2; ++r)
      out[regOf[nb][r]] = LLVM::ExtractValueOp::create(b, loc(), blocks[nb], r);
  tiles[op.getResult()] = out;
  return success();
}

void tilegym::detail::populateDotPatterns(KernelEmitter &emitter,
                                          RewritePatternSet &patterns) {
  addEmitPattern<tilegpu::MmaOp, &KernelEmitter::emitDot>(patterns, emitter);
  addEmitPattern<tilegpu::MmaWaitOp>(
      patterns, emitter,
      [](KernelEmitter &e, tilegpu::MmaWaitOp op,
         ConversionPatternRewriter &) -> LogicalResult {
        if (!e.target.wgmma)
          return e.fail(op) << "waits for wgmma groups, which need sm_90a; "
                               "the target is "
                            << e.target.chip;
        // Each wait is an asm of its own text (the op's number in the
        // kernel): two branches ending alike (a warp-specialized kernel's
        // TMA path and its cp.async fallback) would otherwise have their
        // waits merged into the common successor by LLVM, the two
        // accumulators joined by register copies while the group is in
        // flight, and ptxas would serialize every wgmma of the kernel
        // (C7515).
        e.inlinePtx(("wgmma.wait_group.sync.aligned " + Twine(op.getPending()) +
                     "; // wait " + Twine(e.mmaWaits++))
                        .str(),
                    "", {});
        for (auto [from, to] : llvm::zip(op.getValues(), op.getResults())) {
          e.sameRegisters(to, from);
          // The A fragments the retired group read, in use until here.
          SmallVector<Value> read = e.wgmmaRegisterOperands.lookup(from);
          if (!read.empty())
            e.inlinePtx(
                "", llvm::join(SmallVector<StringRef>(read.size(), "r"), ","),
                read);
        }
        return success();
      });
  addEmitPattern<DotOp>(
      patterns, emitter,
      [](KernelEmitter &e, DotOp op,
         ConversionPatternRewriter &) -> LogicalResult {
        return e.fail(op) << "has no tensor-core instruction yet: run "
                             "tilegpu-accelerate-dots and tilegpu-pipeline "
                             "first";
      });
}
