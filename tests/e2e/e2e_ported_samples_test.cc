// Ported GE samples run from their README commands (round 3): triton_add_custom (an eager-only
// op loading its own precompiled kernel binary, Triton argument layout) and ascendc_add_custom
// (IMPL_OP broadcast shape inference, a kernel in the op's .so launched with OPENATC_LAUNCH).
// Expected values come from each example's data program and are re-derived here from its inputs.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
bool Contains(const std::string &s, const std::string &p) { return s.find(p) != std::string::npos; }

std::vector<float> Floats(const tensor_io::HostTensor &t) {
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), v.size() * 4);
  return v;
}

#if defined(__FLT16_MAX__)
std::vector<float> Halfs(const tensor_io::HostTensor &t) {
  std::vector<_Float16> h(t.data.size() / 2);
  std::memcpy(h.data(), t.data.data(), h.size() * 2);
  return std::vector<float>(h.begin(), h.end());
}
#endif

CommandResult RunOmrunWithOpp(const std::vector<std::string> &args, const std::string &opp) {
  std::vector<std::string> argv = {BuildPath("bin/omrun")};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, {{"ASCEND_CUSTOM_OPP_PATH", opp}});
}
}  // namespace

TEST_CASE("triton_add_custom: fp32 [8, 2048] x + y through add_kernel.npubin equals the expected file", "[e2e]") {
  const std::string dir = MakeTempDir();
  const std::string opp = BuildPath("examples/triton_add_custom/opp");
  auto data = RunCommand({BuildPath("bin/triton_add_custom_data"), dir});
  REQUIRE(data.exit_code == 0);
  auto atc = RunAtc({"--model", SourcePath("examples/triton_add_custom/add_custom.json"), "--soc_version", "host",
                     "--output", dir + "/ta"},
                    opp);
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  const std::vector<std::string> run_args = {dir + "/ta.om", "--input", dir + "/x.npy," + dir + "/y.npy",
                                             "--expected_output", dir + "/z_expected.npy", "--atol", "0", "--rtol", "0",
                                             "--output", dir + "/out", "--loop", "3"};

  SECTION("found through ASCEND_CUSTOM_OPP_PATH (the OM's .so has no directory)") {
    auto run = RunOmrunWithOpp(run_args, opp);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(Contains(run.out, "compare output 0 (add_custom:0): PASS max_abs_err 0"));
    auto x = Floats(tensor_io::ReadNpy(dir + "/x.npy")), y = Floats(tensor_io::ReadNpy(dir + "/y.npy"));
    auto z = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    CHECK(z.shape == std::vector<int64_t>{8, 2048});
    auto zv = Floats(z);
    REQUIRE(zv.size() == 8 * 2048);
    size_t bad = 0;
    for (size_t i = 0; i < zv.size(); ++i) bad += zv[i] == x[i] + y[i] ? 0 : 1;
    CHECK(bad == 0);
  }
  SECTION("found in the working directory, as GE's sample expects") {
    const std::string cwd = dir + "/cwd";
    REQUIRE(RunCommand({"/bin/mkdir", cwd}).exit_code == 0);
    const std::string bin = opp + "/op_graph/lib/linux/" + opp::HostArch() + "/add_kernel.npubin";
    REQUIRE(RunCommand({"/bin/cp", bin, cwd + "/add_kernel.npubin"}).exit_code == 0);
    std::string cmd = "cd '" + cwd + "' && exec '" + BuildPath("bin/omrun") + "'";
    for (const auto &a : run_args) cmd += " '" + a + "'";
    auto run = RunCommand({"/bin/sh", "-c", cmd}, {}, {"ASCEND_CUSTOM_OPP_PATH"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(Contains(run.out, "compare output 0 (add_custom:0): PASS"));
  }
  SECTION("not found: Execute fails naming every path it tried") {
    auto run = RunOmrun(run_args);
    CHECK(run.exit_code == 6);
    CHECK(Contains(run.err, "AddCustom: cannot find the kernel binary add_kernel.npubin; tried './add_kernel.npubin'"));
    CHECK(Contains(run.err, "node 'add_custom' (AddCustom)"));
    CHECK(Contains(run.err, "Execute"));
  }
  RemoveTree(dir);
}

#if defined(__FLT16_MAX__)
TEST_CASE("ascendc_add_custom: fp16 [8, 2048] + [8, 2048] and + [1, 2048] (IMPL_OP broadcast)", "[e2e]") {
  const std::string dir = MakeTempDir();
  const std::string opp = BuildPath("examples/ascendc_add_custom/opp");
  REQUIRE(RunCommand({BuildPath("bin/ascendc_add_custom_data"), dir}).exit_code == 0);
  auto x = Halfs(tensor_io::ReadNpy(dir + "/x.npy"));
  for (const bool broadcast : {false, true}) {
    INFO("broadcast " << broadcast);
    const std::string graph = broadcast ? "add_custom_broadcast.json" : "add_custom.json";
    const std::string y_file = dir + (broadcast ? "/y_row.npy" : "/y.npy");
    const std::string expected = dir + (broadcast ? "/z_broadcast_expected.npy" : "/z_expected.npy");
    auto atc = RunAtc({"--model", SourcePath("examples/ascendc_add_custom/" + graph), "--soc_version", "host",
                       "--output", dir + "/ac"},
                      opp);
    INFO(atc.out << atc.err);
    REQUIRE(atc.exit_code == 0);
    auto info = RunOmrun({dir + "/ac.om", "--info"});
    CHECK(Contains(info.out, "float16 [8, 2048]"));  // IMPL_OP InferShape and the prototype's T
    auto run = RunOmrun({dir + "/ac.om", "--input", dir + "/x.npy," + y_file, "--expected_output", expected, "--atol",
                         "0", "--rtol", "0", "--output", dir + "/out", "--loop", "2"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(Contains(run.out, "compare output 0 (add_custom:0): PASS max_abs_err 0"));
    auto y = Halfs(tensor_io::ReadNpy(y_file));
    auto z = Halfs(tensor_io::ReadNpy(dir + "/out/output_0.npy"));
    REQUIRE(z.size() == 8 * 2048);
    size_t bad = 0;
    for (size_t i = 0; i < z.size(); ++i) bad += z[i] == x[i] + y[i % y.size()] ? 0 : 1;
    CHECK(bad == 0);
    // Hand values: x[0] = -16, y[0] = -4, y_row[0] = -3; x[2049] = -15.5, y[2049] = -2.25,
    // y_row[1] = -1.75.
    CHECK(z[0] == (broadcast ? -19.0f : -20.0f));
    CHECK(z[2049] == (broadcast ? -17.25f : -17.75f));
  }
  RemoveTree(dir);
}
#endif

#if defined(__FLT16_MAX__)
TEST_CASE("ascendc_add_custom: a run-time batch dim is re-inferred by the IMPL_OP hook on every run", "[e2e]") {
  const std::string dir = MakeTempDir();
  std::string graph = ReadText(SourcePath("examples/ascendc_add_custom/add_custom_broadcast.json"));
  const std::string from = "\"dim\": [\"8\", \"2048\"]";
  for (size_t at = graph.find(from); at != std::string::npos; at = graph.find(from)) {
    graph.replace(at, from.size(), "\"dim\": [\"-1\", \"2048\"]");
  }
  WriteBytes(dir + "/g.json", graph);
  auto atc = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                    BuildPath("examples/ascendc_add_custom/opp"));
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(Contains(RunOmrun({dir + "/m.om", "--info"}).out, "add_custom:0 float16 [-1, 2048]"));
  REQUIRE(RunCommand({BuildPath("bin/ascendc_add_custom_data"), dir}).exit_code == 0);
  auto y = Halfs(tensor_io::ReadNpy(dir + "/y_row.npy"));
  for (const int64_t rows : {int64_t{3}, int64_t{8}}) {
    tensor_io::HostTensor x;
    x.dtype = ge::DT_FLOAT16;
    x.shape = {rows, 2048};
    std::vector<_Float16> xv(static_cast<size_t>(rows) * 2048);
    for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<_Float16>(static_cast<float>(i % 10) - 4.0f);
    x.data.resize(xv.size() * 2);
    std::memcpy(x.data.data(), xv.data(), x.data.size());
    tensor_io::WriteNpy(dir + "/xr.npy", x);
    auto run = RunOmrun({dir + "/m.om", "--input", dir + "/xr.npy," + dir + "/y_row.npy", "--output", dir + "/out"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto zt = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    CHECK(zt.shape == std::vector<int64_t>{rows, 2048});
    auto z = Halfs(zt);
    REQUIRE(z.size() == xv.size());
    size_t bad = 0;
    for (size_t i = 0; i < z.size(); ++i) bad += z[i] == static_cast<float>(xv[i]) + y[i % 2048] ? 0 : 1;
    CHECK(bad == 0);
  }
  RemoveTree(dir);
}
#endif

TEST_CASE("ascendc_add_custom: shapes that do not broadcast fail in the IMPL_OP InferShape hook", "[e2e]") {
  const std::string dir = MakeTempDir();
  std::string graph = ReadText(SourcePath("examples/ascendc_add_custom/add_custom_broadcast.json"));
  const std::string from = "\"dim\": [\"1\", \"2048\"]";
  for (size_t at = graph.find(from); at != std::string::npos; at = graph.find(from)) {
    graph.replace(at, from.size(), "\"dim\": [\"3\", \"2048\"]");
  }
  WriteBytes(dir + "/g.json", graph);
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                  BuildPath("examples/ascendc_add_custom/opp"));
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.err, "atc: error: OA1401: '" + dir + "/g.json': node 'add_custom' (AddCustom): "));
  CHECK(Contains(r.err, "IMPL_OP InferShape"));
  CHECK(Contains(r.err, "AddCustom: the shapes of x and y do not broadcast"));
  RemoveTree(dir);
}
