// ONNX through the atc and omrun binaries: --framework 5 by extension, --input_shape, --out_nodes,
// the unsupported-op error, and a checker rejection on the command line.
#include <catch2/catch.hpp>

#include <fstream>

#include "onnx_builder.h"
#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::testing;
using TP = onnx::TensorProto;

namespace {
// y = Relu(x + b): x float [N, 3] (dynamic N), b float [3] (a graph input too).
onnx::ModelProto AddRelu() {
  ModelSpec s;
  s.opset = 14;
  s.inputs = {Value("x", TP::FLOAT, {std::string("N"), int64_t{3}}), Value("b", TP::FLOAT, {int64_t{3}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  s.nodes = {Node("Add", {"x", "b"}, {"s"}, "add"), Node("Relu", {"s"}, {"y"}, "relu")};
  return MakeModel(s);
}

void WritePb(const std::string &path, const std::vector<int64_t> &dims, const std::vector<float> &v) {
  onnx::TensorProto t = FloatInit("t", dims, {});
  t.set_raw_data(std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float)));
  std::ofstream(path, std::ios::binary) << t.SerializeAsString();
}

std::vector<float> ReadOut(const std::string &path, std::vector<int64_t> *shape) {
  tensor_io::HostTensor t = tensor_io::ReadNpy(path);
  *shape = t.shape;
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

struct Dir {
  Dir() : path(MakeTempDir()) {}
  ~Dir() { RemoveTree(path); }
  std::string path;
};
}  // namespace

TEST_CASE("atc: an .onnx model compiles with --input_shape and runs in omrun") {
  Dir d;
  std::ofstream(d.path + "/m.onnx", std::ios::binary) << AddRelu().SerializeAsString();
  auto r = RunCommand({BuildPath("bin/atc"), "--model", d.path + "/m.onnx", "--soc_version", "host", "--output",
                       d.path + "/m", "--input_shape", "x:2,3;b:3"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  WritePb(d.path + "/x.pb", {2, 3}, {1, -2, 3, -4, 5, -6});
  WritePb(d.path + "/b.pb", {3}, {0.5f, 0.5f, 0.5f});
  auto run = RunCommand({BuildPath("bin/omrun"), d.path + "/m.om", "--input", d.path + "/x.pb," + d.path + "/b.pb",
                         "--output", d.path + "/out"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<int64_t> shape;
  CHECK(ReadOut(d.path + "/out/output_0.npy", &shape) == std::vector<float>{1.5f, 0, 3.5f, 0, 5.5f, 0});
  CHECK(shape == std::vector<int64_t>{2, 3});
}

TEST_CASE("atc: --out_nodes picks an ONNX node's output") {
  Dir d;
  std::ofstream(d.path + "/m.onnx", std::ios::binary) << AddRelu().SerializeAsString();
  auto r = RunCommand({BuildPath("bin/atc"), "--model", d.path + "/m.onnx", "--framework", "5", "--soc_version",
                       "host", "--output", d.path + "/m", "--input_shape", "x:1,3", "--out_nodes", "add:0"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  WritePb(d.path + "/x.pb", {1, 3}, {1, -2, 3});
  WritePb(d.path + "/b.pb", {3}, {-1.5f, 0, 0});
  auto run = RunCommand({BuildPath("bin/omrun"), d.path + "/m.om", "--input", d.path + "/x.pb," + d.path + "/b.pb",
                         "--output", d.path + "/out"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<int64_t> shape;
  CHECK(ReadOut(d.path + "/out/output_0.npy", &shape) == std::vector<float>{-0.5f, -2, 3});  // Add, before Relu
}

TEST_CASE("atc: --input_shape naming a non-input lists the ONNX inputs") {
  Dir d;
  std::ofstream(d.path + "/m.onnx", std::ios::binary) << AddRelu().SerializeAsString();
  auto r = RunCommand({BuildPath("bin/atc"), "--model", d.path + "/m.onnx", "--soc_version", "host", "--output",
                       d.path + "/m", "--input_shape", "z:1,3"});
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::Contains("--input_shape names 'z', which is not an input of the graph (inputs: x, b)"));
}

TEST_CASE("atc: ONNX ops without an implementation are listed in one error") {
  Dir d;
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{1}, int64_t{1}, int64_t{2}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  // A rarity no built-in implements yet (GlobalLpPool), twice: each node is listed.
  s.nodes = {Node("Relu", {"x"}, {"r"}, "relu"), Node("GlobalLpPool", {"r"}, {"h"}, "lpn"),
             Node("GlobalLpPool", {"h"}, {"y"}, "")};
  std::ofstream(d.path + "/m.onnx", std::ios::binary) << MakeModel(s).SerializeAsString();
  auto r = RunCommand({BuildPath("bin/atc"), "--model", d.path + "/m.onnx", "--soc_version", "host", "--output",
                       d.path + "/m"});
  CHECK(r.exit_code == 255);
  CHECK_THAT(r.err, Catch::Contains("atc: error: OA1503: '" + d.path + "/m.onnx': the model uses 2 feature(s) "
                                    "OpenATC cannot compile: node 'lpn' (GlobalLpPool, domain '', opset 13): op "
                                    "type 'GlobalLpPool' is not a built-in operator; node 'GlobalLpPool_2' "
                                    "(GlobalLpPool, domain '', opset 13): op type 'GlobalLpPool' is not a "
                                    "built-in operator."));
}

TEST_CASE("atc: the ezkl original model.onnx (beside its model_opset11.onnx) is rejected with the checker's message") {
  // ../shared/models/README.md (the data set's notes): where model_opsetN.onnx sits beside
  // model.onnx, the original is invalid (Equal on float at opset 10) and must be rejected.
  for (const char *name : {"ezkl-self-attention"}) {
    const std::string model = SourcePath("../shared/models/") + name + "/model.onnx";
    if (!std::ifstream(model)) {
      WARN("skipped: " << model << " is absent");
      continue;
    }
    Dir d;
    auto r = RunCommand({BuildPath("bin/atc"), "--model", model, "--soc_version", "host", "--output", d.path + "/m"});
    CHECK(r.exit_code == 255);
    CHECK_THAT(r.err, Catch::Contains("atc: error: E10041: '" + model + "': ONNX's checker"));
    CHECK_THAT(r.err, Catch::Contains("(op_type:Equal, node name: /attention/Equal): A typestr: T, has unsupported "
                                      "type: tensor(float)"));
  }
}
