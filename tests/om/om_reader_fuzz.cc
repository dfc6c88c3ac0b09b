// libFuzzer target of the OM reader: any byte string must give a Model or an openatc::Error,
// never a crash, leak, hang or huge allocation. Built only with clang and
// -DOPENATC_BUILD_FUZZERS=ON; seed corpus: <build>/om_fuzz_corpus (written at build time by
// om_roundtrip_test, target om_fuzz_seeds). Run: make fuzz-smoke FUZZERS=om_reader_fuzz FUZZ_TIME=600
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <xxhash.h>

#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

namespace {

void ReadOne(const uint8_t *data, size_t size) {
  try {
    openatc::om::Model m = openatc::om::ReadBytes(data, size);
    // Touch every view so a bad pointer would be found.
    volatile uint8_t sink = 0;
    for (const auto &n : m.graph.nodes)
      for (const auto &[name, a] : n.attrs)
        if (a.t)
          for (size_t k = 0; k < a.t->data.size; ++k) sink ^= a.t->data.data[k];
    for (const auto &a : m.artifacts)
      for (size_t k = 0; k < a.payload.size; ++k) sink ^= a.payload.data[k];
    (void)sink;
    // A file that reads back must serialise again.
    openatc::om::Serialize(m);
  } catch (const openatc::Error &) {
  }
}

uint64_t Le64(const uint8_t *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ReadOne(data, size);
  // Random mutations rarely keep the checksums right; re-sign the envelope and the preamble
  // (layout in om_format/FORMAT.md) so that the verifier and the semantic checks get fuzzed.
  if (size >= 64) {
    std::vector<uint8_t> copy(data, data + size);
    const uint64_t off = Le64(&copy[16]), len = Le64(&copy[24]);
    if (off <= size && len <= size - off) {
      const uint64_t h = XXH3_64bits(copy.data() + off, len);
      std::memcpy(&copy[48], &h, 8);
    }
    const uint64_t p = XXH3_64bits(copy.data(), 56);
    std::memcpy(&copy[56], &p, 8);
    ReadOne(copy.data(), copy.size());
  }
  return 0;
}
