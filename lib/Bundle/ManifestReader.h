//===- ManifestReader.h - the manifest walker shared by lib/Bundle -*- C++
//-*-===//
//
// Private to lib/Bundle: Bundle.cpp reads bundles of kernels with it,
// Variants.cpp bundles of variants.
//
//===----------------------------------------------------------------------===//
#ifndef TILEGYM_LIB_BUNDLE_MANIFESTREADER_H
#define TILEGYM_LIB_BUNDLE_MANIFESTREADER_H

#include "tilegym/Bundle/Bundle.h"
#include "tilegym/Bundle/Json.h"

#include <string>

namespace tilegym::bundle::detail {

bool readFile(const std::string &path, std::string &bytes);
/// A regular file, not a symbolic link to one: a bundle's files are its
/// own, and a link could make the runner read anything on the machine.
bool isRegularFile(const std::string &path);
bool isDirectory(const std::string &path);
/// A folder itself, not a link to one (a variant's folder must be inside).
bool isFolderNotLink(const std::string &path);
/// `s` with bytes outside printable ASCII shown as \xNN, for messages.
std::string printable(const std::string &s);
/// "sm_90a" -> 90 and archSpecific; false for anything else.
bool parseTarget(const std::string &target, int &cc, bool &archSpecific);
/// What the writer produces for names inside a bundle folder:
/// [A-Za-z0-9_.-], not "." or "..".
bool isPlainFileName(const std::string &name);

/// Walks the manifest, remembering where it is ("kernels[0].grid") so that
/// every error names the offending entry.
class ManifestReader {
public:
  ManifestReader(const std::string &dir, bool checkFiles)
      : dir(dir), checkFiles(checkFiles) {}

  bool read(const json::Value &root, Bundle &bundle);
  std::string error;

private:
  bool readProgram(const json::Value &value, const std::string &where,
                   const Bundle &bundle, ProgramInfo &program);
  /// The "variants", "dispatch" and "default" of a version-2 manifest
  /// (Variants.cpp); the variants' own manifests are read when checkFiles.
  bool readVariants(const json::Value &root, Bundle &bundle);
  bool readDispatchRule(const json::Value &value, const std::string &where,
                        const Bundle &bundle, DispatchRule &rule);

  const std::string &dir;
  bool checkFiles;

  bool fail(const std::string &where, const std::string &what) {
    error = where.empty() ? what : where + ": " + what;
    return false;
  }

  /// Member `key` of `object` of the given kind; a missing member is an
  /// error unless `optional`, in which case `out` stays null.
  bool member(const json::Value &object, const std::string &where,
              const std::string &key, json::Value::Kind kind,
              const json::Value *&out, bool optional = false) {
    out = object.get(key);
    std::string at = where.empty() ? key : where + "." + key;
    if (!out)
      return optional || fail(where, "missing \"" + key + "\"");
    if (out->kind() != kind)
      return fail(at, std::string("expected ") + json::kindName(kind) +
                          ", got " + json::kindName(out->kind()));
    return true;
  }

  bool intMember(const json::Value &object, const std::string &where,
                 const std::string &key, int64_t lo, int64_t hi, int64_t &out,
                 bool optional = false) {
    const json::Value *v;
    if (!member(object, where, key, json::Value::Kind::Int, v, optional))
      return false;
    if (!v)
      return true;
    if (v->asInt() < lo || v->asInt() > hi)
      return fail(where.empty() ? key : where + "." + key,
                  std::to_string(v->asInt()) + " is out of range [" +
                      std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out = v->asInt();
    return true;
  }

  bool stringMember(const json::Value &object, const std::string &where,
                    const std::string &key, std::string &out,
                    bool optional = false) {
    const json::Value *v;
    if (!member(object, where, key, json::Value::Kind::String, v, optional))
      return false;
    if (v)
      out = v->asString();
    return true;
  }

  bool readFileName(const json::Value &object, const std::string &where,
                    const std::string &key, std::string &path, bool optional);
  bool readParam(const json::Value &v, const std::string &where,
                 runtime::Param &param);
  bool readGridOp(const json::Value &v, const std::string &where, size_t index,
                  const std::vector<runtime::Param> &params, GridOp &op);
  bool readTensorMap(const json::Value &v, const std::string &where,
                     const std::vector<runtime::Param> &params,
                     std::vector<runtime::TensorMap> &maps);
  bool readKernel(const json::Value &v, const std::string &where,
                  KernelInfo &k);
};

} // namespace tilegym::bundle::detail

#endif // TILEGYM_LIB_BUNDLE_MANIFESTREADER_H
