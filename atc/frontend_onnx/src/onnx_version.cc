// Versions (openatc/frontend/onnx_reader.h, steps 1b-2): what is not a model at all, what is newer
// than OpenATC reads, which models libonnx 1.12's checker knows (IR <= 8, opsets <= 17) and, for
// the newer ones, OpenATC's own structural check in place of that checker.
#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <set>

#include "onnx_internal.h"

namespace openatc::frontend::onnx_detail {
namespace {

constexpr const char *kParseError = "E10041";

int64_t DefaultOpset(const onnx::ModelProto &m) {
  for (const auto &imp : m.opset_import())
    if (imp.domain().empty() || imp.domain() == "ai.onnx") return imp.version();
  return -1;
}

Error Invalid(const std::string &what) {
  return Error(ErrorCategory::kGraph, kParseError, "the model is not valid ONNX: " + what,
               "Fix the exporter's output (every node needs an op_type, every tensor one producer)");
}

}  // namespace

void CheckIsModelWeRead(const onnx::ModelProto &m) {
  if (!m.has_graph() && m.opset_import_size() == 0 && m.ir_version() == 0) {
    throw Error(ErrorCategory::kGraph, kParseError,
                "the file is not an ONNX model: it holds no ir_version, opset_import or graph",
                "Pass a .onnx file saved by onnx.save_model or an exporter (not a checkpoint, archive or other "
                "protobuf)");
  }
  const int64_t opset = DefaultOpset(m);
  bool default_nodes = false;
  for (const auto &n : m.graph().node()) default_nodes |= n.domain().empty() || n.domain() == "ai.onnx";
  if (opset < 0 && default_nodes) {  // ONNX requires an opset_import for every domain the graph uses
    throw Error(ErrorCategory::kGraph, kParseError,
                "the model is not valid ONNX: it imports no default-domain opset, but its graph uses that domain",
                "Re-export the model; every ONNX model names the opset of the default domain in opset_import");
  }
  if (m.ir_version() > kMaxIrVersion || opset > kMaxOpset) {
    throw Error(ErrorCategory::kGraph, kParseError,
                "the model is newer than OpenATC reads: IR version " + std::to_string(m.ir_version()) +
                    ", default-domain opset " + std::to_string(opset) + " (OpenATC reads IR <= " +
                    std::to_string(kMaxIrVersion) + " and opsets <= " + std::to_string(kMaxOpset) + ")",
                "Re-export the model at opset " + std::to_string(kMaxOpset) +
                    " or older (e.g. torch.onnx.export(..., opset_version=" + std::to_string(kMaxOpset) + "))");
  }
}

bool LibonnxKnowsVersions(const onnx::ModelProto &m) {
  if (m.ir_version() > kLibonnxMaxIrVersion) return false;
  for (const auto &imp : m.opset_import())
    if ((imp.domain().empty() || imp.domain() == "ai.onnx") && imp.version() > kLibonnxMaxOpset) return false;
  return true;
}

bool IsOldModel(const onnx::ModelProto &m) { return m.ir_version() < 3 || DefaultOpset(m) < 7; }

std::set<int> NodesWithoutSchema(const onnx::ModelProto &m) {
  const int64_t opset = DefaultOpset(m);
  std::set<int> out;
  const auto &nodes = m.graph().node();
  for (int i = 0; i < nodes.size(); ++i) {
    const auto &n = nodes.Get(i);
    if (!n.domain().empty() && n.domain() != "ai.onnx") continue;
    const int version = static_cast<int>(std::min<int64_t>(opset, kLibonnxMaxOpset));
    if (onnx::OpSchemaRegistry::Schema(n.op_type(), version, "") == nullptr) out.insert(i);
  }
  return out;
}

int64_t OnnxOpAddedAfter17(const std::string &op_type) {
  // ONNX's operator changelog: operators first defined at opsets 18-24.
  static const std::map<std::string, int64_t> kAdded = {
      {"BitwiseAnd", 18}, {"BitwiseNot", 18},      {"BitwiseOr", 18},   {"BitwiseXor", 18},
      {"CenterCropPad", 18}, {"Col2Im", 18},        {"GroupNormalization", 18}, {"Mish", 18},
      {"DeformConv", 19}, {"AffineGrid", 20},       {"Gelu", 20},        {"ImageDecoder", 20},
      {"RegexFullMatch", 20}, {"StringConcat", 20}, {"StringSplit", 20}, {"Attention", 23},
      {"RMSNormalization", 23}, {"RotaryEmbedding", 23}, {"Swish", 24}, {"TensorScatter", 24}};
  auto it = kAdded.find(op_type);
  return it == kAdded.end() ? 0 : it->second;
}

void CheckNewerModel(const onnx::ModelProto &m) {
  if (m.ir_version() < 1) throw Invalid("ir_version is missing");
  std::set<std::string> produced;
  for (const auto &in : m.graph().input()) produced.insert(in.name());
  for (const auto &t : m.graph().initializer()) produced.insert(t.name());
  for (const auto &n : m.graph().node()) {
    if (n.op_type().empty()) throw Invalid("node '" + n.name() + "' has no op_type");
    for (const auto &out : n.output())
      if (!out.empty() && !produced.insert(out).second)
        throw Invalid("tensor '" + out + "' is produced twice (node '" + n.name() + "')");
  }
}

}  // namespace openatc::frontend::onnx_detail
