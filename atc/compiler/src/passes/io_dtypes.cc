// atc --input_fp16_nodes and --output_type (precision.h, ApplyIoDtypes): the model's edges in
// the dtypes the user asked for. An input named in --input_fp16_nodes becomes a float16 input
// followed by a Cast to its original dtype; an output named by --output_type gets a Cast to that
// type (ONNX Cast rules, ops/Cast.cc). The Cast takes the output's node name (so the model output
// keeps its name) and the producer is renamed <name>/before_output_type.
#include <sstream>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "pass_util.h"
#include "precision.h"

namespace openatc::compiler::passes {
namespace {

std::vector<std::string> Split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string piece;
  while (std::getline(in, piece, sep))
    if (!piece.empty()) out.push_back(piece);
  return out;
}

// ATC's --output_type name -> dtype and ONNX Cast `to`; HIF8/HIF4/FP8 have no host type.
std::pair<ge::DataType, int64_t> OutputType(const std::string &t) {
  if (t == "FP32") return {ge::DT_FLOAT, 1};
  if (t == "FP16") return {ge::DT_FLOAT16, 10};
  if (t == "INT8") return {ge::DT_INT8, 3};
  if (t == "UINT8") return {ge::DT_UINT8, 2};
  throw Error(ErrorCategory::kUsage, "E10001", "--output_type " + t + " has no host dtype (HIF8, HIF4 and FP8 types "
                                               "exist on Ascend 950 chips only)",
              "Use FP32, FP16, INT8 or UINT8");
}

int32_t AddCast(PassGraph &pg, const std::string &name, ir::Endpoint in, ir::TensorDesc to, int64_t onnx_to) {
  ir::Node n;
  n.name = name;
  n.type = "Cast";
  n.inputs = {in};
  n.input_descs = {pg.g.nodes[static_cast<size_t>(in.node)].output_descs[static_cast<size_t>(in.index)]};
  n.output_descs = {std::move(to)};
  n.attrs["to"].kind = ir::AttrKind::kInt;
  n.attrs["to"].i = onnx_to;
  return pg.AddNode(std::move(n));
}

void InputsToFp16(PassGraph &pg, const std::string &list) {
  for (const std::string &name : Split(list, ';')) {
    const int32_t d = pg.g.FindNode(name);
    if (d < 0)
      throw Error(ErrorCategory::kUsage, "E10016", "--input_fp16_nodes names '" + name + "', which is not a node of the graph",
                  "Name the model's Data nodes");
    ir::Node &data = pg.node(d);
    if (data.type != ir::kData)
      throw Error(ErrorCategory::kUsage, "E10017", "--input_fp16_nodes names '" + name + "', a " + data.type +
                                                       " node: only Data nodes can be fed as float16",
                  "Name the model's Data nodes");
    const ir::TensorDesc original = data.output_descs.at(0);
    if (original.dtype == ge::DT_FLOAT16) continue;
    if (original.dtype != ge::DT_FLOAT && original.dtype != ge::DT_BF16 && original.dtype != ge::DT_DOUBLE)
      throw Error(ErrorCategory::kUsage, "E10001", "--input_fp16_nodes names '" + name + "', an input of a non-float dtype",
                  "Name float inputs only");
    data.output_descs[0].dtype = ge::DT_FLOAT16;
    if (!data.input_descs.empty()) data.input_descs[0].dtype = ge::DT_FLOAT16;
    const int64_t back = original.dtype == ge::DT_FLOAT ? 1 : original.dtype == ge::DT_BF16 ? 16 : 11;
    const int32_t cast = AddCast(pg, name + "/from_fp16", {d, 0}, original, back);
    pg.Redirect({d, 0}, {cast, 0});
    pg.node(cast).inputs[0] = {d, 0};  // Redirect also moved the Cast's own input
    LogInfo("--input_fp16_nodes: input '" + name + "' is float16, cast to " + DataTypeShortName(original.dtype));
  }
}

void OutputsTo(PassGraph &pg, const std::string &spec) {
  std::vector<std::pair<size_t, std::string>> targets;  // graph output index, type
  if (spec.find(':') == std::string::npos) {
    for (size_t r = 0; r < pg.g.outputs.size(); ++r) targets.push_back({r, spec});
  } else {
    for (const std::string &piece : Split(spec, ';')) {
      const size_t c2 = piece.rfind(':'), c1 = piece.rfind(':', c2 - 1);
      const std::string node = piece.substr(0, c1), type = piece.substr(c2 + 1);
      const int32_t index = std::stoi(piece.substr(c1 + 1, c2 - c1 - 1));
      for (size_t r = 0; r < pg.g.outputs.size(); ++r) {
        const ir::Endpoint &o = pg.g.outputs[r];
        if (pg.g.nodes[static_cast<size_t>(o.node)].name == node && o.index == index) targets.push_back({r, type});
      }
    }
  }
  for (const auto &[r, type] : targets) {
    const auto [dtype, onnx] = OutputType(type);
    const ir::Endpoint o = pg.g.outputs[r];
    ir::Node &p = pg.node(o.node);
    ir::TensorDesc d = p.output_descs.at(static_cast<size_t>(o.index));
    if (d.dtype == dtype) continue;
    d.dtype = dtype;
    const std::string name = p.name;
    const bool keep_producer_name = p.type == ir::kData || p.type == ir::kConst || p.type == ir::kConstant;
    if (!keep_producer_name) p.name = pg.FreshName(name + "/before_output_type");
    const int32_t cast = AddCast(pg, keep_producer_name ? name + "/output_type" : name, o, d, onnx);
    pg.g.outputs[r] = {cast, 0};
    for (size_t n = 0; n < pg.g.nodes.size(); ++n)  // NetOutput's input r is graph output r
      if (pg.g.nodes[n].type == ir::kNetOutput && r < pg.g.nodes[n].inputs.size() && pg.g.nodes[n].inputs[r] == o)
        pg.SetInput(static_cast<int32_t>(n), r, {cast, 0});
    LogInfo("--output_type: output " + std::to_string(r) + " ('" + name + "') is " + type);
  }
}

}  // namespace

void ApplyIoDtypes(ir::Graph &graph, const std::map<std::string, std::string> &ge_options,
                   const std::set<std::string> &builtin) {
  auto in = ge_options.find("ge.INPUT_NODES_SET_FP16");
  auto out = ge_options.find("ge.outputDatatype");
  const bool any_in = in != ge_options.end() && !in->second.empty();
  const bool any_out = out != ge_options.end() && !out->second.empty();
  if (!any_in && !any_out) return;
  PassGraph pg(graph, builtin);
  if (any_in) InputsToFp16(pg, in->second);
  if (any_out) OutputsTo(pg, out->second);
  pg.Finish();
}

}  // namespace openatc::compiler::passes
