// Static-model execution: launches recorded on the first run and replayed afterwards, fixed
// buffers for ordinary nodes, ArgsUpdater retargeting to the caller's buffers, and the eager mode
// for comparison. Models are compiled with the atc binary, then loaded in-process.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "float_tensors.h"
#include "openatc/common/error.h"
#include "openatc/runtime/model.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
std::string Compile(const std::string &dir, const std::string &json, const std::string &opp) {
  WriteBytes(dir + "/g.json", json);
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"}, opp);
  if (r.exit_code != 0) FAIL(r.err);
  return dir + "/m.om";
}

std::string AddGraph(const std::string &type, int64_t n) {
  const std::string d = "{ \"dtype\": \"DT_FLOAT\", \"shape\": { \"dim\": [\"" + std::to_string(n) + "\"] } }";
  return "{ \"graph\": [ { \"name\": \"g\", \"output\": [\"add:0\"], \"op\": [ "
         "{ \"name\": \"x\", \"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"0\" } }, "
         "\"outputDesc\": [" + d + "] }, "
         "{ \"name\": \"y\", \"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"1\" } }, "
         "\"outputDesc\": [" + d + "] }, "
         "{ \"name\": \"add\", \"type\": \"" + type + "\", \"input\": [\"x:0\", \"y:0\"] } ] } ] }";
}

HostTensor Floats(const std::vector<float> &v) { return FloatTensor({static_cast<int64_t>(v.size())}, v); }
std::vector<float> AsFloats(const HostTensor &t) { return FloatsOf(t); }
}  // namespace

TEST_CASE("a static model calls Execute once and replays; eager calls it every run", "[runtime]") {
  const std::string dir = MakeTempDir();
  const std::string om = Compile(dir, UnaryGraphJson("ExecuteCountOp", {3}), BuildPath("tests/opp/lifecycle"));
  auto m = runtime::LoadModelFile(om);
  // Replay: the recording's k (1) stays, while the inputs change between runs.
  CHECK(AsFloats(m->Run({Floats({1, 2, 3})})[0]) == std::vector<float>{2, 3, 4});
  CHECK(AsFloats(m->Run({Floats({10, 20, 30})})[0]) == std::vector<float>{11, 21, 31});
  CHECK(AsFloats(m->Run({Floats({0, 0, 0})})[0]) == std::vector<float>{1, 1, 1});
  // Eager: Execute on every run, k counts on (same op object: 2, 3).
  m->set_execution_mode(runtime::ExecutionMode::kEager);
  CHECK(AsFloats(m->Run({Floats({0, 0, 0})})[0]) == std::vector<float>{2, 2, 2});
  CHECK(AsFloats(m->Run({Floats({0, 0, 0})})[0]) == std::vector<float>{3, 3, 3});
  RemoveTree(dir);
}

TEST_CASE("ArgsUpdater retargets replayed launches to each caller buffer set", "[runtime]") {
  const std::string dir = MakeTempDir();
  const std::string opp = BuildPath("examples/args_refresh_add_custom/opp");
  for (const std::string type : {"AddRefreshOp", "AddNoRefreshOp"}) {
    const int64_t n = 3000;  // 3 blocks of 1024
    auto m = runtime::LoadModelFile(Compile(dir, AddGraph(type, n), opp));
    std::vector<float> x[2], y[2], z[2];
    for (int s = 0; s < 2; ++s) {
      for (int64_t i = 0; i < n; ++i) {
        x[s].push_back(static_cast<float>(i) * (s + 1));
        y[s].push_back(0.5f * static_cast<float>(s + 1));
      }
      z[s].assign(static_cast<size_t>(n), -1.0f);
    }
    for (int run = 0; run < 6; ++run) {
      const int s = run % 2;
      x[s][0] = static_cast<float>(run);  // data changes too
      m->RunWithBuffers({{x[s].data(), static_cast<size_t>(n) * 4}, {y[s].data(), static_cast<size_t>(n) * 4}},
                        {{z[s].data(), static_cast<size_t>(n) * 4}});
      INFO(type << " run " << run);
      bool ok = true;
      for (int64_t i = 0; i < n; ++i) ok = ok && z[s][static_cast<size_t>(i)] == x[s][static_cast<size_t>(i)] + y[s][static_cast<size_t>(i)];
      CHECK(ok);
    }
  }
  RemoveTree(dir);
}

TEST_CASE("RunWithBuffers refuses wrong buffer sizes naming the input", "[runtime]") {
  const std::string dir = MakeTempDir();
  auto m = runtime::LoadModelFile(Compile(dir, UnaryGraphJson("ExecuteCountOp", {3}), BuildPath("tests/opp/lifecycle")));
  float in[3] = {0, 0, 0}, out[3];
  try {
    m->RunWithBuffers({{in, 8}}, {{out, 12}});
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()) ==
          "OA2206: input 0 ('x') needs a buffer of 12 bytes but got 8. Size the buffer as the model input (omrun "
          "--info lists them).");
  }
  RemoveTree(dir);
}
