// ONNX models through atc with the bad --out_nodes and --input_shape values a new user tries: the
// error names the node, the index or rank asked for and what the graph has (the GE IR cases are
// in tests/e2e/e2e_bad_input_test.cc, with the unknown-rank case: ONNX's checker refuses a graph
// input without a shape, so only GE IR can declare one).
#include <catch2/catch.hpp>

#include <fstream>

#include "onnx_builder.h"
#include "run_command.h"

using namespace openatc::testing;
using TP = onnx::TensorProto;

namespace {
struct Dir {
  Dir() : path(MakeTempDir()) {}
  ~Dir() { RemoveTree(path); }
  std::string path;
};

// y = Relu(Conv(x, w)): x float [N, 1, 4, 4] (dynamic N), w a [1, 1, 3, 3] initializer.
onnx::ModelProto ConvRelu() {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("x", TP::FLOAT, {std::string("N"), int64_t{1}, int64_t{4}, int64_t{4}})};
  s.outputs = {Value("y", TP::FLOAT, {}, false)};
  s.initializers = {FloatInit("w", {1, 1, 3, 3}, std::vector<float>(9, 1.0f))};
  s.nodes = {Node("Conv", {"x", "w"}, {"c"}, "conv"), Node("Relu", {"c"}, {"y"}, "relu")};
  return MakeModel(s);
}

openatc::testing::CommandResult Atc(const Dir &d, const onnx::ModelProto &m, std::vector<std::string> extra) {
  std::ofstream(d.path + "/m.onnx", std::ios::binary) << m.SerializeAsString();
  std::vector<std::string> argv = {BuildPath("bin/atc"), "--model", d.path + "/m.onnx", "--soc_version", "host",
                                   "--output", d.path + "/m"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return RunCommand(argv, {}, {"ASCEND_CUSTOM_OPP_PATH"});
}
}  // namespace

TEST_CASE("atc: ONNX --out_nodes past a node's outputs names the node, the index and the count") {
  Dir d;
  auto r = Atc(d, ConvRelu(), {"--input_shape", "x:1,1,4,4", "--out_nodes", "conv:1"});
  CHECK(r.exit_code == 255);
  CHECK(r.err == "atc: error: E10001: '" + d.path + "/m.onnx': node 'conv' (Conv): --out_nodes asks for output 1 of "
                 "the node, which has 1 output(s). Pass an output index in 0..0, e.g. \"conv:0\".\n");
  auto unknown = Atc(d, ConvRelu(), {"--input_shape", "x:1,1,4,4", "--out_nodes", "Conv:0"});
  CHECK(unknown.exit_code == 255);
  CHECK(unknown.err == "atc: error: E10001: '" + d.path + "/m.onnx': --out_nodes names node 'Conv', which is not in "
                       "the graph. Use node names from the model (atc --mode=1 --om <model> --json <file> lists "
                       "them).\n");
}

TEST_CASE("atc: ONNX --input_shape of the wrong rank is refused before the Conv sees it") {
  Dir d;
  auto r = Atc(d, ConvRelu(), {"--input_shape", "x:1,4,4"});
  CHECK(r.exit_code == 255);
  CHECK(r.err == "atc: error: E10001: '" + d.path + "/m.onnx': node 'x' (Data): --input_shape entry 'x:1,4,4' gives "
                 "3 dims, but the graph declares input 'x' with 4 dims: [-1, 1, 4, 4]. Give 4 dims for 'x' (-1 keeps "
                 "a dim unknown), e.g. \"x:-1,1,4,4\".\n");
  auto name = Atc(d, ConvRelu(), {"--input_shape", "w:1,1,3,3"});
  CHECK(name.exit_code == 255);
  CHECK(name.err == "atc: error: E10001: '" + d.path + "/m.onnx': --input_shape names 'w', which is not an input of "
                    "the graph (inputs: x). Use the names of the graph's inputs (Data nodes).\n");
  auto fixed = Atc(d, ConvRelu(), {"--input_shape", "x:2,1,5,5"});
  INFO(fixed.err);
  CHECK(fixed.exit_code == 0);
  CHECK(fixed.err == "atc: warning: node 'x' (Data): --input_shape entry 'x:2,1,5,5' changes the graph's fixed shape "
                     "[-1, 1, 4, 4] (dim 2 4 -> 5, dim 3 4 -> 5). If an operator then fails on its shapes, check "
                     "that the model supports this shape\n");
}
