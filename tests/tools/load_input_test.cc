// LoadInput: dtype, shape and byte-size checks with messages naming input, file, expected, found.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using openatc::ErrorCategory;
using tools_test::Capture;
using tools_test::FreshDir;

namespace {
HostTensor F32(std::vector<int64_t> shape, size_t count) {
  HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = std::move(shape);
  t.data.assign(count * 4, 0);
  return t;
}
}  // namespace

TEST_CASE("tools_load_input: kinds by extension") {
  CHECK(KindFromPath("a/b.npy") == FileKind::kNpy);
  CHECK(KindFromPath("B.BIN") == FileKind::kBin);
  CHECK(KindFromPath("x.pb") == FileKind::kPb);
  CHECK(KindFromPath("frame.YUV") == FileKind::kBin);  // a raw image for an AIPP input
  openatc::Error e = Capture([] { KindFromPath("dir.npy/x.txt"); });
  CHECK(e.category() == ErrorCategory::kUsage);
  CHECK(std::string(e.what()) == "OA3005: 'dir.npy/x.txt': unknown tensor file extension '.txt'. Use .npy (NumPy), "
                                 ".bin or .yuv (raw bytes) or .pb (ONNX TensorProto).");
}

TEST_CASE("tools_load_input: matching files load") {
  std::string dir = FreshDir("load_ok");
  WriteNpy(dir + "/x.npy", F32({2, 3}, 6));
  HostTensor t = LoadInput(dir + "/x.npy", 0, "x", ge::DT_FLOAT, {2, 3});
  CHECK(t.shape == std::vector<int64_t>{2, 3});
  CHECK(LoadInput(dir + "/x.npy", 0, "x", ge::DT_FLOAT, {-1, 3}).shape == std::vector<int64_t>{2, 3});
  CHECK(LoadInput(dir + "/x.npy", 0, "x", ge::DT_FLOAT, {-2}).shape == std::vector<int64_t>{2, 3});
  tools_test::WriteBytes(dir + "/x.bin", std::string(24, '\x01'));
  HostTensor b = LoadInput(dir + "/x.bin", 1, "y", ge::DT_INT32, {2, 3});
  CHECK(b.dtype == ge::DT_INT32);
  CHECK(b.shape == std::vector<int64_t>{2, 3});
  CHECK(b.data == std::vector<uint8_t>(24, 1));
}

TEST_CASE("tools_load_input: dtype, shape and size mismatches") {
  std::string dir = FreshDir("load_bad");
  const std::string npy = dir + "/x.npy";
  WriteNpy(npy, F32({2, 3}, 6));
  auto err = [](std::function<void()> fn) {
    openatc::Error e = Capture(fn);
    CHECK(e.category() == ErrorCategory::kInvalidInput);
    CHECK(openatc::OmrunExitCode(e.category()) == 3);
    return std::string(e.what());
  };
  CHECK(err([&] { LoadInput(npy, 0, "x", ge::DT_FLOAT16, {2, 3}); }) ==
        "OA3002: '" + npy + "': input 0 'x': the file holds float32 data but the model expects float16. Convert the "
        "data to float16 (numpy: a.astype(...)).");
  CHECK(err([&] { LoadInput(npy, 2, "img", ge::DT_FLOAT, {2, 4}); }) ==
        "OA3003: '" + npy + "': input 2 'img': the file has shape [2, 3] but the model expects [2, 4]. Give a tensor "
        "of the expected shape (-1 matches any size).");
  CHECK(err([&] { LoadInput(npy, 0, "x", ge::DT_FLOAT, {-1, 3, 1}); }) ==
        "OA3003: '" + npy + "': input 0 'x': the file has shape [2, 3] but the model expects [-1, 3, 1]. Give a "
        "tensor of the expected shape (-1 matches any size).");
  const std::string bin = dir + "/x.bin";
  tools_test::WriteBytes(bin, std::string(20, '\0'));
  CHECK(err([&] { LoadInput(bin, 1, "y", ge::DT_FLOAT, {2, 3}); }) ==
        "OA3004: '" + bin + "': input 1 'y': the file has 20 bytes but the model expects 24 bytes (float32 [2, 3]). "
        "A .bin input holds exactly the raw little-endian bytes of one tensor.");
  CHECK(err([&] { LoadInput(bin, 1, "y", ge::DT_FLOAT, {-1, 5}); }) ==
        "OA3004: '" + bin + "': input 1 'y': a .bin file cannot give the shape of an input of float32 [-1, 5]. Use a "
        ".npy or .pb file for an input with unknown dims.");
  CHECK(err([&] { LoadTensorFile(npy, "expected output 1 'y'", ge::DT_INT32, {2, 3}); }) ==
        "OA3002: '" + npy + "': expected output 1 'y': the file holds float32 data but the model expects int32. "
        "Convert the data to int32 (numpy: a.astype(...)).");
  const std::string gone = dir + "/gone.bin";
  CHECK(err([&] { LoadInput(gone, 3, "z", ge::DT_FLOAT, {1}); }) ==
        "OA3006: '" + gone + "': input 3 'z': cannot open the file: No such file or directory. Check that the path "
        "exists and is accessible.");
  const std::string bad = dir + "/bad.npy";
  tools_test::WriteBytes(bad, "NUMPY!!!!!!!!");
  CHECK(err([&] { LoadInput(bad, 0, "x", ge::DT_FLOAT, {2, 3}); }) ==
        "OA3001: '" + bad + "': input 0 'x': not a valid .npy file: bad magic (expected \\x93NUMPY). Save the array "
        "with numpy.save (C order, little-endian).");
}
