// The one-op harness: graph building, in-process compile with the built-in OPP root, OM round
// trip, load and run.
#include "op_harness.h"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "openatc/common/dtype.h"
#include "openatc/compiler/compiler.h"
#include "openatc/om/model.h"
#include "openatc/opp/deliverable.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/runtime/model.h"
#include "run_command.h"

namespace openatc::testing {

const opp::CompileOppSet &BuiltinOppSet() {
  static opp::CompileOppSet *set = [] {
    auto *s = new opp::CompileOppSet();
    s->Load({}, BuildPath("opp/built-in"));
    return s;
  }();
  return *set;
}

namespace {

ir::TensorDesc DescOf(const HostTensor &t, ge::Format format = ge::FORMAT_ND) {
  ir::TensorDesc d;
  d.format = format;
  d.origin_format = format;
  d.dtype = t.dtype;
  d.shape = t.shape;
  d.origin_shape = t.shape;
  return d;
}
}  // namespace

ir::AttrValue IntAttr(int64_t v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kInt;
  a.i = v;
  return a;
}
ir::AttrValue FloatAttr(float v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kFloat;
  a.f = v;
  return a;
}
ir::AttrValue StringAttr(const std::string &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kString;
  a.s = v;
  return a;
}
ir::AttrValue IntsAttr(const std::vector<int64_t> &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListInt;
  a.list_i = v;
  return a;
}
ir::AttrValue FloatsAttr(const std::vector<float> &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListFloat;
  a.list_f = v;
  return a;
}

namespace {

// The loaded model of `c` (its Data inputs' values go to `feeds`).
std::unique_ptr<runtime::LoadedModel> CompileAndLoad(const OpCase &c, std::vector<HostTensor> *feeds_out) {
  std::vector<HostTensor> &feeds = *feeds_out;
  ir::Graph g;
  g.name = "one_op";
  ir::Node op;
  op.name = "op";
  op.type = c.op_type;
  op.attrs = c.attrs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const OpInput &in = c.inputs[i];
    if (!in.tensor) {
      op.inputs.push_back({-1, 0});
      op.input_descs.emplace_back();
      continue;
    }
    ir::Node src;
    src.name = "in" + std::to_string(i);
    src.output_descs = {DescOf(*in.tensor, in.format)};
    if (in.as_const) {
      src.type = ir::kConst;
      ir::AttrValue v;
      v.kind = ir::AttrKind::kTensor;
      v.t = std::make_shared<ir::ConstTensor>();
      v.t->desc = DescOf(*in.tensor, in.format);
      v.t->data = ir::Bytes::Copy(in.tensor->data.data(), in.tensor->data.size());
      src.attrs["value"] = v;
    } else {
      src.type = ir::kData;
      src.inputs = {{-1, 0}};
      src.input_descs = {DescOf(*in.tensor, in.format)};
      if (!in.declared_shape.empty()) {
        for (ir::TensorDesc *d : {&src.input_descs[0], &src.output_descs[0]}) d->shape = d->origin_shape = in.declared_shape;
      }
      src.attrs["index"] = IntAttr(static_cast<int64_t>(feeds.size()));
      g.inputs.push_back(static_cast<int32_t>(g.nodes.size()));
      feeds.push_back(*in.tensor);
    }
    op.inputs.push_back({static_cast<int32_t>(g.nodes.size()), 0});
    op.input_descs.push_back(src.output_descs[0]);
    g.nodes.push_back(std::move(src));
  }
  op.output_descs.resize(c.num_outputs);
  const int32_t op_index = static_cast<int32_t>(g.nodes.size());
  g.nodes.push_back(std::move(op));
  ir::Node out;
  out.name = "Node_Output";
  out.type = ir::kNetOutput;
  for (size_t k = 0; k < c.num_outputs; ++k) {
    out.inputs.push_back({op_index, static_cast<int32_t>(k)});
    out.input_descs.emplace_back();
    g.outputs.push_back({op_index, static_cast<int32_t>(k)});
  }
  g.nodes.push_back(std::move(out));

  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.model_path = "<one-op " + c.op_type + ">";
  om::Model m = compiler::CompileGraph(std::move(g), opts, BuiltinOppSet());
  // Segments stored uncompressed: every case would otherwise zstd-compress and decompress the
  // embedded built-in ops library (megabytes; most of a case's time, ~5x more under ASan). The
  // container's codecs are tested in tests/om; here the OM round trip and the run are what count.
  om::WriteOptions write;
  write.compress_level = 0;
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(m, write));
  om::Model back = om::ReadBytes(bytes->data(), bytes->size(), bytes);
  return runtime::LoadedModel::Load(std::move(back), opts.model_path);
}

}  // namespace

std::vector<HostTensor> RunOp(const OpCase &c) {
  std::vector<HostTensor> feeds;
  auto loaded = CompileAndLoad(c, &feeds);
  return loaded->Run(feeds);
}

std::unique_ptr<runtime::LoadedModel> LoadOp(const OpCase &c, std::vector<HostTensor> *feeds) {
  return CompileAndLoad(c, feeds);
}

std::vector<std::vector<HostTensor>> RunOpRuns(const OpCase &c, const std::vector<std::vector<HostTensor>> &runs) {
  std::vector<HostTensor> feeds;
  auto loaded = CompileAndLoad(c, &feeds);
  std::vector<std::vector<HostTensor>> out;
  for (const auto &r : runs) out.push_back(loaded->Run(r));
  return out;
}

}  // namespace openatc::testing

namespace openatc::testing {

std::string RunOpExpectingFailure(const OpCase &c) {
  std::fflush(stderr);
  FILE *capture = std::tmpfile();
  if (capture == nullptr) throw std::runtime_error("tmpfile failed");
  const int saved = ::dup(2);
  ::dup2(::fileno(capture), 2);
  std::string error = "<no error>";
  try {
    RunOp(c);
  } catch (const Error &e) {
    error = e.what();
  }
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string printed;
  std::rewind(capture);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof(buf), capture)) > 0;) printed.append(buf, n);
  std::fclose(capture);
  return printed + error;
}

}  // namespace openatc::testing
