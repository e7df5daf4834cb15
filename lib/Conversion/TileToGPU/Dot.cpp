//===- Dot.cpp - dots on tensor cores, operands in shared memory ----------===//
#include "KernelEmitter.h"

#include "tilegym/Dialect/Tile/IR/DotOperands.h"

using namespace mlir;
using namespace tilegym;
using namespace tilegym::tile;
using namespace tilegym::detail;

/// Elements from one row of a staged dot operand to the next: the row padded
/// to an odd number of 16-byte units, so that the 8 rows one ldmatrix phase
/// reads fall into 8 distinct bank groups.
static int64_t paddedRowStride(int64_t cols, int64_t bytes) {
  int64_t units = cols * bytes / 16;
  return units % 2 ? cols : cols + 16 / bytes;
}

/// The loop-yield operand that is `v`'s only use, if `v` only goes round
/// the loop.
static std::optional<unsigned> onlyYielded(Value v) {
  if (!v.hasOneUse())
    return std::nullopt;
  OpOperand &use = *v.getUses().begin();
  if (!isa<scf::YieldOp>(use.getOwner()) ||
      !isa<scf::ForOp>(use.getOwner()->getParentOp()))
    return std::nullopt;
  return use.getOperandNumber();
}

/// Dot operands that can skip registers and live in shared memory, in the
/// padded layout the dot reads, copied there by cp.async (emitAsyncLoad):
/// - a tile loaded k iterations ahead through a loop (the window
///   tile-pipeline-loads gives), in a ring of k + 1 stages: the loads before
///   the loop fill stages 0 to k - 1, the one in the body the stage the last
///   iteration read;
/// - a tile loaded before a loop and used inside it (attention's Q), in one
///   stage, copied once.
/// Either must reach a dot in the loop's body only through views
/// (followToDot: reshapes dropping unit dimensions, transposes; an lhs may
/// not be transposed), be padded with zeros (cp.async zero-fills), move in
/// 16-byte runs, and fit, with the others, in kAsyncSmemBudget.
void KernelEmitter::findAsyncOperands() {
  struct Candidate {
    SmallVector<LoadOp> loads; // before the loop (stages 0..), then ahead
    SmallVector<Value> values; // everything standing for the tile
    Value operand;             // what the dot takes
    bool transposed;
    scf::ForOp loop;
    int64_t stageBytes, stride, stages;
    int64_t rows, cols;    // of the tile as stored
    bool swizzled = false; // for a wgmma dot
  };
  SmallVector<Candidate> candidates;
  // The candidate for `tile` (loaded by `loads`) reaching a dot of `loop`'s
  // body, if it qualifies.
  auto consider = [&](Value tile, scf::ForOp loop, SmallVector<LoadOp> loads,
                      SmallVector<Value> values, int64_t stages) {
    std::optional<DotOperandUse> use = followToDot(tile);
    if (!use || use->dot->getBlock() != loop.getBody() ||
        (use->operand == 0 && use->transposed))
      return;
    RankedTensorType type = loads.front().getType();
    int64_t rank = type.getRank();
    int64_t bytes = elementBytes(type.getElementType());
    if ((bytes != 2 && bytes != 4) || rank < 2)
      return;
    for (LoadOp load : loads)
      if (!padsWithZeros(load) ||
          regMap(load.getResult()).vectorWidth() * bytes < 16)
        return;
    for (Operation *view : use->views)
      values.push_back(view->getResult(0));
    int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
    int64_t stride = paddedRowStride(cols, bytes);
    candidates.push_back({loads, values, use->dot->getOperand(use->operand),
                          use->transposed, loop, rows * stride * bytes, stride,
                          stages, rows, cols});
  };
  // A window of k carried tiles (tile-pipeline-loads, k iterations ahead):
  // iteration arguments a0..a(k-1), each loaded before the loop, a(j)
  // yielded as a(j-1), the load in the body yielded as a(k-1); a0 is what
  // the body uses.
  kernel.walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    auto args = loop.getRegionIterArgs();
    for (auto [i, arg] : llvm::enumerate(args)) {
      SmallVector<LoadOp> loads;
      SmallVector<Value> values;
      int64_t j = i;
      while (true) {
        auto first = loop.getInitArgs()[j].getDefiningOp<LoadOp>();
        if (!first || !first->hasOneUse() || !loop.getResult(j).use_empty())
          break;
        loads.push_back(first);
        values.append({first.getResult(), args[j], loop.getResult(j)});
        Value yielded = yield.getOperand(j);
        auto next = yielded.getDefiningOp<LoadOp>();
        if (next && next->getBlock() == loop.getBody() && next->hasOneUse()) {
          loads.push_back(next);
          values.push_back(next.getResult());
          break;
        }
        auto nextArg = dyn_cast<BlockArgument>(yielded);
        if (!nextArg || nextArg.getOwner() != loop.getBody() ||
            nextArg.getArgNumber() == 0 || !nextArg.hasOneUse())
          break;
        j = nextArg.getArgNumber() - 1; // past the induction variable
      }
      if (loads.size() < 2 || loads.back()->getBlock() != loop.getBody())
        continue;
      consider(arg, loop, loads, values, loads.size());
    }
  });
  kernel.walk([&](LoadOp load) {
    std::optional<DotOperandUse> use = followToDot(load.getResult());
    if (!use)
      return;
    auto loop = dyn_cast<scf::ForOp>(use->dot->getParentOp());
    if (!loop || load->getBlock() != loop->getBlock() ||
        !load->isBeforeInBlock(loop))
      return;
    consider(load.getResult(), loop, {load}, {load.getResult()}, 1);
  });
  // A loop's windows share one ring size: the wait at each iteration counts
  // the commit groups of the stages ahead.
  llvm::DenseMap<Operation *, int64_t> ringOf;
  llvm::erase_if(candidates, [&](const Candidate &c) {
    if (c.stages == 1)
      return false;
    return ringOf.try_emplace(c.loop, c.stages).first->second != c.stages;
  });
  // Drop candidates from the last until the stages fit.
  auto need = [&]() {
    int64_t bytes = 0;
    for (const Candidate &c : candidates)
      bytes += c.stages * c.stageBytes;
    return bytes;
  };
  while (!candidates.empty() && need() > kAsyncSmemBudget)
    candidates.pop_back();
  // On sm_90a, a dot of 16-bit operands whose rhs is a candidate, and whose
  // lhs is one too or is in the accumulator's registers, runs as wgmma,
  // each warpgroup (4 warps) taking 64-row blocks of the accumulator in
  // turn, when the instruction (N up to 256) and the 128-byte swizzle (rows
  // of 64 elements) take its shapes, and when each warpgroup's share is at
  // least a 64x64x64 product (attention at D=64, both dots; bench/NOTES.md,
  // experiments).
  // Why a dot cannot run as wgmma ("" when it can), with its staged
  // operands.
  auto whyNotWgmma = [&](DotOp dot, Candidate *&lhs,
                         Candidate *&rhs) -> std::string {
    if (!target.wgmma)
      return "wgmma needs sm_90a";
    if (numWarps % 4)
      return "wgmma needs warpgroups, a multiple of 4 warps; the kernel has " +
             std::to_string(numWarps);
    auto lhsType = cast<RankedTensorType>(dot.getLhs().getType());
    int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
    int64_t N = dot.getType().getDimSize(1), groups = numWarps / 4;
    if (elementBytes(lhsType.getElementType()) != 2)
      return "wgmma here takes 16-bit operands";
    if (M % (64 * groups) || N % 8 || N > 256)
      return "wgmma takes M a multiple of 64 per warpgroup and N a multiple "
             "of 8 up to 256";
    if (M / groups * N * K < 64 * 64 * 64)
      return "each warpgroup's share is less than a 64x64x64 product";
    for (Candidate &c : candidates) {
      if (c.operand == dot.getLhs())
        lhs = &c;
      if (c.operand == dot.getRhs())
        rhs = &c;
    }
    // Warps along M only, 16 rows each: warpgroup g owns rows 64g to
    // 64g + 63 of each 64 x warpgroups (wgmma's D fragments are
    // mma.sync's, stacked along M). tilegpu-assign-layouts gives dots of
    // wgmma's shapes that layout.
    const Layout *acc = layoutOfValue.lookup(dot.getResult());
    if (!acc || !acc->mma || acc->warpsM != numWarps)
      return "its accumulator's warps are not all along M";
    // An lhs in that layout already (FA3's P in P V) is wgmma's A from
    // registers: its fragments are mma.sync's A, warp by warp.
    bool lhsInRegisters = !lhs && layoutOfValue.lookup(dot.getLhs()) == acc;
    if (!rhs)
      return "its rhs is not staged in shared memory (a tile loaded ahead "
             "through the loop or once before it, zero-padded, in 16-byte "
             "runs, within the shared memory budget)";
    if (!lhs && !lhsInRegisters)
      return "its lhs is neither staged in shared memory nor in the "
             "accumulator's layout";
    if (lhs == rhs)
      return "its lhs and rhs are one tile";
    if ((lhs && (lhs->cols % 64 || lhs->rows % 8)) || rhs->cols % 64 ||
        rhs->rows % 8)
      return "the 128-byte swizzle needs staged tiles of rows of 64 "
             "elements, a multiple of 8 rows";
    return "";
  };
  kernel.walk([&](DotOp dot) {
    Candidate *lhs = nullptr, *rhs = nullptr;
    std::string why = whyNotWgmma(dot, lhs, rhs);
    if (remarks)
      dot.emitRemark() << (why.empty() ? "runs as wgmma"
                                       : "runs on mma.sync: " + why);
    if (!why.empty())
      return;
    for (Candidate *c : {lhs, rhs}) {
      if (!c)
        continue;
      c->swizzled = true;
      c->stageBytes = c->rows * c->cols * 2;
    }
    wgmmaDots.insert(dot);
  });
  for (const Candidate &c : candidates) {
    if (c.swizzled)
      asyncSmemBytes = llvm::alignTo(asyncSmemBytes, kSwizzleAtomBytes);
    asyncOperands.push_back({asyncSmemBytes, c.stageBytes, c.stride, c.stages,
                             c.swizzled ? c.rows : 0});
    asyncSmemBytes += c.stages * c.stageBytes;
    const AsyncOperand *operand = &asyncOperands.back();
    int64_t before = c.stages == 1 ? 1 : c.stages - 1;
    for (auto [i, load] : llvm::enumerate(c.loads))
      asyncLoads[load] = {operand, int64_t(i) < before ? int64_t(i) : -1};
    for (Value v : c.values)
      asyncValues[v] = operand;
    if (c.transposed)
      asyncTransposed.insert(c.operand);
    AsyncLoop &loop = asyncLoops[c.loop];
    loop.stages = std::max(loop.stages, c.stages);
    if (c.stages > 1)
      ++loop.groups;
  }
  if (remarks)
    for (auto &[op, loop] : asyncLoops) {
      int64_t operands = 0, bytes = 0;
      for (const AsyncOperand &operand : asyncOperands)
        for (auto &[load, at] : asyncLoads)
          if (at.operand == &operand && load->getParentOp() == op) {
            ++operands;
            bytes += operand.stages * operand.stageBytes;
            break;
          }
      op->emitRemark() << "dot operands staged in shared memory by cp.async: "
                       << operands << " in " << loop.stages << " stages ("
                       << bytes << " bytes)";
    }
  // A loop's first wgmma dot: the copies ahead go after its issue. When its
  // result only feeds itself in the next iteration (matmul's accumulator),
  // its group may stay in flight until then.
  for (auto &[op, loop] : asyncLoops) {
    auto forOp = cast<scf::ForOp>(op);
    for (Operation &inner : *forOp.getBody()) {
      auto dot = dyn_cast<DotOp>(inner);
      if (!dot || !wgmmaDots.contains(dot))
        continue;
      loop.wgmmaDot = dot;
      auto acc = dyn_cast<BlockArgument>(dot.getAcc());
      std::optional<unsigned> yielded = onlyYielded(dot.getResult());
      // An A from registers must stay unchanged until its group completes.
      loop.accInFlight = asyncValues.count(dot.getLhs()) && acc &&
                         acc.getOwner() == forOp.getBody() && acc.hasOneUse() &&
                         yielded && *yielded + 1 == acc.getArgNumber();
      break;
    }
  }
}

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

/// A dot on tensor cores. The operands go to shared memory row-major, A as
/// [M][K] and B as [K][N] (or [N][K] where its async stage holds it
/// transposed), read into fragments by ldmatrix (.trans for a [K][N] B);
/// then every warp runs mma.sync over its 16x8 tiles of the accumulator,
/// which is in the mma layout: m16n8k16 for f16/bf16, m16n8k8 for f32
/// rounded to tf32.
LogicalResult KernelEmitter::emitDot(DotOp op) {
  if (wgmmaDots.contains(op))
    return emitWgmmaDot(op);
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  Type elem = lhsType.getElementType();
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = op.getType().getDimSize(1);
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
  // [K][N], rows padded (paddedRowStride). An async operand is there
  // already (its stage of this iteration); the others are staged from
  // registers, each thread storing its contiguous runs as vectors of up to
  // 16 bytes, between two barriers.
  int64_t bytes = elementBytes(elem);
  struct Operand {
    Value tile;
    int64_t rows, cols, stride;
    Value base;          // !llvm.ptr<3> at element [0][0]
    bool nMajor = false; // B stored as [N][K] (an async transposed rhs)
  };
  Operand ops[2] = {{op.getLhs(), M, K, paddedRowStride(K, bytes), {}},
                    {op.getRhs(), K, N, paddedRowStride(N, bytes), {}}};
  // An f16/bf16 lhs in the accumulator's own mma layout, its warps along M
  // only, is its own A fragments (FA2's P): registers c0..c3 of N blocks 2k
  // and 2k+1 are a0..a7 of K step k. It needs no shared memory.
  bool lhsInRegisters = !tf32 && l.mma && l.warpsN == 1 &&
                        layoutOfValue.lookup(op.getLhs()) == acc.layout;
  int64_t stagedElems = 0;
  bool anyAsync = false;
  for (Operand &o : ops) {
    if (asyncValues.count(o.tile))
      anyAsync = true;
    else if (!(lhsInRegisters && o.tile == op.getLhs()))
      stagedElems += o.rows * o.stride;
  }
  if (anyAsync)
    waitForAsyncStage();
  if (stagedElems) {
    gpu::BarrierOp::create(b, loc());
    Value buf = sharedBuffer(stagedElems * bytes);
    int64_t offset = 0;
    for (Operand &o : ops) {
      if (asyncValues.count(o.tile) ||
          (lhsInRegisters && o.tile == op.getLhs()))
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
    auto it = asyncValues.find(o.tile);
    if (it == asyncValues.end())
      continue;
    const AsyncOperand &async = *it->second;
    o.base = asyncReadStagePtr(async);
    o.stride = async.stride;
    o.nMajor = asyncTransposed.contains(o.tile);
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

/// wgmma m64nNk16 with A from registers, which nvvm.wgmma.mma_async (A by
/// descriptor only) does not take: the instruction as inline asm and its
/// constraints. Operands: the N/2 accumulator registers (outputs, tied to
/// the same inputs), A's four b32 fragments, B's descriptor.
static std::pair<std::string, std::string>
registerAWgmmaAsm(int64_t N, Type elem, bool transB) {
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  int64_t n = N / 2;
  const char *type = elem.isBF16() ? "bf16" : "f16";
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << N << "k16.f32." << type << "."
     << type << " {";
  for (int64_t r = 0; r < n; ++r)
    os << (r ? ", $" : "$") << r;
  os << "}, {$" << 2 * n << ", $" << 2 * n + 1 << ", $" << 2 * n + 2 << ", $"
     << 2 * n + 3 << "}, $" << 2 * n + 4 << ", p, 1, 1, " << (transB ? 1 : 0)
     << ";\n}\n";
  for (int64_t r = 0; r < n; ++r)
    cs << "=f,";
  for (int64_t r = 0; r < n; ++r)
    cs << r << ",";
  cs << "r,r,r,r,l";
  return {text, constraints};
}

/// A dot as wgmma (sm_90a): B in its swizzled stages (findAsyncOperands),
/// read by the tensor cores through a matrix descriptor, A likewise or from
/// registers in the accumulator's layout; per 16-deep K step, each
/// warpgroup runs one m64nNk16 for each of its 64-row blocks of the
/// accumulator. The loop's first wgmma dot then issues the copies ahead
/// (emitDeferredAsyncLoads). The group is waited for before returning,
/// unless its result only goes round the loop: the loop's first dot
/// (accInFlight) leaves it in flight into the next iteration, a later one
/// waits for it at the end of the body (emitFor).
LogicalResult KernelEmitter::emitWgmmaDot(DotOp op) {
  MLIRContext *ctx = b.getContext();
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  Type elem = lhsType.getElementType();
  int64_t M = lhsType.getDimSize(0), K = lhsType.getDimSize(1);
  int64_t N = op.getType().getDimSize(1);
  RegMap acc = regMap(op.getResult());
  waitForAsyncStage();
  const AsyncOperand *opA = asyncValues.lookup(op.getLhs()); // null: registers
  const AsyncOperand &opB = *asyncValues.lookup(op.getRhs());
  bool bKMajor = asyncTransposed.contains(op.getRhs()); // stored [N][K]
  // Start address, leading and stride byte offsets, each in 16-byte units,
  // and the 128-byte swizzle (mode 1, bits 62-63). Only the low word (start
  // and LBO) varies: it is computed in 32 bits and paired with the constant
  // high word. With the warp index uniform (emit), CUDA 13.0's ptxas folded
  // a 64-bit add of the whole descriptor into its uniform datapath and
  // dropped the high word (wrong results; bench/NOTES.md, experiments).
  // The start moves by constants per instruction: stages lie within the
  // 256 KiB its 14 bits address.
  Type i32Type = b.getI32Type();
  auto lowWord = [&](const AsyncOperand &o, int64_t lbo) {
    Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI64Type(),
                                          asyncReadStagePtr(o));
    Value start = arith::TruncIOp::create(
        b, loc(), i32Type,
        arith::ShRUIOp::create(
            b, loc(), addr,
            arith::ConstantOp::create(b, loc(), b.getI64IntegerAttr(4))));
    start = arith::AndIOp::create(b, loc(), start, i32(0x3FFF));
    return Value(arith::OrIOp::create(b, loc(), start,
                                      i32((int64_t(lbo >> 4) & 0x3FFF) << 16)));
  };
  // The high word, SBO and the swizzle mode: the same for A and B.
  const int64_t high = (int64_t(kSwizzleAtomBytes >> 4) & 0x3FFF) | int64_t(1)
                                                                        << 30;
  auto descriptor = [&](Value low) {
    auto pair = VectorType::get({2}, i32Type);
    Value v = LLVM::PoisonOp::create(b, loc(), pair);
    v = LLVM::InsertElementOp::create(b, loc(), v, low, i32(0));
    v = LLVM::InsertElementOp::create(b, loc(), v, i32(high), i32(1));
    return Value(LLVM::BitcastOp::create(b, loc(), b.getI64Type(), v));
  };
  // K-major operands ([rows][K], 64-element column blocks): successive
  // 8-row core matrices 1024 bytes apart (SBO); a K step of 16 is 32 bytes
  // into the swizzled row, or the next column block. An N-major B ([K][N]):
  // K steps of 16 rows, 2048 bytes; N blocks of 64 one column block apart
  // (LBO).
  auto kMajorStep = [&](const AsyncOperand &o, int64_t k) {
    return (k / 64) * o.swizzledRows * 128 + (k % 64) * 2;
  };
  // Warpgroup g starts at row 64g of A: 64 rows of 128 bytes further.
  int64_t groups = numWarps / 4;
  Value group = arith::IndexCastOp::create(
      b, loc(), i32Type, arith::DivUIOp::create(b, loc(), warpId, idx(4)));
  Value lowA =
      opA ? Value(arith::AddIOp::create(
                b, loc(), lowWord(*opA, 16),
                arith::MulIOp::create(b, loc(), group, i32(64 * 128 >> 4))))
          : Value();
  Value lowB = lowWord(opB, bKMajor ? 16 : opB.swizzledRows * 128);
  auto plus = [&](Value low, int64_t bytes) {
    if (bytes)
      low = arith::AddIOp::create(b, loc(), low, i32(bytes >> 4));
    return descriptor(low);
  };
  auto wgmmaType = [&](Type t) {
    return NVVM::WGMMATypesAttr::get(ctx, t.isBF16() ? NVVM::WGMMATypes::bf16
                                                     : NVVM::WGMMATypes::f16);
  };

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
  for (int64_t k = 0; k < K; k += 16)
    for (int64_t m = 0; m < blocksM; ++m) {
      Value bDesc = plus(lowB, bKMajor ? kMajorStep(opB, k) : k * 128);
      if (!opA) {
        SmallVector<Value> operands;
        for (int64_t r = 0; r < N / 2; ++r)
          operands.push_back(
              LLVM::ExtractValueOp::create(b, loc(), blocks[m], r));
        for (Value pair : accumulatorAFragment(op.getLhs(), m, k))
          operands.push_back(LLVM::BitcastOp::create(b, loc(), i32Type, pair));
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
      Value a = plus(lowA, kMajorStep(*opA, k) + m * groups * 64 * 128);
      blocks[m] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc(), structType, blocks[m], a, bDesc,
          NVVM::MMAShapeAttr::get(ctx, 64, N, 16), wgmmaType(elem),
          wgmmaType(elem),
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
  // The loop's copies ahead, held back (emitLoad), go out while the group
  // runs. They refill the stage the last iteration's group read: when that
  // group may still be in flight (accInFlight), every warpgroup waits for
  // it first.
  bool loopDot = currentAsyncLoop && currentAsyncLoop->wgmmaDot == op;
  bool inFlight = loopDot && currentAsyncLoop->accInFlight;
  if (inFlight) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 1);
    if (!deferredAsyncLoads.empty())
      gpu::BarrierOp::create(b, loc());
  }
  if (loopDot)
    emitDeferredAsyncLoads();
  // A later dot of a loop body whose result is only yielded (attention's
  // P V into acc) is waited for at the end of the body (emitFor): what
  // comes between (the row sums) runs while the group does, and nothing
  // reads its registers before the wait.
  if (!loopDot && onlyYielded(op.getResult()))
    wgmmaWaitAtYield = true;
  else if (!inFlight)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
  for (int64_t m = 0; m < blocksM; ++m)
    for (int64_t r = 0; r < N / 2; ++r)
      out[m * repsN * 4 + r] =
          LLVM::ExtractValueOp::create(b, loc(), blocks[m], r);
  tiles[op.getResult()] = out;
  return success();
}
