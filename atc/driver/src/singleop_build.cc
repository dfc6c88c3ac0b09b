// BuildSingleOps: `atc --singleop` (docs/atc-deploy-flags.md §5). Each op description becomes a
// graph Data... -> op -> NetOutput (constant inputs as Const nodes) compiled by the same pipeline
// as a model, and is written atomically to <--output>/<SingleOpFileName>. A failing op does not
// stop the others; atc still fails.
#include <sys/stat.h>

#include <cerrno>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "input_ranges.h"
#include "openatc/atc/driver.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/om/single_op.h"
#include "openatc/register/op_prototype.h"
#include "singleop_desc.h"

namespace openatc::atc {
namespace {

ir::AttrValue IntAttr(int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  return a;
}

// Data node bounds of the -1 dims (kInputShapeRangeAttr; fixed dims [d, d]).
void SetRange(ir::Node &data, const SingleOpTensor &t) {
  if (t.shape_range.empty()) return;
  ir::AttrValue r;
  r.kind = ir::AttrKind::kListListInt;
  size_t next = 0;
  for (int64_t d : t.desc.shape) r.list_list_i.push_back(d >= 0 ? std::vector<int64_t>{d, d}
                                                                : std::vector<int64_t>{t.shape_range[next].first,
                                                                                       t.shape_range[next++].second});
  data.attrs[kInputShapeRangeAttr] = std::move(r);
}

// How many of the description's outputs the op produces: its REG_OP prototype's outputs when it
// has a prototype without dynamic outputs (fewer is E13014; more are accepted and not built, as in
// GE), else all of them.
size_t BuiltOutputs(const SingleOpDesc &op) {
  const reg::OpPrototype *proto = reg::FindOpPrototype(op.type);
  if (proto == nullptr) return op.outputs.size();
  for (const auto &o : proto->outputs)
    if (o.second == reg::IrOutputKind::kDynamic) return op.outputs.size();
  if (op.outputs.size() < proto->outputs.size())
    throw Error(ErrorCategory::kGraph, "E13014",  // BuildOne adds the entry
                std::to_string(op.outputs.size()) + " output_desc entries, but the op has " +
                    std::to_string(proto->outputs.size()) + " outputs",
                "Describe every output of the op")
        .WithNode(op.name.empty() ? op.type : op.name, op.type);
  return proto->outputs.size();
}

ir::Graph GraphOf(const SingleOpDesc &op, const std::string &graph_name) {
  ir::Graph g;
  g.name = graph_name;
  ir::Node node;
  node.name = op.name.empty() ? op.type : op.name;
  node.type = op.type;
  ir::AttrValue names;
  names.kind = ir::AttrKind::kListString;
  for (const auto &[name, value] : op.attrs) {
    node.attrs[name] = value;
    names.list_s.push_back(name);
  }
  node.attrs[om::kSingleOpAttrNames] = std::move(names);
  for (size_t k = 0; k < op.inputs.size(); ++k) {
    const SingleOpTensor &t = op.inputs[k];
    node.input_descs.push_back(t.desc);
    if (!t.desc.valid) {
      node.inputs.push_back({-1, 0});
      continue;
    }
    ir::Node src;
    src.name = node.name + "_input" + std::to_string(k);
    if (t.is_const) {
      src.type = ir::kConst;
      auto value = std::make_shared<ir::ConstTensor>();
      value->desc = t.desc;
      value->data = t.const_value;
      ir::AttrValue a;
      a.kind = ir::AttrKind::kTensor;
      a.t = std::move(value);
      src.attrs["value"] = std::move(a);
    } else {
      src.type = ir::kData;
      src.inputs = {{-1, 0}};
      src.input_descs = {t.desc};
      src.attrs["index"] = IntAttr(static_cast<int64_t>(g.inputs.size()));
      SetRange(src, t);
      g.inputs.push_back(static_cast<int32_t>(g.nodes.size()));
    }
    src.output_descs = {t.desc};
    node.inputs.push_back({static_cast<int32_t>(g.nodes.size()), 0});
    g.nodes.push_back(std::move(src));
  }
  const size_t outputs = BuiltOutputs(op);
  for (size_t k = 0; k < outputs; ++k) node.output_descs.push_back(op.outputs[k].desc);
  const int32_t op_node = static_cast<int32_t>(g.nodes.size());
  g.nodes.push_back(std::move(node));
  ir::Node out;
  out.name = "NetOutput";
  out.type = ir::kNetOutput;
  for (size_t k = 0; k < outputs; ++k) {
    g.outputs.push_back({op_node, static_cast<int32_t>(k)});
    out.inputs.push_back(g.outputs.back());
    out.input_descs.push_back(op.outputs[k].desc);
  }
  g.nodes.push_back(std::move(out));
  return g;
}

[[noreturn]] void Refuse(const SingleOpDesc &op, const std::string &code, const std::string &what,
                         const std::string &fix) {
  throw Error(ErrorCategory::kGraph, code, op.Where() + ": " + what, fix).WithNode(op.name.empty() ? op.type : op.name, op.type);
}

void CheckOpType(const SingleOpDesc &op) {
  if (gert_impl::CustomOpRegistry::Global().Has(op.type)) return;
  std::string close;
  for (const std::string &c : ClosestRegisteredNames(op.type)) close += (close.empty() ? "" : ", ") + c;
  Refuse(op, "OA1104", "the op type '" + op.type + "' is not provided by the built-in operators or by any custom-op "
                       "deliverable under ASCEND_CUSTOM_OPP_PATH" + (close.empty() ? "" : " (close: " + close + ")"),
         "Use an op type OpenATC has, or set ASCEND_CUSTOM_OPP_PATH to the deliverable that registers '" + op.type + "'");
}

// The JSON's output descriptions against what shape inference produced.
void CheckOutputs(const SingleOpDesc &op, const om::Model &model) {
  for (size_t k = 0; k < op.outputs.size() && k < model.graph.outputs.size(); ++k) {
    const ir::Endpoint e = model.graph.outputs[k];
    const auto &descs = model.graph.nodes[static_cast<size_t>(e.node)].output_descs;
    if (static_cast<size_t>(e.index) >= descs.size()) continue;
    const ir::TensorDesc &got = descs[static_cast<size_t>(e.index)];
    const ir::TensorDesc &want = op.outputs[k].desc;
    const bool static_both = ShapeElementCount(got.shape) >= 0 && ShapeElementCount(want.shape) >= 0;
    if (got.dtype != want.dtype || (static_both && got.shape != want.shape))
      Refuse(op, "E13014",
             "output_desc[" + std::to_string(k) + "] says " + DataTypeShortName(want.dtype) + " " + ShapeToString(want.shape) +
                 ", but the op produces " + DataTypeShortName(got.dtype) + " " + ShapeToString(got.shape),
             "Describe the output as the op computes it");
  }
}

om::Model BuildOne(const SingleOpDesc &op, const std::string &file, const Options &options,
                   const compiler::CompileOptions &copts, const opp::CompileOppSet &opp_set) {
  CheckOpType(op);
  compiler::CompileOptions c = copts;
  c.build_record["compile_flag"] = std::to_string(op.compile_flag);
  c.build_record["singleop_entry"] = std::to_string(op.entry);
  om::Model model;
  try {
    model = CompileIrGraph(GraphOf(op, file.substr(0, file.size() - 3)), options, c, opp_set);
  } catch (const Error &e) {
    // The pipeline's error, with the entry it came from; inputs the op's prototype does not
    // accept are GE's E13014 for a single op.
    const bool inputs = e.code() == "OA1101" || e.code() == "OA1102";
    throw Error(inputs ? ErrorCategory::kGraph : e.category(), inputs ? "E13014" : e.code(), op.Where() + ": " + e.message(),
                e.hint())
        .WithNode(e.node(), e.op_type());
  }
  CheckOutputs(op, model);
  return model;
}

void MakeFolder(const std::string &dir) {
  for (size_t pos = dir.find('/', 1);; pos = dir.find('/', pos + 1)) {
    const std::string part = pos == std::string::npos ? dir : dir.substr(0, pos);
    struct stat st {};
    if (::stat(part.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + dir + "' for --output: '" + part + "' is a file",
                    "With --singleop, --output names the folder that receives one OM per op");
    } else if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      throw Error(ErrorCategory::kIo, "E13001", "cannot create the output folder '" + part + "'",
                  "Check --output and the folder's permissions");
    }
    if (pos == std::string::npos) return;
  }
}

}  // namespace

std::vector<std::string> BuildSingleOps(const Options &options) {
  const std::string json_path = options.other_flags.at("singleop");
  std::string dir = options.output;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + options.output + "' for --output: it is a file",
                "With --singleop, --output names the folder that receives one OM per op");
  const std::vector<SingleOpDesc> ops = ReadSingleOpFile(json_path);  // every description checked first
  if (ops.empty())
    throw Error(ErrorCategory::kUsage, "E10032", "--singleop: the file describes no op", "Add op descriptions")
        .WithFile(json_path);
  std::map<std::string, size_t> files;
  std::vector<std::string> names;
  for (const SingleOpDesc &op : ops) {
    names.push_back(SingleOpFileName(op));
    auto [it, fresh] = files.emplace(names.back(), op.entry);
    if (!fresh)
      throw Error(ErrorCategory::kUsage, "E10001",
                  op.Where() + " and entry " + std::to_string(it->second) + " would both be written to '" + names.back() + "'",
                  "Give the ops different \"name\" values")
          .WithFile(json_path);
  }
  compiler::CompileOptions copts = CompileOptionsFor(options);
  copts.model_path = json_path;
  copts.fold_constants = false;  // a single-op model runs its op, even on constant inputs
  opp::CompileOppSet opp_set;
  LoadCompileOppSet(opp_set, BuiltinOppRoot());
  std::vector<std::string> written;
  std::optional<Error> last;
  for (size_t i = 0; i < ops.size(); ++i) {
    try {
      om::Model model = BuildOne(ops[i], names[i], options, copts, opp_set);
      MakeFolder(dir);  // only once an OM is ready: a file with no buildable op leaves nothing
      const std::string path = dir + "/" + names[i];
      om::WriteFile(path, model, OmWriteOptions(options));
      written.push_back(path);
    } catch (Error &e) {
      e.WithFile(json_path);
      if (last) std::cerr << last->Format("atc") << std::endl;  // each failure is shown once
      last = e;
    }
  }
  if (last) throw *last;
  return written;
}

}  // namespace openatc::atc
