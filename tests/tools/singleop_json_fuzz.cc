// libFuzzer target of the `atc --singleop` JSON parser (atc/driver/src/singleop_desc.h): any bytes
// either give op descriptions that keep the parser's promises (an op type, one shape range per -1
// dim when ranges are given, a plain .om file name), or throw an openatc::Error with a GE code
// (E1xxxx) naming the file; never crash or throw anything else.
// Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds tests/singleop/json (valid and bad/).
// Run: make fuzz-smoke FUZZERS=singleop_json_fuzz.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "openatc/common/error.h"
#include "singleop_desc.h"

namespace {
void CheckTensor(const openatc::atc::SingleOpTensor &t) {
  const auto unknown = std::count(t.desc.shape.begin(), t.desc.shape.end(), int64_t{-1});
  if (!t.shape_range.empty() && static_cast<long>(t.shape_range.size()) != unknown) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try {
    for (const openatc::atc::SingleOpDesc &op : openatc::atc::ParseSingleOpText(text, "fuzz.json")) {
      if (op.type.empty()) std::abort();
      for (const auto &t : op.inputs) CheckTensor(t);
      for (const auto &t : op.outputs) CheckTensor(t);
      const std::string file = openatc::atc::SingleOpFileName(op);
      if (file.size() < 4 || file.compare(file.size() - 3, 3, ".om") != 0 || file.find('/') != std::string::npos ||
          file.size() > 128 + 3)
        std::abort();
    }
  } catch (const openatc::Error &e) {
    const std::string code = e.code();
    if (code.size() != 6 || code.compare(0, 2, "E1") != 0) std::abort();
  }
  return 0;
}
