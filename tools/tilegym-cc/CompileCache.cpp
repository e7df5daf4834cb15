//===- CompileCache.cpp - tilegym-cc's cache of compiled outputs ----------===//
#include "CompileCache.h"

#include "tilegym/Conversion/Pipelines.h"
#include "tilegym/Runtime/Runtime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilegym;

namespace {

/// Adds `s` and its length, so that no two sequences of strings hash alike.
void hashString(llvm::SHA256 &h, llvm::StringRef s) {
  uint64_t n = s.size();
  h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&n),
                                   sizeof(n)));
  h.update(s);
}

/// The compiler: this executable's bytes (the TileGym passes are linked into
/// it); what it cannot read counts as empty.
void hashCompiler(llvm::SHA256 &h) {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable("tilegym-cc", &anchor);
  auto bytes = llvm::MemoryBuffer::getFile(exe, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  hashString(h, bytes ? (*bytes)->getBuffer() : "");
}

/// A ptxas the output depends on (`path`): its path, size and time, or that
/// there is none.
void hashPtxasAt(llvm::SHA256 &h, const std::string &path) {
  llvm::sys::fs::file_status status;
  if (path.empty() || llvm::sys::fs::status(path, status)) {
    hashString(h, "no ptxas");
    return;
  }
  hashString(h, path);
  hashString(h, std::to_string(status.getSize()));
  hashString(
      h, std::to_string(llvm::sys::toTimeT(status.getLastModificationTime())));
}

/// The ptxas programs the output depends on: the toolkit's, which assembles
/// a bundle's cubin, and the one found first (PATH, then the toolkit
/// folders), whose spills choose each kernel's copy address form.
void hashPtxas(llvm::SHA256 &h) {
  std::string toolkit = findCudaToolkit();
  hashPtxasAt(h, toolkit.empty() ? "" : toolkit + "/bin/ptxas");
  hashPtxasAt(h, runtime::findPtxas());
}

/// Copies the regular files of folder `from` into folder `to`, made if
/// need be (a bundle is flat: its manifest, PTX and cubin).
bool copyFolder(llvm::StringRef from, llvm::StringRef to) {
  if (llvm::sys::fs::create_directories(to))
    return false;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(from, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (it->type() != llvm::sys::fs::file_type::regular_file)
      return false;
    llvm::SmallString<256> dst(to);
    llvm::sys::path::append(dst, llvm::sys::path::filename(it->path()));
    if (llvm::sys::fs::copy_file(it->path(), dst))
      return false;
  }
  return !ec;
}

} // namespace

std::vector<std::string> tilegym::cacheArguments(int argc, char **argv) {
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a == "-o" || a == "--o" || a == "-cache-dir" || a == "--cache-dir") {
      ++i; // and its value
      continue;
    }
    if (a.starts_with("-o=") || a.starts_with("--o=") ||
        a.starts_with("--cache-dir=") || a.starts_with("-cache-dir="))
      continue;
    out.push_back(a.str());
  }
  return out;
}

CompileCache::CompileCache(llvm::StringRef dir,
                           llvm::ArrayRef<std::string> arguments,
                           llvm::StringRef inputPath, llvm::StringRef input)
    : dir(dir.str()) {
  llvm::SHA256 h;
  hashString(h, "tilegym-cc compile cache 1");
  hashCompiler(h);
  hashPtxas(h);
  hashString(h, inputPath);
  hashString(h, input);
  for (const std::string &a : arguments)
    hashString(h, a);
  std::string hex;
  for (uint8_t byte : h.final())
    hex += llvm::utohexstr(byte, /*LowerCase=*/true, /*Width=*/2);
  entryKey = hex;
}

bool CompileCache::restore(llvm::StringRef out, bool folder) const {
  llvm::SmallString<256> entry(dir);
  llvm::sys::path::append(entry, entryKey, "out");
  if (!llvm::sys::fs::exists(entry))
    return false;
  if (!folder)
    return !llvm::sys::fs::copy_file(entry, out);
  // As the bundle writer does: the folder's files of those names are
  // replaced, nothing else in it is touched.
  return copyFolder(entry, out);
}

void CompileCache::store(llvm::StringRef out, bool folder) const {
  // Written under a temporary name, then renamed: a reader never sees half
  // an entry, and of two writers of one key the first to rename wins.
  llvm::SmallString<256> entry(dir), tmp;
  llvm::sys::path::append(entry, entryKey);
  if (llvm::sys::fs::create_directories(dir))
    return;
  llvm::sys::fs::createUniquePath(entry + ".tmp-%%%%%%%%", tmp,
                                  /*MakeAbsolute=*/false);
  if (llvm::sys::fs::create_directory(tmp, /*IgnoreExisting=*/false))
    return;
  llvm::SmallString<256> tmpOut(tmp);
  llvm::sys::path::append(tmpOut, "out");
  bool copied =
      folder ? copyFolder(out, tmpOut) : !llvm::sys::fs::copy_file(out, tmpOut);
  if (!copied || llvm::sys::fs::rename(tmp, entry))
    llvm::sys::fs::remove_directories(tmp);
}
