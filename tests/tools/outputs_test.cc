// Output writing (npy/bin/txt + outputs.json), summary lines and seeded random inputs.
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/tensor_io/float16.h"
#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using tools_test::FreshDir;
using tools_test::ReadText;

namespace {
template <typename T>
HostTensor Of(ge::DataType dt, std::vector<int64_t> shape, std::vector<T> values) {
  HostTensor t;
  t.dtype = dt;
  t.shape = std::move(shape);
  t.data.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}
template <typename T>
T At(const HostTensor &t, size_t i) {
  T v;
  std::memcpy(&v, t.data.data() + i * sizeof(T), sizeof(T));
  return v;
}
}  // namespace

TEST_CASE("tools_outputs: WriteOutputs writes files and outputs.json") {
  std::string root = FreshDir("outputs");
  std::string dir = root + "/a/b";
  HostTensor y = Of<float>(ge::DT_FLOAT, {2}, {1.0f, -2.5f});
  HostTensor idx = Of<int64_t>(ge::DT_INT64, {1, 1}, {9007199254740993LL});
  WriteOutputs(dir, {"y", "idx"}, {y, idx}, "npy");
  CHECK(ReadNpy(dir + "/output_0.npy").data == y.data);
  CHECK(ReadNpy(dir + "/output_1.npy").shape == std::vector<int64_t>{1, 1});
  CHECK(ReadText(dir + "/outputs.json") ==
        "{\n"
        "  \"outputs\": [\n"
        "    {\n"
        "      \"index\": 0,\n"
        "      \"name\": \"y\",\n"
        "      \"shape\": [\n"
        "        2\n"
        "      ],\n"
        "      \"dtype\": \"float32\",\n"
        "      \"file\": \"output_0.npy\"\n"
        "    },\n"
        "    {\n"
        "      \"index\": 1,\n"
        "      \"name\": \"idx\",\n"
        "      \"shape\": [\n"
        "        1,\n"
        "        1\n"
        "      ],\n"
        "      \"dtype\": \"int64\",\n"
        "      \"file\": \"output_1.npy\"\n"
        "    }\n"
        "  ]\n"
        "}\n");

  WriteOutputs(dir, {"y", "idx"}, {y, idx}, "TXT");
  CHECK(ReadText(dir + "/output_0.txt") == "1\n-2.5\n");
  CHECK(ReadText(dir + "/output_1.txt") == "9007199254740993\n");
  CHECK(ReadText(dir + "/outputs.json").find("\"file\": \"output_1.txt\"") != std::string::npos);

  WriteOutputs(dir, {"y"}, {y}, "Bin");
  CHECK(tools_test::ReadBytes(dir + "/output_0.bin") == y.data);

  // No temp files are left behind.
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);

  openatc::Error e = tools_test::Capture([&] { WriteOutputs(dir, {"y"}, {y}, "csv"); });
  CHECK(e.category() == openatc::ErrorCategory::kUsage);
  CHECK(std::string(e.what()) == "OA3005: unknown output format 'csv'. Use NPY, BIN or TXT.");
}

TEST_CASE("tools_outputs: text values at full precision") {
  std::string dir = FreshDir("txt");
  WriteTxt(dir + "/f.txt", Of<float>(ge::DT_FLOAT, {3}, {0.1f, 1e-10f, -3.0f}));
  CHECK(ReadText(dir + "/f.txt") == "0.100000001\n1.00000001e-10\n-3\n");
  WriteTxt(dir + "/h.txt", Of<uint16_t>(ge::DT_FLOAT16, {3}, {0x3C00, 0x3555, 0xFC00}));
  CHECK(ReadText(dir + "/h.txt") == "1\n0.333251953\n-inf\n");
  WriteTxt(dir + "/b.txt", Of<uint8_t>(ge::DT_BOOL, {2}, {1, 0}));
  CHECK(ReadText(dir + "/b.txt") == "1\n0\n");
  WriteTxt(dir + "/d.txt", Of<double>(ge::DT_DOUBLE, {1}, {0.1}));
  CHECK(ReadText(dir + "/d.txt") == "0.10000000000000001\n");
  WriteTxt(dir + "/u.txt", Of<uint64_t>(ge::DT_UINT64, {1}, {18446744073709551615ull}));
  CHECK(ReadText(dir + "/u.txt") == "18446744073709551615\n");
}

TEST_CASE("tools_outputs: summary lines") {
  std::vector<float> ten = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK(SummaryLine("y", Of<float>(ge::DT_FLOAT, {2, 5}, ten)) ==
        "y: shape [2, 5] float32 [0, 1, 2, 3, 4, 5, 6, 7, ...]");
  CHECK(SummaryLine("z", Of<int32_t>(ge::DT_INT32, {2}, {-1, 7})) == "z: shape [2] int32 [-1, 7]");
  CHECK(SummaryLine("s", Of<float>(ge::DT_FLOAT, {}, {0.5f})) == "s: shape [] float32 [0.5]");
  CHECK(SummaryLine("h", Of<uint16_t>(ge::DT_FLOAT16, {1}, {0x3555})) == "h: shape [1] float16 [0.333252]");
  CHECK(SummaryLine("e", Of<float>(ge::DT_FLOAT, {0}, {})) == "e: shape [0] float32 []");
}

TEST_CASE("tools_outputs: random inputs are seeded and follow the documented formula") {
  HostTensor a = RandomTensor(ge::DT_FLOAT, {4, 8}, 7, 0);
  HostTensor b = RandomTensor(ge::DT_FLOAT, {4, 8}, 7, 0);
  HostTensor c = RandomTensor(ge::DT_FLOAT, {4, 8}, 7, 1);
  CHECK(a.data == b.data);
  CHECK(a.data != c.data);
  CHECK(a.shape == std::vector<int64_t>{4, 8});
  REQUIRE(a.data.size() == 128);
  std::mt19937_64 gen(7 + 0x9E3779B97F4A7C15ull);
  for (size_t i = 0; i < 32; ++i) {
    uint64_t r = gen();
    float expect = static_cast<float>(2.0 * std::ldexp(static_cast<double>(r >> 11), -53) - 1.0);
    CHECK(At<float>(a, i) == expect);
    CHECK(At<float>(a, i) >= -1.0f);
    CHECK(At<float>(a, i) < 1.0f);
  }
  HostTensor h = RandomTensor(ge::DT_FLOAT16, {3}, 0, 2);
  std::mt19937_64 g2(0 + 0x9E3779B97F4A7C15ull * 3);
  for (size_t i = 0; i < 3; ++i) {
    uint64_t r = g2();
    float f = static_cast<float>(2.0 * std::ldexp(static_cast<double>(r >> 11), -53) - 1.0);
    CHECK(At<uint16_t>(h, i) == FloatToHalf(f));
  }
  HostTensor n = RandomTensor(ge::DT_INT32, {100}, 3, 0);
  std::mt19937_64 g3(3 + 0x9E3779B97F4A7C15ull);
  for (size_t i = 0; i < 100; ++i) {
    int32_t v = At<int32_t>(n, i);
    CHECK(v == static_cast<int32_t>((g3() >> 32) % 21) - 10);
  }
  HostTensor flags = RandomTensor(ge::DT_BOOL, {2, 2}, 0, 0);
  for (uint8_t v : flags.data) CHECK(v <= 1);
  // std::mt19937_64's 10000th output from the default seed is fixed by the C++ standard.
  std::mt19937_64 std_check;
  std_check.discard(9999);
  CHECK(std_check() == 9981545732273789042ull);

  openatc::Error dyn = tools_test::Capture([] { RandomTensor(ge::DT_FLOAT, {-1, 3}, 0, 4); });
  CHECK(std::string(dyn.what()) ==
        "OA3003: input 4 has unknown dims [-1, 3], so random data cannot be made for it. Give this input with "
        "--input.");
}
