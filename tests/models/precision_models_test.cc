// Precision modes on the shared real models (../shared/models; atc/compiler/src/passes/precision.h):
// must_keep_origin_dtype writes bit-identical outputs to the default float32 build; force_fp16
// stays within float16 tolerance of the reference outputs (atol = rtol = 1e-2: a float16 value
// carries a relative error up to 2^-11 per rounding, and these models chain 10 to 185 rounded
// nodes); omrun --compare against the float32 build names the first node beyond a tolerance
// finer than float16 holds (1e-4), and exits 1. Skipped with a message when ../shared is absent.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include "run_command.h"

using namespace openatc::testing;

namespace {

bool Exists(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

std::string ReadFile(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string Files(const std::string &set, const char *kind, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += (i ? "," : "") + set + "/" + kind + "_" + std::to_string(i) + ".pb";
  return s;
}

CommandResult Atc(const std::string &model, const std::string &out, const std::vector<std::string> &extra) {
  std::vector<std::string> args = {BuildPath("bin/atc"), "--model=" + model, "--framework=5", "--soc_version=host",
                                   "--output=" + out};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunCommand(args, {}, {"ASCEND_CUSTOM_OPP_PATH"});
}

CommandResult Omrun(std::vector<std::string> args) {
  args.insert(args.begin(), BuildPath("bin/omrun"));
  return RunCommand(args, {}, {"ASCEND_CUSTOM_OPP_PATH"});
}

struct Case {
  const char *name;
  int inputs, outputs;
};

}  // namespace

TEST_CASE("precision modes on the shared models", "[models][precision]") {
  const std::string root = SourcePath("../shared/models");
  if (!Exists(root)) {
    WARN("skipped: " << root << " is absent");
    return;
  }
  for (const Case &c : {Case{"mnist-8", 1, 1}, Case{"super-resolution-10", 1, 1}, Case{"ultraface-rfb-320", 1, 2},
                        Case{"ppocr-mobile-v2-cls", 1, 1}}) {
    INFO(c.name);
    const std::string dir = root + "/" + c.name, set = dir + "/test_data_set_0", work = MakeTempDir();
    const std::string ins = Files(set, "input", c.inputs), refs = Files(set, "output", c.outputs);
    REQUIRE(Atc(dir + "/model.onnx", work + "/f32", {}).exit_code == 0);
    REQUIRE(Atc(dir + "/model.onnx", work + "/keep", {"--precision_mode=must_keep_origin_dtype"}).exit_code == 0);
    REQUIRE(Atc(dir + "/model.onnx", work + "/f16", {"--precision_mode=force_fp16"}).exit_code == 0);
    for (const char *m : {"f32", "keep"})
      REQUIRE(Omrun({work + "/" + m + ".om", "--input", ins, "--output", work + "/" + m + "_out"}).exit_code == 0);
    for (int k = 0; k < c.outputs; ++k) {
      const std::string f = "/output_" + std::to_string(k) + ".npy";
      REQUIRE(ReadFile(work + "/keep_out" + f) == ReadFile(work + "/f32_out" + f));
    }
    auto f16 = Omrun({work + "/f16.om", "--input", ins, "--expected_output", refs, "--atol", "1e-2", "--rtol", "1e-2"});
    INFO(f16.out << f16.err);
    REQUIRE(f16.exit_code == 0);
    auto cmp = Omrun({work + "/f16.om", "--input", ins, "--compare", work + "/f32.om", "--atol", "1e-4", "--rtol", "1e-4"});
    INFO(cmp.out << cmp.err);
    REQUIRE(cmp.exit_code == 1);
    REQUIRE(cmp.out.find("first node beyond tolerance: ") != std::string::npos);
    RemoveTree(work);
  }
}
