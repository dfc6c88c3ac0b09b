// A small IR graph builder for the compiler tests (tests/compiler/graph_passes_test.cc,
// hardswish_pattern_test.cc, constant_folding_test.cc, ...): Data, Const and op nodes, a
// NetOutput, compiling with a fusion switch file, and looking at the compiled graph's nodes.
#ifndef OPENATC_TESTS_COMPILER_PASS_GRAPH_BUILDER_H_
#define OPENATC_TESTS_COMPILER_PASS_GRAPH_BUILDER_H_

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "openatc/compiler/compiler.h"
#include "openatc/om/model.h"
#include "openatc/runtime/model.h"
#include "run_command.h"

namespace pass_test {
using namespace openatc;

inline const opp::CompileOppSet &BuiltinOpp() {
  static opp::CompileOppSet *set = [] {
    auto *s = new opp::CompileOppSet();
    s->Load({}, testing::BuildPath("opp/built-in"));
    return s;
  }();
  return *set;
}

inline ir::TensorDesc Desc(ge::DataType dt, std::vector<int64_t> shape) {
  ir::TensorDesc d;
  d.dtype = dt;
  d.shape = shape;
  d.origin_shape = shape;
  return d;
}

inline ir::AttrValue Ints(std::vector<int64_t> v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListInt;
  a.list_i = std::move(v);
  return a;
}
inline ir::AttrValue Int(int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  return a;
}
inline ir::AttrValue Float(float v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kFloat;
  a.f = v;
  return a;
}

struct Builder {
  ir::Graph g;

  int32_t Add(ir::Node n) {
    n.input_descs.resize(n.inputs.size());
    g.nodes.push_back(std::move(n));
    return static_cast<int32_t>(g.nodes.size() - 1);
  }
  int32_t Data(const std::string &name, ge::DataType dt, std::vector<int64_t> shape) {
    ir::Node n;
    n.name = name;
    n.type = ir::kData;
    n.inputs = {{-1, 0}};
    n.attrs["index"] = Int(static_cast<int64_t>(g.inputs.size()));
    n.output_descs = {Desc(dt, shape)};
    int32_t i = Add(std::move(n));
    g.nodes.back().input_descs = {Desc(dt, shape)};
    g.inputs.push_back(i);
    return i;
  }
  int32_t Data(const std::string &name, std::vector<int64_t> shape) { return Data(name, ge::DT_FLOAT, shape); }
  template <typename T = float>
  int32_t Const(const std::string &name, std::vector<int64_t> shape, const std::vector<T> &v,
                ge::DataType dt = ge::DT_FLOAT) {
    return Const<T>(name, dt, shape, v);
  }
  template <typename T>
  int32_t Const(const std::string &name, ge::DataType dt, std::vector<int64_t> shape, const std::vector<T> &v) {
    ir::Node n;
    n.name = name;
    n.type = ir::kConst;
    ir::AttrValue a;
    a.kind = ir::AttrKind::kTensor;
    a.t = std::make_shared<ir::ConstTensor>();
    a.t->desc = Desc(dt, shape);
    a.t->data = ir::Bytes::Copy(v.data(), v.size() * sizeof(T));
    n.attrs["value"] = a;
    n.output_descs = {Desc(dt, shape)};
    return Add(std::move(n));
  }
  int32_t Op(const std::string &name, const std::string &type, std::vector<int32_t> inputs,
             std::map<std::string, ir::AttrValue> attrs = {}) {
    ir::Node n;
    n.name = name;
    n.type = type;
    for (int32_t i : inputs) n.inputs.push_back({i, 0});
    n.attrs = std::move(attrs);
    n.output_descs.resize(1);
    return Add(std::move(n));
  }
  void Output(std::vector<int32_t> nodes) {
    ir::Node n;
    n.name = "Node_Output";
    n.type = ir::kNetOutput;
    for (int32_t i : nodes) {
      n.inputs.push_back({i, 0});
      g.outputs.push_back({i, 0});
    }
    Add(std::move(n));
  }
};

/// A file with `text` in the temporary folder (removed by the caller or left for the OS).
inline std::string TempFile(const std::string &name, const std::string &text) {
  // The process id in the name: ctest runs the [layout] cases in three processes at once
  // (compiler_graph_passes, compiler_layout_avx2, compiler_layout_sse41), and one truncating a
  // switch file another is reading made that one compile with every pass on.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("openatc_passes_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path) << text;
  return path;
}

/// Compiles in process; `switch_file` "" = every pass on.
inline om::Model Compile(const ir::Graph &g, const std::string &switch_file = "") {
  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.model_path = "<pass test>";
  if (!switch_file.empty()) opts.ge_options["ge.fusionSwitchFile"] = switch_file;
  return compiler::CompileGraph(g, opts, BuiltinOpp());
}

inline std::string AllOn() { return TempFile("all_on.json", R"({"Switch": {"GraphFusion": {"ALL": "on"}}})"); }
inline std::string AllOff() { return TempFile("all_off.json", R"({"Switch": {"GraphFusion": {"ALL": "off"}}})"); }

inline HostTensor Host(std::vector<int64_t> shape, const std::vector<float> &v) {
  HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = shape;
  t.data.resize(v.size() * sizeof(float));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

inline std::vector<float> Values(const HostTensor &t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  std::memcpy(v.data(), t.data.data(), v.size() * sizeof(float));
  return v;
}

inline std::vector<HostTensor> RunModel(const om::Model &m, const std::vector<HostTensor> &inputs) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(m));
  auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<pass test>");
  return model->Run(inputs);
}

/// Deterministic values in [-1, 1) (a fixed linear congruential sequence).
inline std::vector<float> Pattern(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 8388608.0f - 1.0f;
  }
  return v;
}

/// Float32's unit roundoff, 2^-24 (the rounding bounds of the pass tests are multiples of it).
constexpr double kU = 1.0 / 16777216.0;

/// The node of `g` named `name` (the test fails when there is none).
inline const ir::Node &Named(const ir::Graph &g, const std::string &name) {
  const int32_t i = g.FindNode(name);
  REQUIRE(i >= 0);
  return g.nodes[static_cast<size_t>(i)];
}

/// The names a fusion recorded on `n` (attribute openatc_fused_nodes; empty when none).
inline std::vector<std::string> FusedList(const ir::Node &n) {
  auto it = n.attrs.find("openatc_fused_nodes");
  return it == n.attrs.end() ? std::vector<std::string>{} : it->second.list_s;
}

}  // namespace pass_test

#endif  // OPENATC_TESTS_COMPILER_PASS_GRAPH_BUILDER_H_
