// Dynamic input dimensions of the shared ppocr models (issue 5, scope 2; ../shared/models/README.md:
// "the ppocr models: N, H, W"). Each model listed in expected_pass.txt is compiled twice:
//   - without --input_shape: the OM keeps -1 dims and runs at the shapes it is fed;
//   - with --input_shape fixing N=2 and the reference H, W: the OM is static.
// Both are fed the reference input stacked twice along N (a batch of two identical images), and
// must give the reference output stacked twice: batch items are independent in these CNNs, so the
// expected values follow from the model's own reference data, independently of OpenATC.
// The static OM must also refuse a batch of one (shape mismatch, omrun exit 3).
// Skipped with a message when ../shared/models is absent.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <set>
#include <string>

#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"
#include "subprocess.h"

using namespace openatc::testing;
using openatc::conformance::ProcessResult;
using openatc::conformance::RunWithTimeout;
namespace tio = openatc::tensor_io;

namespace {

bool Exists(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

bool Listed(const std::string &name) {
  std::ifstream in(SourcePath("tests/models/expected_pass.txt"));
  for (std::string line; std::getline(in, line);)
    if (line == name) return true;
  return false;
}

// `t` repeated `n` times along axis 0 (C order: the bytes repeat).
tio::HostTensor StackBatch(const tio::HostTensor &t, int64_t n) {
  tio::HostTensor s = t;
  REQUIRE(!s.shape.empty());
  s.shape[0] *= n;
  s.data.clear();
  for (int64_t i = 0; i < n; ++i) s.data.insert(s.data.end(), t.data.begin(), t.data.end());
  return s;
}

std::string ShapeArg(const std::string &input, const std::vector<int64_t> &shape) {
  std::string s = input + ":";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s;
}

ProcessResult Run(const std::vector<std::string> &argv, const std::string &log) {
  ProcessResult r = RunWithTimeout(argv, 600, log);
  INFO(argv[0] << " exit " << r.exit_code << "\n" << r.out << r.err);
  REQUIRE(!r.timed_out);
  REQUIRE(r.signal == 0);
  return r;
}

}  // namespace

TEST_CASE("ppocr models run at the batch they are fed, with and without --input_shape") {
  const std::string root = SourcePath("../shared/models");
  if (!Exists(root)) {
    WARN("skipped: " << root << " is absent");
    return;
  }
  // The input name of both models (their SOURCE.md / the ONNX graph).
  for (const std::string name : {"ppocr-mobile-v2-cls", "ppocr-v4-det"}) {
    if (!Listed(name)) {
      WARN("skipped " << name << ": not in tests/models/expected_pass.txt yet");
      continue;
    }
    DYNAMIC_SECTION(name) {
      const std::string dir = root + "/" + name;
      const std::string work = MakeTempDir();
      const tio::HostTensor in = tio::ReadOnnxTensorPb(dir + "/test_data_set_0/input_0.pb");
      const tio::HostTensor out = tio::ReadOnnxTensorPb(dir + "/test_data_set_0/output_0.pb");
      tio::WriteNpy(work + "/in2.npy", StackBatch(in, 2));
      tio::WriteNpy(work + "/out2.npy", StackBatch(out, 2));

      // Dynamic: no --input_shape.
      Run({BuildPath("bin/atc"), "--model", dir + "/model.onnx", "--soc_version", "host", "--output", work + "/dyn",
           "--log", "error"},
          work + "/atc_dyn");
      ProcessResult info = Run({BuildPath("bin/omrun"), work + "/dyn.om", "--info"}, work + "/info");
      CHECK(info.out.find("[-1, 3, -1, -1]") != std::string::npos);
      ProcessResult r = Run({BuildPath("bin/omrun"), work + "/dyn.om", "--input", work + "/in2.npy", "--expected_output",
                             work + "/out2.npy", "--atol", "1e-4", "--rtol", "1e-3"},
                            work + "/run_dyn");
      CHECK(r.exit_code == 0);

      // Static: --input_shape fixes N=2 and the reference H, W.
      std::vector<int64_t> fixed = in.shape;
      fixed[0] = 2;
      Run({BuildPath("bin/atc"), "--model", dir + "/model.onnx", "--soc_version", "host", "--output", work + "/fix",
           "--input_shape", ShapeArg("x", fixed), "--log", "error"},
          work + "/atc_fix");
      r = Run({BuildPath("bin/omrun"), work + "/fix.om", "--input", work + "/in2.npy", "--expected_output",
               work + "/out2.npy", "--atol", "1e-4", "--rtol", "1e-3"},
              work + "/run_fix");
      CHECK(r.exit_code == 0);
      r = Run({BuildPath("bin/omrun"), work + "/fix.om", "--input", dir + "/test_data_set_0/input_0.pb"},
              work + "/run_fix1");
      CHECK(r.exit_code == 3);
      CHECK(r.err.find("OA3003") != std::string::npos);
      RemoveTree(work);
    }
  }
}
