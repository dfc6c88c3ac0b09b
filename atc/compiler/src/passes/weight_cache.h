// Built-in ops' pre-packed weights in atc's op compile cache (--op_compiler_cache_mode, README.md
// "Op compile cache"; the entries are openatc/common/op_cache.h's, in
// <dir>/prepacked_weights/<soc_version>/, a folder GE does not have).
//
// Key (XXH3-128; the entry is "<op type>_<32 hex digits>"): the entry format, the whole request
// PackWeights sees (op type, every attribute, every input's connection and descriptor, the bytes
// of each constant input, every output descriptor), the XXH3-128 of the bytes of the deliverable
// that provides the op type (the built-in ops library), and the op's PackingEnvironment() (e.g.
// oneDNN's version, ISA and thread count). Not in the key: the node's name, which no packing
// reads (as GE leaves node names out of kernel keys). A node with a subgraph attribute, or an op
// whose PackingEnvironment() is empty, is packed uncached.
//
// An entry's .bin holds the node's copies (also none, when PackWeights packs nothing), so the
// hash the .json records covers everything a hit puts into the OM: "OAPW", u32 version 1, u32
// count, then per copy i32 input anchor, u32 + ISA text, u32 + layout text, u64 + the bytes
// (little-endian). A .bin that does not parse, or names an anchor the node lacks, is corrupt.
#ifndef OPENATC_COMPILER_PASSES_WEIGHT_CACHE_H_
#define OPENATC_COMPILER_PASSES_WEIGHT_CACHE_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "openatc/ir/graph.h"
#include "openatc/opp/deliverable.h"
#include "openatc/rt/runtime.h"

namespace openatc::compiler::passes {

/// The format of an entry, also hashed into every key: a new format gives new keys.
inline constexpr const char kWeightCacheFormat[] = "openatc-prepacked-weights-1";

/// The .bin of an entry holding `copies`, and back ("" or what is wrong; `anchors`: the node's
/// input count). Exposed for tests.
std::vector<uint8_t> EncodePackedWeights(const std::vector<ir::PackedWeight> &copies);
std::string DecodePackedWeights(const std::vector<uint8_t> &bytes, size_t anchors, std::vector<ir::PackedWeight> *copies);

/// The op compile cache as one compile's weight packing uses it.
class WeightCache {
 public:
  /// `config`: the cache setting (CompileOptions::kernel_cache; kDisable: every Pack packs);
  /// `soc_version`: the compile target's; `opp`: the deliverables the op types come from (kept
  /// by reference for the object's life).
  WeightCache(rt::KernelCacheConfig config, std::string soc_version, const opp::CompileOppSet &opp);

  /// The entry name of `node`'s copies, "" when they are not cached (see the file comment).
  std::string Key(const ir::Graph &graph, const ir::Node &node, const std::string &environment);

  /// Sets node.packed_weights: from a valid entry, else by `pack()` (which fills them and throws
  /// on failure), then stored. `environment`: a copy of the op's PackingEnvironment() text ("": never cached).
  void Pack(const ir::Graph &graph, ir::Node &node, const std::string &environment, const std::function<void()> &pack);

 private:
  std::string LibraryHash(const std::string &op_type);

  rt::KernelCacheConfig config_;
  std::string soc_version_;
  const opp::CompileOppSet &opp_;
  std::map<std::string, std::string> library_hashes_;  // by deliverable path
};

}  // namespace openatc::compiler::passes

#endif  // OPENATC_COMPILER_PASSES_WEIGHT_CACHE_H_
