//===- Variants.cpp - bundles of variants and their dispatch table -------===//
//
// A bundle of variants (manifest version 2) holds version-1 bundles of one
// source compiled with different consts (tile sizes, warps), each in a
// folder of its own, and a table of rules saying which to launch for which
// shapes. tilegym-tune writes it: one variant per winning configuration, one
// rule per shape bucket it tuned. The reader checks that the variants agree
// on everything a caller sees (kernels, programs, signatures, target), so
// that a launch may pick any of them.
//
//===----------------------------------------------------------------------===//
#include "ManifestReader.h"

#include <cstdlib>
#include <limits>

using namespace tilegym;
using namespace tilegym::bundle;
using namespace tilegym::bundle::detail;
using json::Value;

/// Far more than a tuner writes; a bound on what a manifest makes us load.
static constexpr size_t kMaxVariants = 256;

int64_t bundle::shapeBucket(int64_t size) {
  int64_t bucket = 1;
  while (bucket < size && bucket < (int64_t(1) << 62))
    bucket <<= 1;
  return bucket;
}

static int log2Of(int64_t powerOfTwo) {
  int n = 0;
  while (powerOfTwo > 1)
    powerOfTwo >>= 1, ++n;
  return n;
}

size_t Bundle::selectVariant(const std::string &run, const tg_arg *args,
                             size_t numArgs) const {
  size_t best = defaultVariant;
  int64_t bestDistance = std::numeric_limits<int64_t>::max();
  for (const DispatchRule &rule : dispatch) {
    if (rule.run != run || rule.buckets.size() != numArgs)
      continue;
    int64_t distance = 0;
    bool comparable = true;
    for (size_t i = 0; i < numArgs && comparable; ++i) {
      const std::vector<int64_t> &buckets = rule.buckets[i];
      if (buckets.empty())
        continue;
      if (args[i].kind != TG_ARG_VIEW ||
          size_t(args[i].rank) != buckets.size()) {
        comparable = false;
        break;
      }
      for (size_t d = 0; d < buckets.size(); ++d)
        distance += std::abs(log2Of(shapeBucket(args[i].sizes[d])) -
                             log2Of(buckets[d]));
    }
    if (comparable && distance < bestDistance) {
      best = rule.variant;
      bestDistance = distance;
    }
  }
  return best;
}

std::string Bundle::describeVariant(size_t index) const {
  if (index >= tuned.size())
    return "";
  std::string text;
  for (const auto &[name, value] : tuned[index])
    text += (text.empty() ? "" : " ") + name + "=" + value;
  return text;
}

/// Why two signatures differ, or "" when they agree on what a caller sees.
static std::string signatureDifference(const std::vector<runtime::Param> &a,
                                       const std::vector<runtime::Param> &b) {
  if (a.size() != b.size())
    return std::to_string(b.size()) + " parameters, not " +
           std::to_string(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const runtime::Param &p = a[i], &q = b[i];
    if (p.name != q.name || p.kind != q.kind || p.dtype != q.dtype ||
        p.sizes != q.sizes || p.dims != q.dims || p.read != q.read ||
        p.written != q.written)
      return "parameter " + std::to_string(i + 1) +
             (p.name.empty() ? "" : " '" + p.name + "'") + " differs";
  }
  return "";
}

/// Why variant `b` cannot stand in for variant `a`, or "".
static std::string interfaceDifference(const Bundle &a, const Bundle &b) {
  if (a.target != b.target)
    return "it targets " + b.target + ", the others " + a.target;
  if (a.kernels.size() != b.kernels.size())
    return "it has " + std::to_string(b.kernels.size()) + " kernels, not " +
           std::to_string(a.kernels.size());
  for (size_t k = 0; k < a.kernels.size(); ++k) {
    if (a.kernels[k].name != b.kernels[k].name)
      return "its kernel " + std::to_string(k + 1) + " is '" +
             b.kernels[k].name + "', not '" + a.kernels[k].name + "'";
    std::string why =
        signatureDifference(a.kernels[k].params, b.kernels[k].params);
    if (!why.empty())
      return "kernel '" + a.kernels[k].name + "': " + why;
  }
  if (a.programs.size() != b.programs.size())
    return "it has " + std::to_string(b.programs.size()) + " programs, not " +
           std::to_string(a.programs.size());
  for (size_t p = 0; p < a.programs.size(); ++p)
    if (a.programs[p].name != b.programs[p].name ||
        a.programs[p].kernels != b.programs[p].kernels)
      return "program '" + a.programs[p].name + "' differs";
  return "";
}

bool ManifestReader::readVariants(const Value &root, Bundle &bundle) {
  for (const char *key : {"kernels", "programs", "consts"})
    if (root.get(key))
      return fail(key, "a bundle of variants (version 2) has no \"" +
                           std::string(key) +
                           "\": each variant's own manifest does");
  const Value *variants;
  if (!member(root, "", "variants", Value::Kind::Array, variants))
    return false;
  const auto &list = variants->asArray();
  if (list.empty())
    return fail("variants", "the bundle holds no variant");
  if (list.size() > kMaxVariants)
    return fail("variants",
                std::to_string(list.size()) + " variants, more than the " +
                    std::to_string(kMaxVariants) + " a bundle holds");
  std::vector<std::string> folders;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string where = "variants[" + std::to_string(i) + "]";
    const Value &v = list[i];
    if (!v.isObject())
      return fail(where, std::string("expected an object, got ") +
                             json::kindName(v.kind()));
    std::string folder;
    const Value *tuned;
    if (!stringMember(v, where, "folder", folder) ||
        !member(v, where, "tuned", Value::Kind::Object, tuned))
      return false;
    if (!isPlainFileName(folder))
      return fail(where + ".folder",
                  "\"" + printable(folder) +
                      "\" must be a plain folder name inside the bundle "
                      "([A-Za-z0-9_.-])");
    for (size_t j = 0; j < folders.size(); ++j)
      if (folders[j] == folder)
        return fail(where + ".folder", "\"" + folder + "\" is variants[" +
                                           std::to_string(j) + "]'s too");
    folders.push_back(folder);
    std::map<std::string, std::string> config;
    for (const auto &[name, value] : tuned->asObject()) {
      if (!isSymbolName(name) || !value.isString())
        return fail(where + ".tuned",
                    "entries must be a const's name and its value as a "
                    "string (\"BM\": \"128\")");
      config[name] = value.asString();
    }
    bundle.tuned.push_back(config);
    if (!checkFiles)
      continue;
    std::string path = dir + "/" + folder;
    if (!isFolderNotLink(path))
      return fail(where + ".folder",
                  "folder " + path + " does not exist or is a link");
    // A variant's version is read before the variant: a bundle of variants
    // inside one would be loaded whole (its own variants too) first.
    std::string text, jsonError;
    Value probe;
    if (readFile(path + "/manifest.json", text) &&
        json::parse(text, probe, jsonError) && probe.isObject())
      if (const Value *version = probe.get("version"))
        if (version->isInt() && version->asInt() != kKernelsFormatVersion)
          return fail(where, "a variant is a bundle of kernels (version 1), "
                             "not of variants");
    Bundle variant;
    std::string inner;
    if (!loadBundle(path, variant, inner))
      return fail(where, inner);
    if (variant.target != bundle.target)
      return fail(where, "it targets " + variant.target + ", the bundle " +
                             bundle.target);
    for (const auto &[name, value] : config) {
      auto it = variant.consts.find(name);
      if (it == variant.consts.end() || it->second != value)
        return fail(
            where + ".tuned." + name,
            "the variant was compiled with " + name + "=" +
                (it == variant.consts.end() ? "(no such const)" : it->second) +
                ", not " + value);
    }
    if (i > 0) {
      std::string why = interfaceDifference(bundle.variants[0], variant);
      if (!why.empty())
        return fail(where, "differs from variants[0] in more than its "
                           "consts: " +
                               why);
    }
    bundle.variants.push_back(std::move(variant));
  }

  int64_t defaultVariant = 0;
  if (!intMember(root, "", "default", 0, int64_t(list.size()) - 1,
                 defaultVariant, /*optional=*/true))
    return false;
  bundle.defaultVariant = size_t(defaultVariant);
  if (checkFiles) {
    const Bundle &chosen = bundle.variants[bundle.defaultVariant];
    bundle.kernels = chosen.kernels;
    bundle.programs = chosen.programs;
    // The consts every variant has with one value: what a reference may
    // read (CAUSAL=1); the tuned ones differ.
    for (const auto &[name, value] : chosen.consts) {
      bool shared = true;
      for (const Bundle &v : bundle.variants) {
        auto it = v.consts.find(name);
        shared = shared && it != v.consts.end() && it->second == value;
      }
      if (shared)
        bundle.consts[name] = value;
    }
  }

  const Value *dispatch;
  if (!member(root, "", "dispatch", Value::Kind::Array, dispatch,
              /*optional=*/true))
    return false;
  if (!dispatch)
    return true;
  for (size_t i = 0; i < dispatch->asArray().size(); ++i) {
    std::string where = "dispatch[" + std::to_string(i) + "]";
    DispatchRule rule;
    if (!readDispatchRule(dispatch->asArray()[i], where, bundle, rule))
      return false;
    for (size_t j = 0; j < bundle.dispatch.size(); ++j)
      if (checkFiles && bundle.dispatch[j].run == rule.run &&
          bundle.dispatch[j].buckets == rule.buckets)
        return fail(where, "the same run and shape buckets as dispatch[" +
                               std::to_string(j) + "]");
    bundle.dispatch.push_back(std::move(rule));
  }
  return true;
}

bool ManifestReader::readDispatchRule(const Value &value,
                                      const std::string &where,
                                      const Bundle &bundle,
                                      DispatchRule &rule) {
  if (!value.isObject())
    return fail(where, std::string("expected an object, got ") +
                           json::kindName(value.kind()));
  const Value *shapes;
  int64_t variant;
  if (!stringMember(value, where, "run", rule.run) ||
      !member(value, where, "shapes", Value::Kind::Object, shapes) ||
      !intMember(value, where, "variant", 0, int64_t(bundle.tuned.size()) - 1,
                 variant))
    return false;
  rule.variant = size_t(variant);
  for (const auto &[name, sizes] : shapes->asObject()) {
    bool ok = sizes.isArray() && sizes.asArray().size() <= TG_MAX_RANK;
    for (size_t d = 0; ok && d < sizes.asArray().size(); ++d)
      ok = sizes.asArray()[d].isInt() && sizes.asArray()[d].asInt() >= 0;
    if (!ok)
      return fail(where + ".shapes." + printable(name),
                  "expected a view's sizes, an array of integers >= 0");
  }
  if (!checkFiles)
    return true;

  const std::vector<runtime::Param> *params = nullptr;
  if (const KernelInfo *k = bundle.findKernel(rule.run))
    params = &k->params;
  else if (const ProgramInfo *p = bundle.findProgram(rule.run))
    params = &p->signature.params;
  else
    return fail(where + ".run", "'" + printable(rule.run) +
                                    "' is not a kernel or program of the "
                                    "bundle");
  size_t views = 0;
  for (size_t i = 0; i < params->size(); ++i) {
    const runtime::Param &p = (*params)[i];
    rule.buckets.emplace_back();
    if (p.kind != TG_ARG_VIEW)
      continue;
    ++views;
    const Value *sizes = p.name.empty() ? nullptr : shapes->get(p.name);
    if (!sizes)
      return fail(where + ".shapes",
                  p.name.empty() ? "parameter " + std::to_string(i + 1) +
                                       " has no name: rules name every view"
                                 : "missing view '" + p.name + "'");
    if (sizes->asArray().size() != p.sizes.size())
      return fail(where + ".shapes." + p.name,
                  "has " + std::to_string(sizes->asArray().size()) +
                      " sizes for a view of rank " +
                      std::to_string(p.sizes.size()));
    for (const Value &s : sizes->asArray())
      rule.buckets.back().push_back(shapeBucket(s.asInt()));
  }
  if (shapes->asObject().size() != views)
    for (const auto &[name, sizes] : shapes->asObject()) {
      bool known = false;
      for (const runtime::Param &p : *params)
        known = known || (p.kind == TG_ARG_VIEW && p.name == name);
      if (!known)
        return fail(where + ".shapes." + printable(name),
                    "not a view parameter of '" + rule.run + "'");
    }
  return true;
}
