// libFuzzer target of the GE IR front end: any byte string, read as proto3 JSON, protobuf text and
// binary AIR (ReadGeIrString, all three encodings), must give an ir::Graph or an openatc::Error,
// never a crash, leak, hang or huge allocation. A graph that reads must also survive the mode-1
// writer: WriteGeIrJson, then read back without error to the same node count.
// Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds: tests/om/fuzz_seeds/ge_ir.
// Run: make fuzz-smoke FUZZERS=ge_ir_fuzz FUZZ_TIME=600 (tests/run_fuzzers.sh holds the options)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "openatc/common/error.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/frontend/ge_ir_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using openatc::frontend::GeIrEncoding;
  const std::string bytes(reinterpret_cast<const char *>(data), size);
  for (GeIrEncoding enc : {GeIrEncoding::kJson, GeIrEncoding::kText, GeIrEncoding::kBinary}) {
    openatc::ir::Graph g;
    try {
      g = openatc::frontend::ReadGeIrString(bytes, enc, "fuzz");
    } catch (const openatc::Error &) {
      continue;
    }
    // Writer round trip: an error here is a finding, except the documented refusal of names
    // that are not UTF-8 (OA1015).
    std::string json;
    try {
      json = openatc::frontend::WriteGeIrJson(g);
    } catch (const openatc::Error &e) {
      if (e.code() != "OA1015") throw;
      continue;
    }
    openatc::ir::Graph back = openatc::frontend::ReadGeIrString(json, GeIrEncoding::kJson, "rt");
    if (back.nodes.size() != g.nodes.size()) std::abort();
  }
  return 0;
}
