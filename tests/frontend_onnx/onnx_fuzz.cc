// libFuzzer target of the ONNX front end: any byte string, read as atc reads a .onnx file
// (ReadOnnxBytes: ModelProto parse, ONNX's checker and full check, conversion, version
// normalisation), must give a well-formed ir::Graph or an openatc::Error with one of the codes of
// atc/frontend_onnx/ERRORS.md; never a crash, an escaping exception of another type (libonnx's
// checker and shape inference throw their own), a leak, a hang or a huge allocation.
// External data is refused (no model folder), so the fuzzer reads no files.
// Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds: <build>/fuzz_seeds/onnx (written by
// onnx_fuzz_seeds at build time) and, for past findings, tests/frontend_onnx/fuzz_seeds;
// dictionary tests/frontend_onnx/onnx_fuzz.dict.
// Run: make fuzz-smoke FUZZERS=onnx_fuzz FUZZ_TIME=600 (see README).
#include <onnx/defs/schema.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/frontend/onnx_reader.h"

namespace {

bool ValidEndpoint(const openatc::ir::Graph &g, const openatc::ir::Endpoint &e) {
  if (!e.connected()) return true;
  if (static_cast<size_t>(e.node) >= g.nodes.size() || e.index < 0) return false;
  return static_cast<size_t>(e.index) < g.nodes[static_cast<size_t>(e.node)].output_descs.size();
}

// The graph the front end returns must be usable by the passes that follow it.
void CheckGraph(const openatc::ir::Graph &g) {
  std::set<std::string> names;
  for (const auto &n : g.nodes) {
    if (!names.insert(n.name).second) std::abort();  // node names are unique
    if (n.inputs.size() != n.input_descs.size()) std::abort();
    for (const auto &e : n.inputs)
      if (!ValidEndpoint(g, e)) std::abort();
    if (n.type == openatc::ir::kConst) {
      auto it = n.attrs.find("value");
      if (it == n.attrs.end() || !it->second.t) std::abort();
      const auto &t = *it->second.t;
      const int64_t count = openatc::ShapeElementCount(t.desc.shape);
      if (count < 0 || t.data.size != static_cast<uint64_t>(count) * openatc::DataTypeSize(t.desc.dtype))
        std::abort();
      volatile uint8_t sink = 0;  // touch the bytes so a bad view would be found
      for (size_t k = 0; k < t.data.size; ++k) sink ^= t.data.data[k];
      (void)sink;
    }
  }
  for (int32_t i : g.inputs)
    if (i < 0 || static_cast<size_t>(i) >= g.nodes.size() || g.nodes[static_cast<size_t>(i)].type != openatc::ir::kData)
      std::abort();
  for (const auto &e : g.outputs)
    if (!e.connected() || !ValidEndpoint(g, e)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string bytes(reinterpret_cast<const char *>(data), size);
  openatc::frontend::OnnxOptions options;
  // As the atc driver does with its op registry: here, an op type is supported when ONNX defines
  // it at opset 17, so that the "not a built-in operator" path runs too.
  options.is_supported_op = [](const std::string &type) {
    return onnx::OpSchemaRegistry::Schema(type, 17, "") != nullptr;
  };
  try {
    CheckGraph(openatc::frontend::ReadOnnxBytes(bytes, "", "fuzz.onnx", options));
  } catch (const openatc::Error &e) {
    static const std::set<std::string> kCodes = {"E10041", "OA1501", "OA1502", "OA1503", "OA1505"};
    if (!kCodes.count(e.code())) std::abort();
  }
  return 0;
}
