// ReadOnnxFile / ReadOnnxBytes: parse ModelProto, ONNX checker, ONNX shape inference, conversion
// (see openatc/frontend/onnx_reader.h for the steps and errors).
#include "openatc/frontend/onnx_reader.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <climits>
#include <fstream>
#include <set>
#include <sstream>

#include "onnx_internal.h"
#include "openatc/common/log.h"

namespace openatc::frontend {
namespace {

// The checker's full check (onnx.checker.check_model(full_check=True)): type checking and strict
// shape inference; the inferred value_info and output types are copied into `model`. It runs on a
// copy whose Constant nodes (with a `value` tensor) are initializers, as the conversion treats
// them: old exporters emit int64 Constants at opsets whose Constant schema allows floats only
// (ONNX Runtime accepts them, e.g. pytorch-converted/test_PixelShuffle), while a wrong input
// type of a real op (Equal on float at opset 10) is still rejected.
void FullCheck(onnx::ModelProto &model) {
  onnx::ModelProto copy = model;
  if (copy.ir_version() < 4) copy.set_ir_version(4);  // initializers need not be inputs (IR 4)
  auto *g = copy.mutable_graph();
  google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
  for (auto &n : *g->mutable_node()) {
    const bool plain = (n.domain().empty() || n.domain() == "ai.onnx") && n.op_type() == "Constant" &&
                       n.output_size() == 1 && n.attribute_size() == 1 && n.attribute(0).name() == "value" &&
                       n.attribute(0).has_t();
    if (!plain) {
      *kept.Add() = n;
      continue;
    }
    onnx::TensorProto *t = g->add_initializer();
    *t = n.attribute(0).t();
    t->set_name(n.output(0));
  }
  g->mutable_node()->Swap(&kept);
  onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(),
                                     onnx::ShapeInferenceOptions(/*check_type=*/true, /*error_mode=*/1));
  *model.mutable_graph()->mutable_value_info() = copy.graph().value_info();
  *model.mutable_graph()->mutable_output() = copy.graph().output();
}

// libonnx 1.12's checker and its full check, for models of IR <= 8 and opsets <= 17 (E10041 with
// ONNX's message; the advice says "too old" only for a model of IR < 3 or opset < 7).
void RunLibonnxChecker(onnx::ModelProto &model) {
  using namespace onnx_detail;
  const std::string advice =
      IsOldModel(model) ? "The model is old (IR version " + std::to_string(model.ir_version()) +
                              "): re-export it at a newer opset (7 to " + std::to_string(kMaxOpset) + ")"
                        : std::string("Fix the model so that onnx.checker.check_model(model, full_check=True) "
                                      "accepts it");
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    throw Error(ErrorCategory::kGraph, "E10041", std::string("ONNX's checker rejects the model: ") + e.what(), advice);
  }
  try {
    FullCheck(model);
  } catch (const std::exception &e) {
    throw Error(ErrorCategory::kGraph, "E10041",
                std::string("ONNX's checker (full check: types and shapes) rejects the model: ") + e.what(), advice);
  }
}

}  // namespace

ir::Graph ReadOnnxBytes(const std::string &bytes, const std::string &model_dir, const std::string &name_for_errors,
                        const OnnxOptions &options) {
  using namespace onnx_detail;
  try {
    onnx::ModelProto model;
    if (bytes.size() > static_cast<size_t>(INT_MAX)) {
      throw Error(ErrorCategory::kGraph, "E10041", "the file is larger than 2 GiB, protobuf's limit for one message",
                  "Store the weights as external data (onnx.save_model(..., save_as_external_data=True))");
    }
    google::protobuf::io::CodedInputStream stream(reinterpret_cast<const uint8_t *>(bytes.data()),
                                                  static_cast<int>(bytes.size()));
    stream.SetTotalBytesLimit(INT_MAX);
    if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage()) {
      throw Error(ErrorCategory::kGraph, "E10041",
                  "the file does not parse as an ONNX ModelProto (binary protobuf); it is truncated or not an ONNX "
                  "model",
                  "Pass a .onnx file saved by onnx.save_model or an exporter");
    }
    CheckIsModelWeRead(model);
    TensorContext ctx{model_dir};
    auto *graph = model.mutable_graph();
    for (auto &t : *graph->mutable_initializer()) InlineExternalData(&t, ctx, "initializer '" + t.name() + "'");
    for (auto &n : *graph->mutable_node())
      for (auto &a : *n.mutable_attribute())
        if (a.has_t()) InlineExternalData(a.mutable_t(), ctx, "node '" + n.name() + "' attribute '" + a.name() + "'");
    const std::set<int> no_schema = NodesWithoutSchema(model);
    if (LibonnxKnowsVersions(model) && no_schema.empty()) {
      RunLibonnxChecker(model);
    } else {
      // libonnx 1.12's checker would refuse the versions alone, or stop at the first op type ONNX
      // does not define (the conversion lists them all in one OA1503, or maps them to custom ops).
      CheckNewerModel(model);
    }
    ir::Graph g = ConvertModel(model, ctx, options.is_supported_op, no_schema, options.map_custom_op);
    LogDebug("ONNX model '" + name_for_errors + "': " + std::to_string(g.nodes.size()) + " IR nodes");
    return g;
  } catch (Error &e) {
    e.WithFile(name_for_errors);
    throw;
  }
}

ir::Graph ReadOnnxFile(const std::string &path, const OnnxOptions &options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw Error(ErrorCategory::kIo, onnx_detail::kOpenError,
                std::string("cannot open the model file: ") + std::strerror(errno), "Check --model")
        .WithFile(path);
  }
  if (!S_ISREG(st.st_mode)) {
    throw Error(ErrorCategory::kIo, onnx_detail::kOpenError,
                S_ISDIR(st.st_mode) ? "the model path is a directory" : "the model path is not a regular file",
                "Pass the .onnx file itself to --model")
        .WithFile(path);
  }
  if (st.st_size == 0) {
    throw Error(ErrorCategory::kGraph, "E10041", "the model file is empty (0 bytes)",
                "Pass a .onnx file saved by onnx.save_model or an exporter")
        .WithFile(path);
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (!in) {
    throw Error(ErrorCategory::kIo, onnx_detail::kOpenError, "cannot read the model file", "Check its permissions")
        .WithFile(path);
  }
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  return ReadOnnxBytes(buf.str(), dir, path, options);
}

}  // namespace openatc::frontend
