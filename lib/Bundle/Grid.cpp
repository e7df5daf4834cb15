//===- Grid.cpp - evaluating a kernel's grid program ----------------------===//
//
// The semantics are those of the arith ops the program was serialized from,
// at each value's bit width: results wrap to `bits` (kept sign-extended),
// unsigned ops read their operands zero-extended. What arith leaves
// undefined (division by zero, INT_MIN / -1) is an error here.
//
//===----------------------------------------------------------------------===//
#include "tilegym/Bundle/Bundle.h"

#include <algorithm>
#include <sstream>

using namespace tilegym;
using namespace tilegym::bundle;

static uint64_t mask(int bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

/// `v` truncated to `bits` and sign-extended back to 64 bits.
static int64_t wrap(uint64_t v, int bits) {
  uint64_t m = mask(bits);
  v &= m;
  if (bits < 64 && ((v >> (bits - 1)) & 1))
    v |= ~m;
  return int64_t(v);
}

static uint64_t zext(int64_t v, int bits) { return uint64_t(v) & mask(bits); }

static int64_t minSigned(int bits) {
  return wrap(uint64_t(1) << (bits - 1), bits);
}

namespace {
struct Evaluator {
  const KernelInfo &kernel;
  const tg_arg *args;
  std::vector<int64_t> &values;
  std::string error;

  bool fail(size_t index, const std::string &what) {
    std::ostringstream os;
    os << "kernel '" << kernel.name << "': grid op %" << index << " ("
       << kernel.grid.ops[index].name << "): " << what;
    error = os.str();
    return false;
  }

  /// The operands of a binary op or a compare, both read at the lhs's width
  /// (arith's operands share one type; a manifest may disagree), signed and
  /// zero-extended: a division's checks then see the very values divided,
  /// and a divisor zero only at that width (65536 as 16 bits) is caught
  /// instead of trapping.
  struct Operands {
    int w;
    int64_t a, b;
    uint64_t ua, ub;
  };
  Operands operandsOf(const GridOp &op) const {
    int w = kernel.grid.ops[op.lhs].bits;
    int64_t a = wrap(uint64_t(values[op.lhs]), w),
            b = wrap(uint64_t(values[op.rhs]), w);
    return {w, a, b, zext(a, w), zext(b, w)};
  }

  bool binary(size_t i, const GridOp &op, int64_t &out) {
    auto [w, a, b, ua, ub] = operandsOf(op);
    const std::string &n = op.name;
    bool isDivision = n == "divsi" || n == "divui" || n == "remsi" ||
                      n == "remui" || n == "ceildivsi" || n == "floordivsi";
    if (isDivision && b == 0)
      return fail(i, "division by zero");
    bool isSignedDivision =
        n == "divsi" || n == "ceildivsi" || n == "floordivsi";
    if (isSignedDivision && a == minSigned(w) && b == -1)
      return fail(i, "signed division overflows");
    uint64_t r;
    if (n == "addi")
      r = uint64_t(a) + uint64_t(b);
    else if (n == "subi")
      r = uint64_t(a) - uint64_t(b);
    else if (n == "muli")
      r = uint64_t(a) * uint64_t(b);
    else if (n == "divsi")
      r = uint64_t(a / b);
    else if (n == "divui")
      r = ua / ub;
    else if (n == "remsi")
      r = b == -1 ? 0 : uint64_t(a % b);
    else if (n == "remui")
      r = ua % ub;
    else if (n == "ceildivsi")
      r = uint64_t(a / b + (a % b != 0 && (a < 0) == (b < 0)));
    else if (n == "floordivsi")
      r = uint64_t(a / b - (a % b != 0 && (a < 0) != (b < 0)));
    else if (n == "maxsi")
      r = uint64_t(std::max(a, b));
    else if (n == "minsi")
      r = uint64_t(std::min(a, b));
    else if (n == "maxui")
      r = std::max(ua, ub);
    else if (n == "minui")
      r = std::min(ua, ub);
    else if (n == "andi")
      r = uint64_t(a) & uint64_t(b);
    else if (n == "ori")
      r = uint64_t(a) | uint64_t(b);
    else if (n == "xori")
      r = uint64_t(a) ^ uint64_t(b);
    else { // cdiv: tile.cdiv is defined for lhs >= 0, rhs > 0.
      if (a < 0 || b <= 0)
        return fail(i, "cdiv(" + std::to_string(a) + ", " + std::to_string(b) +
                           ") needs lhs >= 0 and rhs > 0");
      r = uint64_t(a / b + (a % b != 0));
    }
    out = wrap(r, op.bits);
    return true;
  }

  bool compare(const GridOp &op) {
    auto [w, a, b, ua, ub] = operandsOf(op);
    const std::string &p = op.predicate;
    if (p == "eq")
      return a == b;
    if (p == "ne")
      return a != b;
    if (p == "slt")
      return a < b;
    if (p == "sle")
      return a <= b;
    if (p == "sgt")
      return a > b;
    if (p == "sge")
      return a >= b;
    if (p == "ult")
      return ua < ub;
    if (p == "ule")
      return ua <= ub;
    if (p == "ugt")
      return ua > ub;
    return ua >= ub; // uge: predicates were validated at load.
  }

  bool view(size_t i, const GridOp &op, int64_t &size) {
    const tg_arg &a = args[op.arg];
    if (a.kind != TG_ARG_VIEW || a.rank <= op.axis)
      return fail(i, "argument " + std::to_string(op.arg + 1) +
                         " is not a view of rank > " + std::to_string(op.axis));
    size = a.sizes[op.axis];
    return true;
  }

  bool run() {
    for (size_t i = 0; i < kernel.grid.ops.size(); ++i) {
      const GridOp &op = kernel.grid.ops[i];
      int64_t v = 0;
      switch (op.kind) {
      case GridOp::Kind::Arg:
        if (args[op.arg].kind != TG_ARG_SCALAR)
          return fail(i, "argument " + std::to_string(op.arg + 1) +
                             " is not a scalar");
        v = wrap(uint64_t(args[op.arg].int_value), op.bits);
        break;
      case GridOp::Kind::Dim:
        if (!view(i, op, v))
          return false;
        break;
      case GridOp::Kind::NumTiles: {
        int64_t size;
        if (!view(i, op, size))
          return false;
        if (size < 0)
          return fail(i, "negative size " + std::to_string(size));
        v = size / op.value + (size % op.value != 0);
        break;
      }
      case GridOp::Kind::Const:
        v = wrap(uint64_t(op.value), op.bits);
        break;
      case GridOp::Kind::Binary:
        if (!binary(i, op, v))
          return false;
        break;
      case GridOp::Kind::Cmpi:
        v = compare(op) ? -1 : 0; // i1 true, sign-extended.
        break;
      case GridOp::Kind::Select:
        v = values[op.cond] ? values[op.lhs] : values[op.rhs];
        break;
      case GridOp::Kind::Cast: {
        int w = kernel.grid.ops[op.lhs].bits;
        uint64_t src =
            op.isSigned ? uint64_t(values[op.lhs]) : zext(values[op.lhs], w);
        v = wrap(src, op.bits);
        break;
      }
      }
      values.push_back(v);
    }
    return true;
  }
};
} // namespace

bool bundle::evaluateGrid(const KernelInfo &kernel, const tg_arg *args,
                          size_t numArgs, std::array<int64_t, 3> &grid,
                          std::string &error) {
  if (numArgs != kernel.params.size()) {
    error = "kernel '" + kernel.name + "': expected " +
            std::to_string(kernel.params.size()) + " arguments, got " +
            std::to_string(numArgs);
    return false;
  }
  // Reused across launches on a thread: evaluating a grid allocates nothing
  // once the thread has seen a program this long.
  thread_local std::vector<int64_t> values;
  values.clear();
  Evaluator eval{kernel, args, values, {}};
  if (!eval.run()) {
    error = eval.error;
    return false;
  }
  for (int d = 0; d < 3; ++d)
    grid[d] = eval.values[kernel.grid.results[d]];
  std::string limit;
  if (!runtime::checkGridLimits(grid.data(), limit)) {
    error = "kernel '" + kernel.name + "': " + limit;
    return false;
  }
  // A persistent kernel walks its tiles with 32-bit indices, each block
  // stepping by the launched count: the count and a step past it must fit.
  if (kernel.persistentBlocksPerSM > 0 &&
      uint64_t(grid[0]) * uint64_t(grid[1]) * uint64_t(grid[2]) >
          kMaxPersistentTiles) {
    error = "kernel '" + kernel.name + "': a persistent grid of " +
            std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" +
            std::to_string(grid[2]) + " tiles, more than the " +
            std::to_string(kMaxPersistentTiles) +
            " its blocks walk with 32-bit indices";
    return false;
  }
  return true;
}

int bundle::persistentBlocksPerSM(const KernelInfo &kernel, int residentPerSM) {
  if (kernel.persistentBlocksPerSM <= 0)
    return 0;
  if (residentPerSM <= 0)
    return kernel.persistentBlocksPerSM;
  return int(std::min<int64_t>(kernel.persistentBlocksPerSM, residentPerSM));
}

LaunchShape bundle::launchShapeOf(const KernelInfo &kernel, tg_dim3 grid,
                                  int multiprocessors, int residentPerSM,
                                  int activeClusters) {
  uint32_t n = uint32_t(std::max<int64_t>(kernel.clusterBlocks, 1));
  bool clustered = n > 1 && activeClusters > 0 && grid.y % n == 0;
  int perSM = persistentBlocksPerSM(kernel, residentPerSM);
  if (perSM <= 0)
    return clustered ? LaunchShape{grid, {1, n, 1}} : LaunchShape{grid};
  uint64_t tiles = uint64_t(grid.x) * grid.y * grid.z;
  uint64_t resident = uint64_t(std::max(multiprocessors, 1)) * perSM;
  if (clustered) {
    // Whole clusters, no more than run at once; the tiles are whole
    // clusters' too (a multiple of n rows).
    uint64_t blocks = std::min(resident, uint64_t(activeClusters) * n) / n * n;
    if (blocks)
      return {{uint32_t(std::min(tiles, blocks)), 1, 1}, {n, 1, 1}};
  }
  return {{uint32_t(std::min(tiles, resident)), 1, 1}};
}

std::string bundle::formatGridProgram(const GridProgram &program) {
  std::ostringstream os;
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const GridOp &op = program.ops[i];
    os << (i ? "; " : "") << "%" << i << " = " << op.name;
    switch (op.kind) {
    case GridOp::Kind::Arg:
      os << " arg" << op.arg;
      break;
    case GridOp::Kind::Dim:
      os << " arg" << op.arg << "[" << op.axis << "]";
      break;
    case GridOp::Kind::NumTiles:
      os << " arg" << op.arg << "[" << op.axis << "] by " << op.value;
      break;
    case GridOp::Kind::Const:
      os << " " << op.value;
      break;
    case GridOp::Kind::Binary:
      os << " %" << op.lhs << ", %" << op.rhs;
      break;
    case GridOp::Kind::Cmpi:
      os << " " << op.predicate << " %" << op.lhs << ", %" << op.rhs;
      break;
    case GridOp::Kind::Select:
      os << " %" << op.cond << ", %" << op.lhs << ", %" << op.rhs;
      break;
    case GridOp::Kind::Cast:
      os << (op.isSigned ? " signed" : " unsigned") << " %" << op.lhs;
      break;
    }
    if (op.bits != 64)
      os << " : i" << op.bits;
  }
  os << " -> (%" << program.results[0] << ", %" << program.results[1] << ", %"
     << program.results[2] << ")";
  return os.str();
}
