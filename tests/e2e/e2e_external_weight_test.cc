// atc --external_weight=0|1|2 through the executables: where the weight files go and what they
// are called (ATC's naming, hand-computed here), byte-identical outputs of omrun for all three
// modes, reproducible files, and missing / truncated / altered weight files refused by omrun.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <sys/stat.h>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

const float *const kW1 = kExtW1;
const float *const kW2 = kExtW2;
const float kX[6] = {1, -2, 3, 0.5f, 0, 7};
// SHA-256 of the little-endian bytes of kW1 / kW2, each byte as hex without zero padding
// (ATC's _value_sha256; computed with Python's hashlib).
const char kW1File[] = "weight_24ae2dfe8df57c1b80e54cef3d90ac3b417fd98973345a5f616bbc9a75dcc22";
const char kW2File[] = "weight_2522fb33781a8d219c73237b30d867a8ce0a8562737c6683121a2d3d855b";
constexpr size_t kWBytes = 6 * sizeof(float);

bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string Bytes(const void *p, size_t n) { return std::string(static_cast<const char *>(p), n); }

// Compiles the graph into dir/m.om with --external_weight=mode; returns atc's stderr on failure.
void Compile(const std::string &dir, const std::string &mode) {
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m",
                   "--external_weight=" + mode},
                  "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

// omrun on dir/m.om with kX; the bytes of its output_0.npy.
std::string Run(const std::string &dir) {
  auto r = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--output", dir + "/out"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return ReadText(dir + "/out/output_0.npy");
}

std::string Setup() {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", ExternalWeightGraphJson());
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {2, 3};
  x.data.resize(sizeof kX);
  std::memcpy(x.data.data(), kX, sizeof kX);
  tensor_io::WriteNpy(dir + "/x.npy", x);
  return dir;
}

}  // namespace

TEST_CASE("atc --external_weight: files where ATC puts them, identical outputs for 0, 1 and 2", "[e2e]") {
  const std::string dir = Setup();
  Compile(dir, "0");
  CHECK_FALSE(Exists(dir + "/weight"));
  const std::string out0 = Run(dir);
  {
    const tensor_io::HostTensor y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    REQUIRE(y.data.size() == 6 * sizeof(float));
    for (int i = 0; i < 6; ++i) {
      const double expect = (static_cast<double>(kX[i]) + kW1[i]) * kW2[i] + kW1[i];
      float got;
      std::memcpy(&got, y.data.data() + i * sizeof(float), sizeof got);
      CHECK(got == static_cast<float>(expect));
    }
  }

  Compile(dir, "1");
  CHECK(ReadText(dir + "/weight/" + kW1File) == Bytes(kW1, kWBytes));
  CHECK(ReadText(dir + "/weight/" + kW2File) == Bytes(kW2, kWBytes));
  const std::string om1 = ReadText(dir + "/m.om");
  CHECK(om1.find(Bytes(kW2, kWBytes)) == std::string::npos);  // the weights left the OM
  CHECK(Run(dir) == out0);
  Compile(dir, "1");  // reproducible: the same OM and files again
  CHECK(ReadText(dir + "/m.om") == om1);
  CHECK(ReadText(dir + "/weight/" + kW1File) == Bytes(kW1, kWBytes));
  RemoveTree(dir + "/weight");

  Compile(dir, "2");
  std::string combined = Bytes(kW1, kWBytes);  // w1 (= w3) at 0, w2 at 512, each padded to 512
  combined.resize(512, '\0');
  combined += Bytes(kW2, kWBytes);
  combined.resize(1024, '\0');
  CHECK(ReadText(dir + "/weight/m_weight_combined") == combined);
  CHECK_FALSE(Exists(dir + "/weight/" + std::string(kW1File)));
  CHECK(Run(dir) == out0);
  RemoveTree(dir);
}

TEST_CASE("omrun: a missing, truncated or altered external weight file is refused", "[e2e]") {
  const std::string dir = Setup();
  Compile(dir, "1");
  const std::string w2 = dir + "/weight/" + kW2File;
  auto refused = [&](const std::string &text, int exit_code) {  // README.md "omrun": 5 damaged, 7 unreadable
    auto r = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--output", dir + "/out"});
    CHECK(r.exit_code == exit_code);
    INFO(r.err);
    CHECK(r.err.rfind("omrun: error: OA2112: '" + dir + "/m.om': node 'w2' (Const): ", 0) == 0);
    CHECK(r.err.find(text) != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);  // one line
  };
  std::string flipped = Bytes(kW2, kWBytes);
  flipped[7] ^= 0x01;
  WriteBytes(w2, flipped);
  refused("the external weight file '" + w2 + "' of segment #1 (weight) of tensor 'value': the 24 bytes at offset 0 "
          "have XXH3-64 0x", 5);
  refused(", the OM expects 0x", 5);
  WriteBytes(w2, Bytes(kW2, kWBytes - 4));
  refused("the external weight file '" + w2 + "' of segment #1 (weight) of tensor 'value' holds 20 bytes; the OM "
          "needs 24 bytes at offset 0 (XXH3-64 0x", 5);
  std::remove(w2.c_str());
  refused("cannot read the external weight file '" + w2 + "' of segment #1 (weight) of tensor 'value': open failed: "
          "No such file or directory.", 7);
  RemoveTree(dir);
}
