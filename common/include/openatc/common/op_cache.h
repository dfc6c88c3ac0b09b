/**
 * @file openatc/common/op_cache.h
 * The entries of atc's op compile cache (--op_compiler_cache_mode / --op_compiler_cache_dir;
 * README.md "Op compile cache"), whatever they hold: the kernels the host RTC compiles
 * (device/rtc/src/kernel_cache.h) and the built-in ops' pre-packed weights
 * (atc/compiler/src/passes/weight_cache.h). This file is the one home of the folder layout, the
 * entry files and their check, the per-key lock, `force`, the info lines and size aging; its
 * users only compute keys and say what an entry holds.
 *
 * Layout under the cache folder <dir>: <dir>/kernel_cache/<soc_version>/ (GE's folder for
 * kernels) and <dir>/prepacked_weights/<soc_version>/ (ours: GE has no such entries). An entry
 * of key K in folder F is F/K.bin (its bytes), F/K.json (the user's fields plus "format", "key",
 * "binary_size" and "binary_xxh3_128", checked on every reuse) and F/K.lock (flock'ed while the
 * entry is looked up, built and stored, so two processes never build one key twice). Both files
 * are written to a temp file and renamed, the .json last: a reader sees a whole entry or none.
 * They are not fsync'ed: an entry a crash left partial fails its check on the next use.
 *
 * Size: after a store, when the folders that share a budget (one <soc_version> of both kinds)
 * hold more than max_size_mb together, entries not used for 30 minutes are deleted, least
 * recently used first, until they hold at most remain_ratio % of it. A hit refreshes the
 * entry's time (its .json's mtime), unless max_size_mb is -1 (no aging).
 */
#ifndef OPENATC_COMMON_OP_CACHE_H_
#define OPENATC_COMMON_OP_CACHE_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace openatc::opcache {

/// <dir>/kernel_cache/<soc_version>: the RTC's compiled kernels (GE's layout).
std::string KernelFolder(const std::string &dir, const std::string &soc_version);
/// <dir>/prepacked_weights/<soc_version>: built-in ops' packed weights (OpenATC's own).
std::string WeightFolder(const std::string &dir, const std::string &soc_version);
/// Both folders of `soc_version`: one size budget.
std::vector<std::string> AgingFolders(const std::string &dir, const std::string &soc_version);

/// XXH3-128 of `size` bytes at `data` as 32 lowercase hex digits, high half first (the hash the
/// entries record and the keys are made of).
std::string Xxh3Hex128(const void *data, size_t size);

/// Collects a key's fields, each length-prefixed so that ("ab", "c") and ("a", "bc") differ.
class KeyHasher {
 public:
  void Add(const void *data, size_t size) {
    const uint64_t n = size;
    bytes_.append(reinterpret_cast<const char *>(&n), sizeof n);
    bytes_.append(static_cast<const char *>(data), size);
  }
  void Add(const std::string &s) { Add(s.data(), s.size()); }
  void Add(uint64_t v) { Add(&v, sizeof v); }
  /// Xxh3Hex128 of everything added.
  std::string Hex() const { return Xxh3Hex128(bytes_.data(), bytes_.size()); }

 private:
  std::string bytes_;
};

/// One use of the cache: which entry, how, and where its lines go.
struct Use {
  std::string folder;  ///< the entry's folder (created when missing)
  std::string key;     ///< the entry's file stem (letters, digits, '_')
  std::string format;  ///< the entry format; an entry of another format is corrupt
  std::string label;   ///< info lines read "<label> hit|miss|stored <key>", e.g. "compile cache"
  std::string what;    ///< what is built, for warnings: "kernel 'axpy'", "node 'c1' (Conv)'s weights"
  std::string built;   ///< how it is built, said of `what`: "is compiled", "are packed"
  bool force = false;  ///< delete the entry, build, store (--op_compiler_cache_mode=force)
  int64_t max_size_mb = 500;  ///< -1: no aging
  int remain_ratio = 50;      ///< 1..100
  std::vector<std::string> aging_folders;  ///< the folders sharing the budget (`folder` among them)
  /// A valid entry's bytes and fields beyond the hash check: "" when usable, else what is wrong
  /// (the entry is then corrupt: a miss, rebuilt and replaced). May be empty.
  std::function<std::string(const std::vector<uint8_t> &bytes, const nlohmann::json &fields)> check;
  std::function<void(const std::string &)> info;     ///< may be empty
  std::function<void(const std::string &)> warning;  ///< may be empty
};

/// An entry's contents: the bytes and the user's fields (on a hit, the whole .json).
struct Entry {
  std::vector<uint8_t> bytes;
  nlohmann::json fields = nlohmann::json::object();
};

enum class Outcome {
  kHit,       ///< `entry` is the cached one; `build` was not called
  kStored,    ///< `build` made `entry` and it was stored
  kNotStored, ///< `build` made `entry`, which could not be stored (warned) or had nothing to store
  kFailed,    ///< `build` returned false: nothing stored, `entry` is whatever build left
};

/// Looks `use.key` up in `use.folder` (force: deletes it instead); a valid entry is returned
/// without calling `build`. Otherwise `build(entry)` runs; when it returns true, `entry` is
/// stored and aging runs. A folder that cannot be created or used is warned about and `build`
/// runs uncached. A corrupt entry (missing half, wrong format or key, bytes not matching the
/// size and hash recorded, `use.check` failing) is warned about and is a miss. Never throws for
/// a cache problem; rethrows what `build` throws.
Outcome Through(const Use &use, const std::function<bool(Entry &entry)> &build, Entry &entry);

}  // namespace openatc::opcache

#endif  // OPENATC_COMMON_OP_CACHE_H_
