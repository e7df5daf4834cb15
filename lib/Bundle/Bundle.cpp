//===- Bundle.cpp - reading and validating kernel bundles -----------------===//
#include "tilegym/Bundle/Bundle.h"
#include "ManifestReader.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>

using namespace tilegym;
using namespace tilegym::bundle;
using json::Value;
using namespace tilegym::bundle::detail;

const KernelInfo *Bundle::findKernel(const std::string &name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

const ProgramInfo *Bundle::findProgram(const std::string &name) const {
  for (const ProgramInfo &p : programs)
    if (p.name == name)
      return &p;
  return nullptr;
}

bool Bundle::resolveKernels(const std::string &name,
                            std::vector<const KernelInfo *> &picked,
                            std::string &error) const {
  std::vector<std::string> kernelNames, names;
  for (const KernelInfo &k : kernels)
    kernelNames.push_back(k.name);
  std::vector<runtime::NamedProgram> named;
  for (const ProgramInfo &p : programs)
    named.push_back({p.name, p.kernels});
  if (!runtime::resolveKernelNames(name, kernelNames, named, dir, names, error))
    return false;
  picked.clear();
  for (const std::string &n : names)
    picked.push_back(findKernel(n));
  return true;
}

bool detail::readFile(const std::string &path, std::string &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  bytes = ss.str();
  return bool(in) || in.eof();
}

bool detail::isRegularFile(const std::string &path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string detail::printable(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += char(c);
      continue;
    }
    static const char hex[] = "0123456789abcdef";
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

bool detail::isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool detail::isFolderNotLink(const std::string &path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

static bool isIntegerDType(tg_dtype d) {
  return d == TG_I1 || d == TG_I8 || d == TG_I32 || d == TG_I64;
}

bool detail::parseTarget(const std::string &target, int &cc,
                         bool &archSpecific) {
  if (target.rfind("sm_", 0) != 0 || target.size() < 5)
    return false;
  std::string digits = target.substr(3);
  archSpecific = digits.back() == 'a';
  if (archSpecific)
    digits.pop_back();
  if (digits.empty() || digits.size() > 4 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  cc = std::stoi(digits);
  return cc >= 10;
}

bool detail::isPlainFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_.-") == std::string::npos;
}

bool ManifestReader::readFileName(const Value &object, const std::string &where,
                                  const std::string &key, std::string &path,
                                  bool optional) {
  std::string name;
  if (!stringMember(object, where, key, name, optional))
    return false;
  if (name.empty() && optional && !object.get(key))
    return true;
  // Files live in the bundle folder itself: a manifest must not reach out.
  // Names are what the writer produces (kernel symbols plus an extension),
  // so anything but [A-Za-z0-9_.-] is refused, NUL and '/' included.
  if (!isPlainFileName(name))
    return fail(where + "." + key,
                "\"" + printable(name) +
                    "\" must be a plain file name inside the bundle "
                    "([A-Za-z0-9_.-])");
  path = dir + "/" + name;
  if (checkFiles && !isRegularFile(path))
    return fail(where + "." + key,
                "file " + path + " does not exist or is not a regular file");
  return true;
}

bool ManifestReader::readParam(const Value &v, const std::string &where,
                               runtime::Param &param) {
  if (!v.isObject())
    return fail(where, std::string("expected an object, got ") +
                           json::kindName(v.kind()));
  std::string kind, dtype;
  if (!stringMember(v, where, "kind", kind) ||
      !stringMember(v, where, "dtype", dtype) ||
      !stringMember(v, where, "name", param.name, /*optional=*/true))
    return false;
  std::optional<tg_dtype> parsed = runtime::parseDType(dtype);
  if (!parsed)
    return fail(where + ".dtype", "unknown dtype \"" + dtype + "\"");
  param.dtype = *parsed;
  if (kind == "scalar") {
    param.kind = TG_ARG_SCALAR;
    if (!stringMember(v, where, "default", param.defaultValue,
                      /*optional=*/true))
      return false;
    tg_arg value;
    std::string error;
    if (v.get("default") &&
        !runtime::parseScalar(param.dtype, param.defaultValue, value, error))
      return fail(where + ".default", error);
    return true;
  }
  if (kind != "view")
    return fail(where + ".kind",
                "expected \"view\" or \"scalar\", got \"" + kind + "\"");
  param.kind = TG_ARG_VIEW;
  int64_t rank;
  const Value *sizes;
  if (!intMember(v, where, "rank", 0, TG_MAX_RANK, rank) ||
      !member(v, where, "sizes", Value::Kind::Array, sizes))
    return false;
  if (int64_t(sizes->asArray().size()) != rank)
    return fail(where + ".sizes",
                "has " + std::to_string(sizes->asArray().size()) +
                    " entries for rank " + std::to_string(rank));
  for (const Value &s : sizes->asArray()) {
    if (!s.isInt() || s.asInt() < TG_DYNAMIC)
      return fail(where + ".sizes",
                  "sizes must be integers >= 0, or -1 for dynamic");
    param.sizes.push_back(s.asInt());
  }
  const Value *dims;
  if (!member(v, where, "dims", Value::Kind::Array, dims, /*optional=*/true))
    return false;
  if (dims) {
    if (int64_t(dims->asArray().size()) != rank)
      return fail(where + ".dims",
                  "has " + std::to_string(dims->asArray().size()) +
                      " entries for rank " + std::to_string(rank));
    for (const Value &d : dims->asArray()) {
      if (!d.isString() ||
          (!d.asString().empty() && !isSymbolName(d.asString())))
        return fail(where + ".dims", "entries must be \"\" or identifiers");
      param.dims.push_back(d.asString());
    }
  }
  std::string access = "readwrite";
  if (!stringMember(v, where, "access", access, /*optional=*/true))
    return false;
  if (access != "read" && access != "write" && access != "readwrite" &&
      access != "none")
    return fail(where + ".access", "expected \"read\", \"write\", "
                                   "\"readwrite\" or \"none\", got \"" +
                                       access + "\"");
  param.read = access == "read" || access == "readwrite";
  param.written = access == "write" || access == "readwrite";
  return true;
}

static const std::set<std::string> kBinaryOps = {
    "addi",  "subi",      "muli",       "divsi", "divui", "remsi",
    "remui", "ceildivsi", "floordivsi", "maxsi", "minsi", "maxui",
    "minui", "andi",      "ori",        "xori",  "cdiv"};
static const std::set<std::string> kPredicates = {
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};

bool ManifestReader::readGridOp(const Value &v, const std::string &where,
                                size_t index,
                                const std::vector<runtime::Param> &params,
                                GridOp &op) {
  if (!v.isObject())
    return fail(where, std::string("expected an object, got ") +
                           json::kindName(v.kind()));
  if (!stringMember(v, where, "op", op.name))
    return false;
  int64_t bits = 64;
  if (!intMember(v, where, "bits", 1, 64, bits, /*optional=*/true))
    return false;
  op.bits = int(bits);
  const int64_t maxParam = int64_t(params.size()) - 1;
  // An operand names an earlier op: the program is in SSA order.
  auto operand = [&](const char *key, int64_t &out) {
    return intMember(v, where, key, 0, int64_t(index) - 1, out);
  };
  auto viewParam = [&]() {
    if (!intMember(v, where, "arg", 0, maxParam, op.arg))
      return false;
    const runtime::Param &p = params[op.arg];
    if (p.kind != TG_ARG_VIEW)
      return fail(where + ".arg", "parameter " + std::to_string(op.arg) +
                                      " is a scalar, not a view");
    return intMember(v, where, "axis", 0, int64_t(p.sizes.size()) - 1, op.axis);
  };

  if (op.name == "arg") {
    op.kind = GridOp::Kind::Arg;
    if (!intMember(v, where, "arg", 0, maxParam, op.arg))
      return false;
    const runtime::Param &p = params[op.arg];
    if (p.kind != TG_ARG_SCALAR || !isIntegerDType(p.dtype))
      return fail(where + ".arg", "parameter " + std::to_string(op.arg) +
                                      " is not an integer scalar");
    return true;
  }
  if (op.name == "dim") {
    op.kind = GridOp::Kind::Dim;
    return viewParam();
  }
  if (op.name == "num_tiles") {
    op.kind = GridOp::Kind::NumTiles;
    return viewParam() && intMember(v, where, "tile", 1, INT64_MAX, op.value);
  }
  if (op.name == "const") {
    op.kind = GridOp::Kind::Const;
    return intMember(v, where, "value", INT64_MIN, INT64_MAX, op.value);
  }
  if (kBinaryOps.count(op.name)) {
    op.kind = GridOp::Kind::Binary;
    return operand("lhs", op.lhs) && operand("rhs", op.rhs);
  }
  if (op.name == "cmpi") {
    op.kind = GridOp::Kind::Cmpi;
    op.bits = 1;
    if (!stringMember(v, where, "predicate", op.predicate))
      return false;
    if (!kPredicates.count(op.predicate))
      return fail(where + ".predicate",
                  "unknown predicate \"" + op.predicate + "\"");
    return operand("lhs", op.lhs) && operand("rhs", op.rhs);
  }
  if (op.name == "select") {
    op.kind = GridOp::Kind::Select;
    return operand("cond", op.cond) && operand("lhs", op.lhs) &&
           operand("rhs", op.rhs);
  }
  if (op.name == "cast") {
    op.kind = GridOp::Kind::Cast;
    const Value *isSigned;
    if (!member(v, where, "signed", Value::Kind::Bool, isSigned))
      return false;
    op.isSigned = isSigned->asBool();
    return operand("lhs", op.lhs);
  }
  return fail(where + ".op", "unknown grid op \"" + op.name + "\"");
}

/// A tensor map: {"param": view parameter, "box": one size in [1, 256] per
/// dimension of that view, "swizzle": 128}; the innermost box dimension
/// 128 bytes (one row of the swizzle).
bool ManifestReader::readTensorMap(const Value &v, const std::string &where,
                                   const std::vector<runtime::Param> &params,
                                   std::vector<runtime::TensorMap> &maps) {
  if (!v.isObject())
    return fail(where, std::string("expected an object, got ") +
                           json::kindName(v.kind()));
  runtime::TensorMap map;
  int64_t param = 0;
  const Value *box;
  if (!intMember(v, where, "param", 0, int64_t(params.size()) - 1, param) ||
      !member(v, where, "box", Value::Kind::Array, box) ||
      !intMember(v, where, "swizzle", 128, 128, map.swizzle))
    return false;
  const runtime::Param &p = params[size_t(param)];
  if (p.kind != TG_ARG_VIEW)
    return fail(where + ".param",
                "parameter " + std::to_string(param) + " is not a view");
  const auto &sizes = box->asArray();
  if (sizes.size() != p.sizes.size())
    return fail(where + ".box", "expected " + std::to_string(p.sizes.size()) +
                                    " sizes, one per dimension of parameter " +
                                    std::to_string(param));
  for (const Value &s : sizes) {
    if (!s.isInt() || s.asInt() < 1 || s.asInt() > runtime::kMaxTensorMapBox)
      return fail(where + ".box",
                  "sizes must be integers in [1, " +
                      std::to_string(runtime::kMaxTensorMapBox) + "]");
    map.box.push_back(s.asInt());
  }
  if (uint64_t(map.box.back()) * runtime::dtypeSize(p.dtype) != 128)
    return fail(where + ".box", "the innermost size must span 128 bytes");
  map.param = size_t(param);
  maps.push_back(std::move(map));
  return true;
}

bool ManifestReader::readKernel(const Value &v, const std::string &where,
                                KernelInfo &k) {
  if (!v.isObject())
    return fail(where, std::string("expected an object, got ") +
                           json::kindName(v.kind()));
  int64_t shared = 0;
  const Value *block, *params, *grid;
  if (!stringMember(v, where, "name", k.name) ||
      !stringMember(v, where, "entry", k.entry) ||
      !intMember(v, where, "num_warps", 1, 32, k.numWarps) ||
      !member(v, where, "block", Value::Kind::Array, block) ||
      !intMember(v, where, "shared_bytes", 0, kMaxSharedBytes, shared) ||
      !readFileName(v, where, "ptx", k.ptxFile, /*optional=*/false) ||
      !readFileName(v, where, "cubin", k.cubinFile, /*optional=*/true) ||
      !member(v, where, "params", Value::Kind::Array, params) ||
      !member(v, where, "grid", Value::Kind::Object, grid))
    return false;
  if (k.numWarps & (k.numWarps - 1))
    return fail(where + ".num_warps",
                std::to_string(k.numWarps) + " is not a power of two");
  if (!intMember(v, where, "producer_warps", 0, 32 - k.numWarps,
                 k.producerWarps, /*optional=*/true) ||
      !intMember(v, where, "persistent_blocks_per_sm", 0, 32,
                 k.persistentBlocksPerSM, /*optional=*/true) ||
      !intMember(v, where, "cluster_blocks", 1, 8, k.clusterBlocks,
                 /*optional=*/true))
    return false;
  if (!isSymbolName(k.name) || !isSymbolName(k.entry))
    return fail(where, "kernel name and entry must be identifiers "
                       "([A-Za-z_][A-Za-z0-9_]*)");
  k.sharedBytes = uint32_t(shared);

  // The block is implied by num_warps and producer_warps; it is in the
  // manifest for readers, so it must agree.
  const auto &b = block->asArray();
  int64_t threads = (k.numWarps + k.producerWarps) * 32;
  if (b.size() != 3 || !b[0].isInt() || !b[1].isInt() || !b[2].isInt() ||
      b[0].asInt() != threads || b[1].asInt() != 1 || b[2].asInt() != 1)
    return fail(where + ".block",
                "expected [" + std::to_string(threads) + ", 1, 1] for " +
                    std::to_string(k.numWarps + k.producerWarps) + " warps");
  k.block = {uint32_t(threads), 1, 1};

  for (size_t i = 0; i < params->asArray().size(); ++i) {
    runtime::Param p;
    if (!readParam(params->asArray()[i],
                   where + ".params[" + std::to_string(i) + "]", p))
      return false;
    k.params.push_back(std::move(p));
  }
  runtime::Status st = runtime::checkSignature(k.params);
  if (!st.ok())
    return fail(where + ".params", st.message);
  const Value *maps;
  if (!member(v, where, "tensor_maps", Value::Kind::Array, maps,
              /*optional=*/true))
    return false;
  if (maps) {
    for (size_t i = 0; i < maps->asArray().size(); ++i)
      if (!readTensorMap(maps->asArray()[i],
                         where + ".tensor_maps[" + std::to_string(i) + "]",
                         k.params, k.tensorMaps))
        return false;
  }

  std::string at = where + ".grid";
  const Value *ops, *results;
  if (!member(*grid, at, "ops", Value::Kind::Array, ops) ||
      !member(*grid, at, "results", Value::Kind::Array, results))
    return false;
  for (size_t i = 0; i < ops->asArray().size(); ++i) {
    GridOp op;
    if (!readGridOp(ops->asArray()[i], at + ".ops[" + std::to_string(i) + "]",
                    i, k.params, op))
      return false;
    k.grid.ops.push_back(std::move(op));
  }
  const auto &r = results->asArray();
  if (r.size() != 3)
    return fail(at + ".results", "expected 3 op indices (x, y, z)");
  for (size_t i = 0; i < 3; ++i) {
    if (!r[i].isInt() || r[i].asInt() < 0 ||
        r[i].asInt() >= int64_t(k.grid.ops.size()))
      return fail(at + ".results",
                  "entry " + std::to_string(i) + " is not the index of an op");
    k.grid.results[i] = r[i].asInt();
  }
  return true;
}

bool ManifestReader::read(const Value &root, Bundle &bundle) {
  if (!root.isObject())
    return fail("", "the manifest is not a JSON object");
  std::string format, abi;
  int64_t version;
  if (!stringMember(root, "", "format", format))
    return false;
  if (format != kFormatName)
    return fail("format", "expected \"" + std::string(kFormatName) +
                              "\", got \"" + format + "\"");
  if (!intMember(root, "", "version", 1, INT64_MAX, version))
    return false;
  if (version > kFormatVersion)
    return fail("version", "bundle format version " + std::to_string(version) +
                               " is newer than this reader (" +
                               std::to_string(kFormatVersion) +
                               "): update tilegym-runner");
  if (!stringMember(root, "", "view_abi", abi))
    return false;
  if (abi != kViewAbi)
    return fail("view_abi", "views passed as \"" + abi +
                                "\"; this runtime passes them as \"" +
                                kViewAbi + "\"");
  int cc;
  bool archSpecific;
  if (!stringMember(root, "", "source", bundle.source) ||
      !stringMember(root, "", "target", bundle.target))
    return false;
  if (!parseTarget(bundle.target, cc, archSpecific))
    return fail("target", "\"" + bundle.target +
                              "\" is not a GPU target such as sm_90a or sm_80");
  if (version == 2)
    return readVariants(root, bundle);
  const Value *consts, *kernels;
  if (!member(root, "", "consts", Value::Kind::Object, consts) ||
      !member(root, "", "kernels", Value::Kind::Array, kernels))
    return false;
  for (const auto &[name, value] : consts->asObject()) {
    if (!value.isString())
      return fail("consts." + name, "expected a string");
    bundle.consts[name] = value.asString();
  }
  if (kernels->asArray().empty())
    return fail("kernels", "the bundle holds no kernel");
  for (size_t i = 0; i < kernels->asArray().size(); ++i) {
    KernelInfo k;
    if (!readKernel(kernels->asArray()[i], "kernels[" + std::to_string(i) + "]",
                    k))
      return false;
    if (bundle.findKernel(k.name))
      return fail("kernels[" + std::to_string(i) + "]",
                  "kernel '" + k.name + "' appears twice");
    bundle.kernels.push_back(std::move(k));
  }
  // "programs" is optional: a bundle of one kernel, or of kernels launched
  // one by one, has none.
  auto programs = root.asObject().find("programs");
  if (programs == root.asObject().end())
    return true;
  if (!programs->second.isArray())
    return fail("programs", "expected an array");
  for (size_t i = 0; i < programs->second.asArray().size(); ++i) {
    ProgramInfo program;
    if (!readProgram(programs->second.asArray()[i],
                     "programs[" + std::to_string(i) + "]", bundle, program))
      return false;
    bundle.programs.push_back(std::move(program));
  }
  return true;
}

bool ManifestReader::readProgram(const Value &value, const std::string &where,
                                 const Bundle &bundle, ProgramInfo &program) {
  if (!value.isObject())
    return fail(where, "expected an object");
  const Value *kernels;
  if (!stringMember(value, where, "name", program.name) ||
      !member(value, where, "kernels", Value::Kind::Array, kernels))
    return false;
  if (!isSymbolName(program.name))
    return fail(where + ".name", "\"" + program.name +
                                     "\" is not an identifier of at most 255 "
                                     "characters");
  if (bundle.findKernel(program.name) || bundle.findProgram(program.name))
    return fail(where + ".name",
                "'" + program.name + "' names another kernel or program");
  if (kernels->asArray().empty())
    return fail(where + ".kernels", "a program runs at least one kernel");
  std::vector<std::vector<runtime::Param>> signatures;
  for (size_t i = 0; i < kernels->asArray().size(); ++i) {
    const Value &name = kernels->asArray()[i];
    const KernelInfo *k =
        name.isString() ? bundle.findKernel(name.asString()) : nullptr;
    if (!k)
      return fail(where + ".kernels[" + std::to_string(i) + "]",
                  "not the name of a kernel of this bundle");
    program.kernels.push_back(k->name);
    signatures.push_back(k->params);
  }
  std::string error;
  if (!runtime::mergeSignatures(program.kernels, signatures, program.signature,
                                error))
    return fail(where, error);
  return true;
}

bool bundle::isSymbolName(const std::string &name) {
  if (name.empty() || name.size() > 255 ||
      !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum((unsigned char)c) || c == '_'))
      return false;
  return true;
}

bool bundle::parseManifest(const std::string &text, const std::string &dir,
                           bool checkFiles, Bundle &bundle,
                           std::string &error) {
  Value root;
  std::string jsonError;
  if (!json::parse(text, root, jsonError)) {
    error = "invalid JSON: " + jsonError;
    return false;
  }
  Bundle result;
  result.dir = dir;
  ManifestReader reader(dir, checkFiles);
  if (!reader.read(root, result)) {
    error = reader.error;
    return false;
  }
  bundle = std::move(result);
  return true;
}

bool bundle::loadBundle(const std::string &dir, Bundle &bundle,
                        std::string &error) {
  if (!isDirectory(dir)) {
    error = dir + ": not a bundle folder (expected NAME.tgb/ holding "
                  "manifest.json)";
    return false;
  }
  std::string path = dir + "/manifest.json", text;
  if (!isRegularFile(path) || !readFile(path, text)) {
    error = path + ": cannot read the manifest (a regular file, not a link)";
    return false;
  }
  if (!parseManifest(text, dir, /*checkFiles=*/true, bundle, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

bool bundle::selectImage(const Bundle &bundle, const KernelInfo &kernel,
                         int ccMajor, int ccMinor, Image &image,
                         std::string &error) {
  int cc = 0;
  bool archSpecific = false;
  parseTarget(bundle.target, cc, archSpecific); // Validated at load.
  std::string gpuTarget = runtime::targetForComputeCapability(ccMajor, ccMinor);
  std::string gpu = gpuTarget + " (compute capability " +
                    std::to_string(ccMajor) + "." + std::to_string(ccMinor) +
                    ")";
  // Code for an arch-specific target runs on that architecture only, and
  // PTX JIT-compiles only for the same or newer GPUs.
  if (archSpecific && bundle.target != gpuTarget) {
    error = "the bundle targets " + bundle.target +
            ", whose arch-specific code runs only on that GPU; this GPU is " +
            gpu + ": recompile for --target=" + gpuTarget;
    return false;
  }
  if (cc > ccMajor * 10 + ccMinor) {
    error =
        "the bundle targets " + bundle.target + ", newer than this GPU, " + gpu;
    return false;
  }
  image.isCubin = !kernel.cubinFile.empty() && bundle.target == gpuTarget;
  image.path = image.isCubin ? kernel.cubinFile : kernel.ptxFile;
  if (!isRegularFile(image.path) || !readFile(image.path, image.bytes)) {
    error = "cannot read " + image.path + " (a regular file, not a link)";
    return false;
  }
  // PTX is text that the driver reads up to its first NUL: one inside would
  // silently cut the module short.
  if (!image.isCubin && image.bytes.find('\0') != std::string::npos) {
    error = image.path + ": PTX must be text, found a NUL byte at offset " +
            std::to_string(image.bytes.find('\0'));
    return false;
  }
  return true;
}
