//===- CApiPrograms.cpp - programs and variants in the bundle C API ------===//
//
// The tgb_program_* and tgb_*variant*/tgb_set_rule functions of
// tilegym_bundle.h, over the objects of CApiObjects.h.
//
//===----------------------------------------------------------------------===//
#include "CApiObjects.h"

using namespace tilegym;
using namespace tilegym::bundle::capi;

extern "C" {

size_t tgb_num_programs(const tgb_bundle *b) {
  return b ? b->manifest.programs.size() : 0;
}

const char *tgb_program_name(const tgb_bundle *b, size_t index) {
  if (!b || index >= b->manifest.programs.size())
    return nullptr;
  return b->manifest.programs[index].name.c_str();
}

tg_status tgb_program_info_get(const tgb_bundle *b, const char *name,
                               tgb_program_info *info) {
  const bundle::ProgramInfo *p;
  Status status = findProgram(b, name, p);
  if (!status.ok())
    return report(status);
  if (!info)
    return invalid("tgb_program_info_get: the result pointer is null");
  info->name = p->name.c_str();
  info->num_kernels = p->kernels.size();
  info->num_params = p->signature.params.size();
  return ok();
}

const char *tgb_program_kernel(const tgb_bundle *b, const char *name,
                               size_t index) {
  const bundle::ProgramInfo *p;
  Status status = findProgram(b, name, p);
  if (!status.ok()) {
    report(status);
    return nullptr;
  }
  if (index >= p->kernels.size()) {
    invalid("program '" + p->name + "': kernel index " + std::to_string(index) +
            " is out of range (" + std::to_string(p->kernels.size()) +
            " kernels)");
    return nullptr;
  }
  ok();
  return p->kernels[index].c_str();
}

tg_status tgb_program_param(const tgb_bundle *b, const char *name, size_t index,
                            tg_param *param) {
  const bundle::ProgramInfo *p;
  Status status = findProgram(b, name, p);
  if (!status.ok())
    return report(status);
  return report(describeParam("program '" + p->name + "'", p->signature.params,
                              index, param));
}

tg_status tgb_program_check_args(const tgb_bundle *b, const char *name,
                                 const tg_arg *args, size_t numArgs) {
  const bundle::ProgramInfo *p;
  Status status = findProgram(b, name, p);
  if (!status.ok())
    return report(status);
  std::vector<std::vector<tg_arg>> shares;
  std::vector<tg_dim3> grids;
  return report(
      checkProgramArgs(b->manifest, *p, args, numArgs, shares, grids));
}

tg_status tgb_load_program(tgb_bundle *b, const char *name, int ordinal,
                           tgb_program **loaded) {
  const bundle::ProgramInfo *p;
  Status status = findProgram(b, name, p);
  if (!status.ok())
    return report(status);
  if (!loaded)
    return invalid("tgb_load_program: the result pointer is null");
  *loaded = nullptr;
  for (auto &existing : b->programs)
    if (existing->info == p && existing->ordinal == ordinal) {
      *loaded = existing.get();
      return ok();
    }
  auto program = std::make_unique<tgb_program>();
  program->info = p;
  program->ordinal = ordinal;
  for (const std::string &kernel : p->kernels) {
    tgb_kernel *k;
    if (tg_status code = tgb_load(b, kernel.c_str(), ordinal, &k))
      return code;
    program->kernels.push_back(k);
  }
  b->programs.push_back(std::move(program));
  *loaded = b->programs.back().get();
  return ok();
}

tg_status tgb_program_launch(tgb_program *p, const tg_arg *args, size_t numArgs,
                             uint64_t stream) {
  if (!p)
    return invalid("tgb_program_launch: the program is null");
  std::vector<std::vector<tg_arg>> shares;
  std::vector<tg_dim3> grids;
  // Every kernel of the program runs the variant the program's own rules
  // pick: kernels compiled with one set of consts agree on what passes
  // between them.
  const bundle::Bundle &manifest = p->kernels.front()->bundle->manifest;
  size_t variant = variantFor(manifest, p->info->name, args, numArgs);
  Status status = checkProgramArgs(manifest.variant(variant), *p->info, args,
                                   numArgs, shares, grids);
  if (!status.ok())
    return report(status);
  // One stream orders the launches: each kernel sees what the one before
  // it wrote.
  for (size_t k = 0; k < p->kernels.size(); ++k) {
    runtime::PackedArgs packed(shares[k].data(), shares[k].size());
    if (!(status = addTensorMaps(*p->kernels[k]->variants[variant].info,
                                 shares[k].data(), shares[k].size(), packed))
             .ok() ||
        !(status =
              launchPacked(*p->kernels[k], variant, grids[k], packed, stream))
             .ok()) {
      status.message = "program '" + p->info->name + "': " + status.message;
      return report(status);
    }
  }
  return ok();
}

size_t tgb_num_variants(const tgb_bundle *b) {
  return b ? b->manifest.numVariants() : 0;
}

const char *tgb_variant_tuned(const tgb_bundle *b, size_t index) {
  if (!b || index >= b->manifest.numVariants())
    return "";
  scratch() = b->manifest.describeVariant(index);
  return scratch().c_str();
}

tg_status tgb_select_variant(const tgb_bundle *b, const char *name,
                             const tg_arg *args, size_t numArgs,
                             size_t *variant) {
  if (!variant)
    return invalid("tgb_select_variant: the result pointer is null");
  const bundle::KernelInfo *k = nullptr;
  const bundle::ProgramInfo *p = nullptr;
  Status status;
  bool isProgram = b && name && !b->manifest.findKernel(name) &&
                   b->manifest.findProgram(name);
  if (isProgram)
    status = findProgram(b, name, p);
  else
    status = findKernel(b, name, k);
  if (!status.ok())
    return report(status);
  if (isProgram) {
    std::vector<std::vector<tg_arg>> shares;
    std::vector<tg_dim3> grids;
    status = checkProgramArgs(b->manifest, *p, args, numArgs, shares, grids);
  } else {
    status = checkArgs(*k, args, numArgs);
  }
  if (!status.ok())
    return report(status);
  *variant =
      variantFor(b->manifest, isProgram ? p->name : k->name, args, numArgs);
  return ok();
}

tg_status tgb_set_rule(tgb_bundle *b, const char *name, const tg_arg *args,
                       size_t numArgs, size_t variant) {
  size_t ignored;
  if (tg_status code = tgb_select_variant(b, name, args, numArgs, &ignored))
    return code; // Also checks the arguments.
  if (b->manifest.variants.empty())
    return invalid(b->manifest.dir +
                   " is a bundle of kernels: it has no dispatch table");
  if (variant >= b->manifest.variants.size())
    return invalid("variant " + std::to_string(variant) + " is out of range (" +
                   std::to_string(b->manifest.variants.size()) + " variants)");
  bundle::DispatchRule rule;
  // NULL named the only kernel (tgb_select_variant checked there is one).
  rule.run = name ? name : b->manifest.kernels.front().name;
  rule.variant = variant;
  for (size_t i = 0; i < numArgs; ++i) {
    rule.buckets.emplace_back();
    if (args[i].kind == TG_ARG_VIEW)
      for (int32_t d = 0; d < args[i].rank; ++d)
        rule.buckets.back().push_back(bundle::shapeBucket(args[i].sizes[d]));
  }
  ++b->rulesVersion;
  for (bundle::DispatchRule &existing : b->manifest.dispatch)
    if (existing.run == rule.run && existing.buckets == rule.buckets) {
      existing.variant = variant;
      return ok();
    }
  b->manifest.dispatch.push_back(std::move(rule));
  return ok();
}

} // extern "C"
