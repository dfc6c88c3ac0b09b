// Dynamic gears on the shared ppocr-mobile-v2-cls (label `models`; skipped when ../shared/models
// is absent): atc --input_shape "x:-1,3,48,192" --dynamic_batch_size "1,2,4" (the input is `x`,
// the model's SOURCE.md). Each gear runs through omrun --dynamic_batch and through the aclmdl* C
// API (gear_acl_run.c) on the reference input stacked `batch` times, and must give the reference
// output stacked as often (batch items are independent in this CNN); batch 3 is refused.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"

using namespace openatc::testing;
namespace tio = openatc::tensor_io;

namespace {

tio::HostTensor Stack(const tio::HostTensor &t, int64_t n) {
  tio::HostTensor s = t;
  s.shape[0] *= n;
  s.data.clear();
  for (int64_t i = 0; i < n; ++i) s.data.insert(s.data.end(), t.data.begin(), t.data.end());
  return s;
}

}  // namespace

TEST_CASE("gears: ppocr-mobile-v2-cls with --dynamic_batch_size 1,2,4 matches the reference per gear", "[gears]") {
  const std::string dir = SourcePath("../shared/models/ppocr-mobile-v2-cls");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    WARN("skipped: " << dir << " is absent");
    return;
  }
  const std::string work = MakeTempDir();
  const tio::HostTensor in = tio::ReadOnnxTensorPb(dir + "/test_data_set_0/input_0.pb");
  const tio::HostTensor out = tio::ReadOnnxTensorPb(dir + "/test_data_set_0/output_0.pb");
  REQUIRE(in.shape == std::vector<int64_t>{1, 3, 48, 192});
  CommandResult atc = RunCommand({BuildPath("bin/atc"), "--model", dir + "/model.onnx", "--framework", "5",
                                  "--soc_version", "host", "--output", work + "/cls", "--input_shape", "x:-1,3,48,192",
                                  "--dynamic_batch_size", "1,2,4"});
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  for (int64_t batch : {1, 2, 4}) {
    DYNAMIC_SECTION("batch " << batch) {
      const std::string b = std::to_string(batch);
      tio::WriteNpy(work + "/in" + b + ".npy", Stack(in, batch));
      tio::WriteNpy(work + "/out" + b + ".npy", Stack(out, batch));
      CommandResult r = RunCommand({BuildPath("bin/omrun"), work + "/cls.om", "--dynamic_batch", b, "--input",
                                    work + "/in" + b + ".npy", "--expected_output", work + "/out" + b + ".npy",
                                    "--atol", "1e-4", "--rtol", "1e-3"});
      INFO(r.out << r.err);
      CHECK(r.exit_code == 0);
      const tio::HostTensor x = Stack(in, batch);
      WriteBytes(work + "/in" + b + ".bin", std::string(x.data.begin(), x.data.end()));
      CommandResult a = RunCommand({BuildPath("tests/gear_acl_run"), work + "/cls.om", b, work + "/in" + b + ".bin",
                                    work + "/y" + b + ".bin"});
      INFO(a.out);
      REQUIRE(a.exit_code == 0);
      CHECK(a.out.find("output dims: " + b + " 2\n") != std::string::npos);
      const std::string y = ReadText(work + "/y" + b + ".bin");
      const tio::HostTensor want = Stack(out, batch);
      REQUIRE(y.size() == want.data.size());
      for (size_t k = 0; k < y.size() / 4; ++k) {
        float got = 0, ref = 0;
        std::memcpy(&got, y.data() + 4 * k, 4);
        std::memcpy(&ref, want.data.data() + 4 * k, 4);
        CHECK(std::fabs(got - ref) <= 1e-4 + 1e-3 * std::fabs(ref));
      }
    }
  }
  tio::WriteNpy(work + "/in3.npy", Stack(in, 3));
  CommandResult r = RunCommand({BuildPath("bin/omrun"), work + "/cls.om", "--dynamic_batch", "3", "--input",
                                work + "/in3.npy"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("OA2209: batch size 3 is not a gear of this model; its gears are 1; 2; 4") != std::string::npos);
  RemoveTree(work);
}
