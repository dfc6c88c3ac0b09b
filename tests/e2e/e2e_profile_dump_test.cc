// omrun --profile and --dump (loader/omrun/src/profile_trace.h, loader/dump/include/openatc/dump/node_dump.h) on an ONNX model
// written here: x -> Conv(1x1, w=2) -> BatchNormalization(B=0.5, eps=0) -> Relu -> Add(1) -> y.
// atc folds the BatchNormalization into the Conv (the post-op fusion of the Relu is switched off
// here, so that three op nodes run); every value is exact:
// x = [-2, -1, 0, 3] gives 2x + 0.5 = [-3.5, -1.5, 0.5, 6.5], Relu [0, 0, 0.5, 6.5], y = [1, 1, 1.5, 7.5].
#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

void Shape(onnx::ValueInfoProto *vi, const std::string &name) {
  vi->set_name(name);
  auto *tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int d : {1, 1, 1, 4}) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

void Init(onnx::GraphProto *g, const std::string &name, std::vector<int64_t> dims, float value) {
  auto *t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  t->add_float_data(value);
}

onnx::NodeProto *Node(onnx::GraphProto *g, const std::string &name, const std::string &type,
                      std::vector<std::string> in) {
  auto *n = g->add_node();
  n->set_name(name);
  n->set_op_type(type);
  for (const auto &i : in) n->add_input(i);
  n->add_output(name + "_out");
  return n;
}

std::string Model(float bias = 0.5f) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("profile_dump");
  Shape(g->add_input(), "x");
  Init(g, "w", {1, 1, 1, 1}, 2.0f);
  Init(g, "scale", {1}, 1.0f);
  Init(g, "bias", {1}, bias);
  Init(g, "mean", {1}, 0.0f);
  Init(g, "var", {1}, 1.0f);
  Init(g, "one", {1}, 1.0f);
  Node(g, "conv", "Conv", {"x", "w"});
  auto *bn = Node(g, "bn", "BatchNormalization", {"conv_out", "scale", "bias", "mean", "var"});
  auto *eps = bn->add_attribute();
  eps->set_name("epsilon");
  eps->set_type(onnx::AttributeProto::FLOAT);
  eps->set_f(0.0f);
  Node(g, "relu", "Relu", {"bn_out"});
  Node(g, "add", "Add", {"relu_out", "one"});
  Shape(g->add_output(), "add_out");
  std::string bytes;
  m.SerializeToString(&bytes);
  return bytes;
}

std::vector<float> Values(const tensor_io::HostTensor &t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

// Compiles with the fusion switch file lines `switches` (atc/compiler/src/passes/fusion_switch.cc).
void Compile(const std::string &dir, const std::string &name, float bias,
             const std::string &switches = "ConvActivationFusionPass:off\nConvAddFusionPass:off\n") {
  WriteBytes(dir + "/" + name + ".onnx", Model(bias));
  WriteBytes(dir + "/" + name + ".switch", switches);
  std::vector<std::string> args = {"--model", dir + "/" + name + ".onnx", "--framework", "5", "--soc_version", "host",
                                   "--output", dir + "/" + name, "--fusion_switch_file", dir + "/" + name + ".switch"};
  auto atc = RunAtc(args, "");
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
}

// Compiles the model as m.om and writes x; returns the folder.
std::string Prepare() {
  const std::string dir = MakeTempDir();
  Compile(dir, "m", 0.5f);
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {1, 1, 1, 4};
  const std::vector<float> xs = {-2, -1, 0, 3};
  x.data.resize(16);
  std::memcpy(x.data.data(), xs.data(), 16);
  tensor_io::WriteNpy(dir + "/x.npy", x);
  return dir;
}

nlohmann::json ReadJson(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("omrun --dump writes each op node's output of the first run, named by node, with the fused nodes",
          "[e2e][omrun][dump]") {
  const std::string dir = Prepare();
  auto run = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--dump", dir + "/d", "--loop", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json index = ReadJson(dir + "/d/index.json");
  REQUIRE(index["format"] == "openatc-dump/1");
  const auto &nodes = index["nodes"];
  REQUIRE(nodes.size() == 3);
  REQUIRE(nodes[0]["op_type"] == "Conv");
  REQUIRE(nodes[0]["fused_nodes"] == nlohmann::json::array({"conv", "bn"}));
  REQUIRE(nodes[1]["name"] == "relu");
  REQUIRE(nodes[2]["name"] == "add");
  const std::vector<std::vector<float>> want = {{-3.5f, -1.5f, 0.5f, 6.5f}, {0, 0, 0.5f, 6.5f}, {1, 1, 1.5f, 7.5f}};
  for (size_t i = 0; i < 3; ++i) {
    const auto &out = nodes[i]["outputs"][0];
    REQUIRE(out["shape"] == nlohmann::json::array({1, 1, 1, 4}));
    REQUIRE(out["dtype"] == "float32");
    REQUIRE(Values(tensor_io::ReadNpy(dir + "/d/" + out["file"].get<std::string>())) == want[i]);
  }
  SECTION("a second dump replaces the first; a folder that is not a dump is refused before the run") {
    auto again = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--dump", dir + "/d"});
    REQUIRE(again.exit_code == 0);
    REQUIRE(ReadJson(dir + "/d/index.json")["nodes"].size() == 3);
    std::filesystem::create_directories(dir + "/other");
    WriteBytes(dir + "/other/keep.txt", "mine");
    auto refused = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--dump", dir + "/other"});
    REQUIRE(refused.exit_code == 7);
    REQUIRE(refused.err.find("omrun: error: OA2304: cannot write the --dump folder '" + dir +
                             "/other': it holds files that are not an omrun dump") != std::string::npos);
    REQUIRE(refused.out.find("output 0") == std::string::npos);  // refused before running
    REQUIRE(std::filesystem::exists(dir + "/other/keep.txt"));
  }
}

TEST_CASE("omrun --profile writes one trace event per op node per run and prints the time by op type",
          "[e2e][omrun][profile]") {
  const std::string dir = Prepare();
  auto run = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--profile", dir + "/t.json", "--warmup", "1",
                       "--loop", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.out.find("profile: 12 node events") != std::string::npos);  // 3 nodes x (first + warmup + 2 timed)
  REQUIRE(run.out.find("  Conv ") != std::string::npos);
  REQUIRE(run.out.find("profile written to " + dir + "/t.json") != std::string::npos);
  const nlohmann::json trace = ReadJson(dir + "/t.json");
  std::vector<std::string> names, runs;
  size_t conv_kernels = 0;
  for (const auto &e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    REQUIRE(e["dur"].get<double>() >= 0);
    if (e["cat"] == "run") {
      runs.push_back(e["name"]);
      continue;
    }
    names.push_back(e["name"]);
    // The kernels each node ran, as the built-in library reports them: the Conv's oneDNN
    // convolution (after the reorder into its blocked layout), in every run; the other nodes'
    // records never carry the Conv's.
    const std::string kernel = e["args"].value("kernel", "");
    INFO(e["name"] << " kernel: " << kernel);
    if (e["args"]["op_type"] == "Conv") {
      REQUIRE(kernel.find("convolution ") != std::string::npos);
      ++conv_kernels;
    } else {
      REQUIRE(kernel.find("convolution") == std::string::npos);
    }
    if (e["name"] == "relu") {
      REQUIRE(e["args"]["op_type"] == "Relu");
      REQUIRE(e["args"]["inputs"] == nlohmann::json::array({"float32[1, 1, 1, 4] ND"}));
      REQUIRE(e["args"]["outputs"] == nlohmann::json::array({"float32[1, 1, 1, 4] ND"}));
    }
  }
  REQUIRE(runs == std::vector<std::string>{"run 0 (first)", "run 1 (warmup)", "run 2 (timed)", "run 3 (timed)"});
  REQUIRE(names.size() == 12);
  REQUIRE(conv_kernels == 4);
  for (size_t r = 0; r < 4; ++r) {
    REQUIRE(names[3 * r + 1] == "relu");
    REQUIRE(names[3 * r + 2] == "add");
  }
}

TEST_CASE("omrun --compare matches two builds node by node and names what each fused away", "[e2e][omrun][compare]") {
  const std::string dir = Prepare();
  Compile(dir, "unfused", 0.5f, "ConvBatchNormFoldPass:off\nConvActivationFusionPass:off\nConvAddFusionPass:off\n");
  auto run = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--compare", dir + "/unfused.om"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // The folded Conv is named after the BatchNormalization it absorbed, so bn:0 exists in both.
  REQUIRE(run.out.find("compare node bn:0 (Conv): PASS cosine 1.00000000 max_abs_err 0 max_rel_err 0\n") !=
          std::string::npos);
  REQUIRE(run.out.find("compare node relu:0 (Relu): PASS") != std::string::npos);
  REQUIRE(run.out.find("compare node add:0 (Add): PASS") != std::string::npos);
  REQUIRE(run.out.find("fused away in this build: conv (into bn)\n") != std::string::npos);
  REQUIRE(run.out.find("compared 3 node output(s); all within tolerance") != std::string::npos);

  SECTION("a build that differs: the first node beyond tolerance, exit 1; a dump folder works as OTHER") {
    Compile(dir, "shifted", 0.75f);
    auto dump = RunOmrun({dir + "/shifted.om", "--input", dir + "/x.npy", "--dump", dir + "/shifted_dump"});
    REQUIRE(dump.exit_code == 0);
    auto diff = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--compare", dir + "/shifted_dump"});
    INFO(diff.out << diff.err);
    REQUIRE(diff.exit_code == 1);
    REQUIRE(diff.out.find("compare node bn:0 (Conv): FAIL cosine ") != std::string::npos);
    REQUIRE(diff.out.find(" max_abs_err 0.25 ") != std::string::npos);
    REQUIRE(diff.out.find("first node beyond tolerance: bn:0\n") != std::string::npos);
  }
  SECTION("OTHER must exist, and a folder must be a dump") {
    auto missing = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--compare", dir + "/nope.om"});
    REQUIRE(missing.exit_code == 2);
    REQUIRE(missing.err.find("E10001: invalid value '" + dir + "/nope.om' for --compare: no such file or folder") !=
            std::string::npos);
    std::filesystem::create_directories(dir + "/empty");
    auto notdump = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--compare", dir + "/empty"});
    REQUIRE(notdump.exit_code == 2);
    REQUIRE(notdump.err.find("OA2305: '" + dir + "/empty' is not an omrun dump") != std::string::npos);
  }
}

namespace {
// x [1,C,4,4] -> Conv a (1x1, C->C) -> Conv b (1x1, C->C) -> y: layout planning keeps a's output
// in oneDNN's blocked layout (its reader b is a blockable Conv): nChw8c for C = 8; for C = 16
// the chain may be 16-wide, nChw16c on a CPU that runs oneDNN's AVX-512 kernels
// (include/openatc/chain_block.h).
std::string TwoConvModel(int c) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("two_conv");
  for (const char *name : {"x", "b_out"}) {
    auto *vi = name[0] == 'x' ? g->add_input() : g->add_output();
    vi->set_name(name);
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (int d : {1, c, 4, 4}) tt->mutable_shape()->add_dim()->set_dim_value(d);
  }
  for (const char *w : {"wa", "wb"}) {
    auto *t = g->add_initializer();
    t->set_name(w);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int d : {c, c, 1, 1}) t->add_dims(d);
    for (int o = 0; o < c; ++o)
      for (int i = 0; i < c; ++i) t->add_float_data(static_cast<float>((o + 1) * (w[1] == 'a' ? 1 : -1) + i) / 16.0f);
  }
  Node(g, "a", "Conv", {"x", "wa"});
  Node(g, "b", "Conv", {"a_out", "wb"});
  std::string bytes;
  m.SerializeToString(&bytes);
  return bytes;
}

// The chain block expected here for a 16-wide chain, from the CPU's own flags: 0 when oneDNN's
// ISA limit is set (the test then does not guess which block it gives).
int ExpectedWideBlock() {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr || std::getenv("DNNL_MAX_CPU_ISA") != nullptr) return 0;
  return __builtin_cpu_supports("avx512f") ? 16 : 8;
}
}  // namespace

TEST_CASE("omrun --dump writes a blocked tensor in NCHW: a blocked and a plain build compare equal",
          "[e2e][omrun][dump]") {
  const int c = GENERATE(8, 16);
  INFO("C = " << c);
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/m.onnx", TwoConvModel(c));
  WriteBytes(dir + "/plain.switch", "LayoutPlanningPass:off\n");
  for (const std::string name : {"blocked", "plain"}) {
    std::vector<std::string> args = {"--model", dir + "/m.onnx", "--framework", "5", "--soc_version", "host",
                                     "--output", dir + "/" + name};
    if (name == "plain") args.insert(args.end(), {"--fusion_switch_file", dir + "/plain.switch"});
    auto atc = RunAtc(args, "");
    INFO(atc.out << atc.err);
    REQUIRE(atc.exit_code == 0);
  }
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {1, c, 4, 4};
  std::vector<float> xs(size_t(c) * 16);
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i % 13) / 8.0f - 0.75f;
  x.data.resize(xs.size() * 4);
  std::memcpy(x.data.data(), xs.data(), x.data.size());
  tensor_io::WriteNpy(dir + "/x.npy", x);
  auto run = RunOmrun({dir + "/blocked.om", "--input", dir + "/x.npy", "--dump", dir + "/d", "--compare",
                       dir + "/plain.om", "--atol", "1e-5", "--rtol", "1e-5", "--profile", dir + "/t.json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.out.find("compare node a:0 (Conv): PASS") != std::string::npos);
  REQUIRE(run.out.find("compared 2 node output(s); all within tolerance") != std::string::npos);
  // And the dumped a:0 is NCHW: element (c, h, w) = sum_i wa[c][i] * x[i][h][w], checked at c = 5, (h, w) = (2, 3).
  const auto a = Values(tensor_io::ReadNpy(dir + "/d/a.0.npy"));
  double want = 0;
  for (int i = 0; i < c; ++i) want += static_cast<double>((5 + 1) + i) / 16.0 * xs[size_t(i * 16 + 2 * 4 + 3)];
  REQUIRE(std::fabs(a[5 * 16 + 2 * 4 + 3] - want) <= 1e-5 * std::max(1.0, std::fabs(want)));
  // The profile names the layout a computed in and the oneDNN convolution that computed it.
  std::ifstream tf(dir + "/t.json");
  const nlohmann::json trace = nlohmann::json::parse(tf);
  const int block = c == 8 ? 8 : ExpectedWideBlock();
  bool seen = false;
  for (const auto &e : trace["traceEvents"])
    if (e["name"] == "a") {
      seen = true;
      if (block > 0) REQUIRE(e["args"]["layout"] == "nChw" + std::to_string(block) + "c (oneDNN blocked)");
      const std::string kernel = e["args"].value("kernel", "");
      INFO("kernel: " << kernel);
      REQUIRE(kernel.find("convolution ") != std::string::npos);
    }
  REQUIRE(seen);
}
