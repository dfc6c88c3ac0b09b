// .npy reading and writing: a hand-written file, round trips for six dtypes, format 2.0, and
// named corruption cases (bad magic, truncation, Fortran order, big-endian, size, dtype).
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using openatc::ErrorCategory;
using tools_test::Capture;
using tools_test::FreshDir;
using tools_test::WriteBytes;

namespace {
// NPY 1.0 header: magic, version, little-endian u16 length, dict padded to 64 bytes with '\n'.
std::string NpyV1(const std::string &dict, size_t total = 128) {
  std::string padded = dict + std::string(total - 10 - dict.size() - 1, ' ') + "\n";
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(padded.size() & 0xff);
  out += static_cast<char>(padded.size() >> 8);
  return out + padded;
}
HostTensor Make(ge::DataType dt, std::vector<int64_t> shape, std::vector<uint8_t> data) {
  HostTensor t;
  t.dtype = dt;
  t.shape = std::move(shape);
  t.data = std::move(data);
  return t;
}
std::string NpyError(const std::string &dir, const std::string &name, const std::string &bytes) {
  std::string path = dir + "/" + name;
  WriteBytes(path, bytes);
  openatc::Error e = Capture([&] { ReadNpy(path); });
  CHECK(e.category() == ErrorCategory::kInvalidInput);
  CHECK(e.code() == "OA3001");
  CHECK(e.file() == path);
  return e.message();
}
}  // namespace

TEST_CASE("tools_npy: a hand-written float32 file reads and writes byte for byte") {
  std::string dir = FreshDir("npy_hand");
  // numpy.save(f, numpy.array([1.0, -2.0], dtype='<f4')): 118-byte header, data 00 00 80 3f 00 00 00 c0.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  REQUIRE(dict.size() == 57);
  std::string file = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + std::string(60, ' ') + "\n" +
                     std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8);
  REQUIRE(file.size() == 136);
  WriteBytes(dir + "/hand.npy", file);
  HostTensor t = ReadNpy(dir + "/hand.npy");
  CHECK(t.dtype == ge::DT_FLOAT);
  CHECK(t.shape == std::vector<int64_t>{2});
  CHECK(t.data == std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0});
  WriteNpy(dir + "/out.npy", t);
  CHECK(tools_test::ReadText(dir + "/out.npy") == file);
}

TEST_CASE("tools_npy: round trips") {
  std::string dir = FreshDir("npy_rt");
  std::vector<HostTensor> cases = {
      Make(ge::DT_FLOAT, {2, 2}, {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x40}),
      Make(ge::DT_FLOAT16, {3}, {0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b}),
      Make(ge::DT_INT32, {1, 2}, {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}),
      Make(ge::DT_INT64, {1}, {1, 2, 3, 4, 5, 6, 7, 0x80}),
      Make(ge::DT_BOOL, {2, 1, 2}, {1, 0, 0, 1}),
      Make(ge::DT_UINT8, {}, {200}),
      Make(ge::DT_UINT8, {0, 3}, {}),
  };
  const char *descr[] = {"<f4", "<f2", "<i4", "<i8", "|b1", "|u1", "|u1"};
  const char *shape[] = {"(2, 2)", "(3,)", "(1, 2)", "(1,)", "(2, 1, 2)", "()", "(0, 3)"};
  for (size_t i = 0; i < cases.size(); ++i) {
    std::string path = dir + "/t" + std::to_string(i) + ".npy";
    WriteNpy(path, cases[i]);
    std::string bytes = tools_test::ReadText(path);
    CHECK(bytes.size() % 64 == cases[i].data.size() % 64);
    CHECK(bytes.find(std::string("'descr': '") + descr[i] + "'") != std::string::npos);
    CHECK(bytes.find(std::string("'shape': ") + shape[i]) != std::string::npos);
    HostTensor back = ReadNpy(path);
    CHECK(back.dtype == cases[i].dtype);
    CHECK(back.shape == cases[i].shape);
    CHECK(back.data == cases[i].data);
  }
}

TEST_CASE("tools_npy: a header longer than 65535 bytes is written as format 2.0") {
  std::string dir = FreshDir("npy_long");
  HostTensor t;
  t.dtype = ge::DT_UINT8;
  t.shape.assign(22000, 1);  // "1, " x 22000: a ~66 KB dict, past format 1.0's 16-bit length
  t.data = {42};
  WriteNpy(dir + "/long.npy", t);
  std::string bytes = tools_test::ReadText(dir + "/long.npy");
  CHECK(bytes[6] == '\x02');
  size_t header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8) |
                      (static_cast<size_t>(static_cast<uint8_t>(bytes[10])) << 16);
  CHECK((12 + header_len) % 64 == 0);
  CHECK(bytes.size() == 12 + header_len + 1);
  HostTensor back = ReadNpy(dir + "/long.npy");
  CHECK(back.shape == t.shape);
  CHECK(back.data == t.data);
}

TEST_CASE("tools_npy: format 2.0 and 3.0 headers, '=' descr and Python 2 longs") {
  std::string dir = FreshDir("npy_v2");
  std::string dict = "{'descr': '=i2', 'fortran_order': False, 'shape': (2L,), }";
  std::string padded = dict + std::string(128 - 12 - dict.size() - 1, ' ') + "\n";
  for (char major : {'\x02', '\x03'}) {
    std::string file = std::string("\x93NUMPY", 6) + major + std::string("\x00", 1);
    file += static_cast<char>(padded.size());
    file += std::string("\x00\x00\x00", 3);
    file += padded + std::string("\x05\x00\xfb\xff", 4);
    WriteBytes(dir + "/v.npy", file);
    HostTensor t = ReadNpy(dir + "/v.npy");
    CHECK(t.dtype == ge::DT_INT16);
    CHECK(t.shape == std::vector<int64_t>{2});
    CHECK(t.data == std::vector<uint8_t>{5, 0, 0xfb, 0xff});
  }
}

TEST_CASE("tools_npy: corrupt files give clear errors") {
  std::string dir = FreshDir("npy_bad");
  const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const std::string data8(8, '\0');
  CHECK(NpyError(dir, "magic.npy", "\x93NUMPX\x01\x00" + std::string(120, ' ')) ==
        "not a valid .npy file: bad magic (expected \\x93NUMPY)");
  CHECK(NpyError(dir, "short.npy", std::string("\x93NUM", 4)) ==
        "not a valid .npy file: the file is only 4 bytes (truncated header)");
  CHECK(NpyError(dir, "cut.npy", NpyV1(good).substr(0, 60)) ==
        "not a valid .npy file: the header says 118 bytes but the file ends after 50 (truncated header)");
  CHECK(NpyError(dir, "v9.npy", std::string("\x93NUMPY\x09\x00\x00\x00", 10)) ==
        "not a valid .npy file: format version 9.0 is not supported (1.0, 2.0 and 3.0 are)");
  CHECK(NpyError(dir, "fortran.npy",
                 NpyV1("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }") + data8) ==
        "not a valid .npy file: Fortran-order arrays are not supported");
  CHECK(NpyError(dir, "be.npy", NpyV1("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }") + data8) ==
        "not a valid .npy file: big-endian data ('>f4') is not supported");
  CHECK(NpyError(dir, "str.npy", NpyV1("{'descr': '<U8', 'fortran_order': False, 'shape': (2,), }") + data8) ==
        "not a valid .npy file: dtype '<U8' is not supported");
  CHECK(NpyError(dir, "rec.npy",
                 NpyV1("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }") + data8) ==
        "not a valid .npy file: structured dtypes (a list descr) are not supported");
  CHECK(NpyError(dir, "short_data.npy", NpyV1(good) + data8.substr(1)) ==
        "not a valid .npy file: shape [2] of float32 needs 8 data bytes but the file holds 7");
  CHECK(NpyError(dir, "long_data.npy", NpyV1(good) + data8 + "x") ==
        "not a valid .npy file: shape [2] of float32 needs 8 data bytes but the file holds 9");
  CHECK(NpyError(dir, "huge.npy",
                 NpyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }")) ==
        "not a valid .npy file: shape [1099511627776, 1099511627776] needs more data than the file holds (0 bytes)");
  CHECK(NpyError(dir, "big.npy",
                 NpyV1("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }")) ==
        "not a valid .npy file: shape [4611686018427387904] needs more data than the file holds (0 bytes)");
  CHECK(NpyError(dir, "nokey.npy", NpyV1("{'descr': '<f4', 'shape': (2,), }") + data8) ==
        "not a valid .npy file: header lacks one of 'descr', 'fortran_order', 'shape'");
  CHECK(NpyError(dir, "negdim.npy", NpyV1("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }")) ==
        "not a valid .npy file: header: shape holds something other than non-negative integers");
  CHECK(NpyError(dir, "junk.npy", NpyV1("not a dict")) ==
        "not a valid .npy file: header: expected '{' at character 0");
  openatc::Error missing = Capture([&] { ReadNpy(dir + "/nope.npy"); });
  CHECK(missing.category() == ErrorCategory::kIo);
  CHECK(missing.code() == "OA3006");
  CHECK(std::string(missing.what()) == "OA3006: '" + dir +
                                           "/nope.npy': cannot open the file: No such file or directory. Check "
                                           "that the path exists and is accessible.");
}

TEST_CASE("tools_npy: every truncation of a valid file is refused cleanly") {
  std::string dir = FreshDir("npy_trunc");
  HostTensor t = Make(ge::DT_INT32, {3}, {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0});
  WriteNpy(dir + "/full.npy", t);
  const std::string full = tools_test::ReadText(dir + "/full.npy");
  for (size_t n = 0; n < full.size(); ++n) {
    WriteBytes(dir + "/cut.npy", full.substr(0, n));
    openatc::Error e = Capture([&] { ReadNpy(dir + "/cut.npy"); });
    CHECK(e.code() == "OA3001");
  }
  CHECK(ReadNpy(dir + "/full.npy").data == t.data);
}
