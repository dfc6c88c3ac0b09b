// CompileGears: one static variant per gear in one OM (openatc/compiler/gears.h).
#include "openatc/compiler/gears.h"

#include <algorithm>
#include <string>
#include <utility>

#include "openatc/common/error.h"

namespace openatc::compiler {
namespace {

int64_t InputElements(const std::vector<InputShape> &shapes) {
  int64_t total = 0;
  for (const InputShape &s : shapes) {
    int64_t n = 1;
    for (int64_t d : s.dims) n *= d;
    total += n;
  }
  return total;
}

// Artifacts of a gear that the largest gear lacks (constant folding may keep other op types).
void MergeArtifacts(om::Model &into, const om::Model &gear) {
  for (const om::OpArtifact &a : gear.artifacts) {
    auto it = std::lower_bound(into.artifacts.begin(), into.artifacts.end(), a.op_type,
                               [](const om::OpArtifact &x, const std::string &t) { return x.op_type < t; });
    if (it == into.artifacts.end() || it->op_type != a.op_type) {
      if (a.deliverable >= 0)
        throw Error(ErrorCategory::kInternal, "E19999",
                    "gear compile: op type '" + a.op_type + "' appears in one gear only and comes from a deliverable",
                    "Compile the model without gears and report this");
      into.artifacts.insert(it, a);
    }
  }
}

// The main graph: the largest gear with the gear-selecting Data input appended last, and the
// user Data nodes marked with their --input_shape dims.
void AddShapeInput(ir::Graph &g, const std::vector<InputShape> &shapes, size_t values_per_gear) {
  for (const InputShape &s : shapes) {
    const int32_t idx = g.FindNode(s.name);
    if (idx < 0) continue;
    ir::AttrValue dims;
    dims.kind = ir::AttrKind::kListInt;
    dims.list_i = s.dims;
    g.nodes[static_cast<size_t>(idx)].attrs[om::kGearOriginDimsAttr] = dims;
  }
  ir::Node data;
  data.name = om::kGearShapeInput;
  data.type = ir::kData;
  ir::TensorDesc d;
  d.name = "y";
  d.dtype = ge::DT_INT32;
  d.format = ge::FORMAT_ND;
  d.origin_format = ge::FORMAT_ND;
  d.shape = {static_cast<int64_t>(values_per_gear)};
  d.origin_shape = d.shape;
  data.output_descs.push_back(d);
  ir::AttrValue index;
  index.kind = ir::AttrKind::kInt;
  index.i = static_cast<int64_t>(g.inputs.size());
  data.attrs["index"] = index;
  g.inputs.push_back(static_cast<int32_t>(g.nodes.size()));
  g.nodes.push_back(std::move(data));
}

}  // namespace

std::vector<InputShape> GearShapes(const std::vector<InputShape> &shapes, om::GearKind kind,
                                   const std::vector<int64_t> &gear) {
  std::vector<InputShape> out = shapes;
  size_t next = 0;
  for (InputShape &s : out) {
    if (kind != om::GearKind::kDims) next = 0;  // batch and image size: the same gear for every input
    for (int64_t &d : s.dims) {
      if (d != -1) continue;
      if (next >= gear.size())
        throw Error(ErrorCategory::kUsage, "E10003",
                    "a gear has " + std::to_string(gear.size()) + " value(s), fewer than the -1 dims of --input_shape",
                    "Give each gear one value per -1 of --input_shape");
      d = gear[next++];
    }
  }
  return out;
}

om::Model CompileGears(const ir::Graph &graph, const CompileOptions &options, const opp::CompileOppSet &opp,
                       om::GearKind kind, const std::vector<std::vector<int64_t>> &gears) {
  std::vector<om::Model> variants;
  size_t largest = 0;
  int64_t largest_elements = -1;
  for (size_t k = 0; k < gears.size(); ++k) {
    CompileOptions gear_options = options;
    gear_options.input_shapes = GearShapes(options.input_shapes, kind, gears[k]);
    const int64_t elements = InputElements(gear_options.input_shapes);
    if (elements > largest_elements) {
      largest = k;
      largest_elements = elements;
    }
    variants.push_back(CompileGraph(graph, gear_options, opp));
  }
  om::Model model = variants[largest];
  for (const om::Model &v : variants) MergeArtifacts(model, v);
  AddShapeInput(model.graph, options.input_shapes, gears[0].size());
  model.gear_kind = kind;
  for (const InputShape &s : options.input_shapes) model.gear_input_order.push_back(s.name);
  for (size_t k = 0; k < gears.size(); ++k) model.gears.push_back({gears[k], std::move(variants[k].graph)});
  return model;
}

}  // namespace openatc::compiler
