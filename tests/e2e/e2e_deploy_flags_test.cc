// atc's deployment flags through the executables: one warning per flag without effect,
// --singleop's errors (tests/singleop has the builds), --mode=5, and an --input_shape range enforced when the OM runs.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
size_t Count(const std::string &s, const std::string &part) {
  size_t n = 0;
  for (size_t pos = s.find(part); pos != std::string::npos; pos = s.find(part, pos + 1)) ++n;
  return n;
}

tensor_io::HostTensor Ones(const std::vector<int64_t> &shape) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = shape;
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<float> v(n, 1.0f);
  t.data.resize(n * 4);
  if (n != 0) std::memcpy(t.data.data(), v.data(), t.data.size());  // an empty tensor has no data pointer
  return t;
}
}  // namespace

TEST_CASE("atc: a valid flag without effect is warned about once, naming it", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("Relu", {2, 3}));
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m", "--deterministic=1",
                   "--enable_small_channel=1", "--deterministic=1", "--oo_constant_folding=true", "--precision_mode=force_fp16"},
                  "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(Count(r.err, "atc: warning: --deterministic is recorded in the OM's build record but has no effect on the host "
                     "target\n") == 1);
  CHECK(Count(r.err, "atc: warning: --enable_small_channel is recorded in the OM's build record but has no effect "
                     "on the host target\n") == 1);
  CHECK(Count(r.err, "warning:") == 2);  // --oo_constant_folding and --precision_mode take effect on the host
  RemoveTree(dir);
}

TEST_CASE("atc: --singleop flags are validated; a file with no op is refused", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto alone = RunAtc({"--singleop=" + dir + "/ops.json"}, "");
  CHECK(alone.exit_code == 255);
  CHECK(alone.err == "atc: error: E10054: the required parameter --output is empty. Pass --output <folder> for the "
                     "single-op OMs.\n");
  WriteBytes(dir + "/ops.json", "[]");
  auto r = RunAtc({"--singleop=" + dir + "/ops.json", "--output", dir, "--soc_version", "host"}, "");
  CHECK(r.exit_code == 255);
  CHECK(r.err == "atc: error: E10032: '" + dir + "/ops.json': --singleop: the file describes no op. Add op "
                 "descriptions.\n");
  RemoveTree(dir);
}

TEST_CASE("atc: --mode=5 turns a GE text dump into the JSON mode 1 writes", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.txt",
             "graph {\n  name: \"g\"\n  op {\n    name: \"x\"\n    type: \"Data\"\n"
             "    output_desc { dtype: DT_FLOAT shape { dim: 2 } }\n  }\n"
             "  op {\n    name: \"r\"\n    type: \"Relu\"\n    input: \"x:0\"\n  }\n  output: \"r:0\"\n}\n");
  auto five = RunAtc({"--mode=5", "--om", dir + "/g.txt", "--json", dir + "/five.json"}, "");
  INFO(five.err);
  REQUIRE(five.exit_code == 0);
  REQUIRE(RunAtc({"--mode=1", "--om", dir + "/g.txt", "--json", dir + "/one.json"}, "").exit_code == 0);
  CHECK(ReadText(dir + "/five.json") == ReadText(dir + "/one.json"));
  CHECK(ReadText(dir + "/five.json").find("\"Relu\"") != std::string::npos);
  // Not a text dump: the text reader's error, exit 255.
  auto bad = RunAtc({"--mode=5", "--om", dir + "/five.json", "--json", dir + "/x.json"}, "");
  CHECK(bad.exit_code == 255);
  CHECK(bad.err.find("E10041: '" + dir + "/five.json': the text graph does not parse") != std::string::npos);
  RemoveTree(dir);
}

TEST_CASE("omrun: an input outside its --input_shape range is refused naming the range", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("Relu", {2, 3}));
  // The same range in --input_shape, or in the deprecated --input_shape_range (which overrides it).
  const bool deprecated = GENERATE(false, true);
  std::vector<std::string> args = {"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"};
  if (deprecated) {
    args.insert(args.end(), {"--input_shape", "x:2,3", "--input_shape_range", "x:[1~4,3]"});
  } else {
    args.insert(args.end(), {"--input_shape", "x:1~4,3"});
  }
  auto atc = RunAtc(args, "");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK((atc.err.find("atc: warning: --input_shape_range is deprecated: its ranges override --input_shape") !=
         std::string::npos) == deprecated);
  CHECK(atc.err.find("has no effect") == std::string::npos);
  for (int64_t n : {1, 4}) {
    tensor_io::WriteNpy(dir + "/in.npy", Ones({n, 3}));
    auto ok = RunOmrun({dir + "/m.om", "--input", dir + "/in.npy"});
    INFO(ok.err);
    CHECK(ok.exit_code == 0);
  }
  for (int64_t n : {0, 5}) {
    tensor_io::WriteNpy(dir + "/in.npy", Ones({n, 3}));
    auto out = RunOmrun({dir + "/m.om", "--input", dir + "/in.npy"});
    CHECK(out.exit_code == 3);
    CHECK(out.err.find("OA2202: '" + dir + "/m.om': input 0 ('x') got shape [" + std::to_string(n) +
                       ", 3], outside the range [1~4,3] the model was compiled for (--input_shape).") !=
          std::string::npos);
  }
  RemoveTree(dir);
}
