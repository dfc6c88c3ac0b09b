// bfloat16 in omrun's tensor files: .npy as a 2-byte void ('<V2', what numpy.save writes for
// ml_dtypes.bfloat16), uint16 .pb/.npy files taken as bfloat16 bit patterns where the model
// expects bfloat16 (ONNX's backend test data stores them so), BFLOAT16 TensorProtos, and
// comparison in float.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using openatc::ErrorCategory;
using tools_test::Capture;
using tools_test::FreshDir;
using tools_test::WriteBytes;

namespace {
HostTensor Bf16(std::vector<int64_t> shape, const std::vector<uint8_t> &bytes) {
  HostTensor t;
  t.dtype = ge::DT_BF16;
  t.shape = std::move(shape);
  t.data = bytes;
  return t;
}
}  // namespace

TEST_CASE("tools_bf16: bfloat16 .npy files are written as '<V2' and read back") {
  std::string dir = FreshDir("bf16_npy");
  // 1.0 and -2.0 in bfloat16: 0x3f80, 0xc000 (little-endian bytes).
  const HostTensor t = Bf16({2}, {0x80, 0x3f, 0x00, 0xc0});
  WriteNpy(dir + "/b.npy", t);
  const std::string dict = "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }";
  const std::string text = tools_test::ReadText(dir + "/b.npy");
  CHECK(text.substr(10, dict.size()) == dict);
  CHECK(text.size() == 128 + 4);  // header padded to a multiple of 64 bytes, then 4 data bytes
  HostTensor back = ReadNpy(dir + "/b.npy");
  CHECK(back.dtype == ge::DT_BF16);
  CHECK(back.shape == t.shape);
  CHECK(back.data == t.data);
  // '|V2' (another spelling numpy may use for a 2-byte void) reads as bfloat16 too.
  std::string other = text;
  other[10 + 11] = '|';
  WriteBytes(dir + "/c.npy", other);
  CHECK(ReadNpy(dir + "/c.npy").dtype == ge::DT_BF16);
}

TEST_CASE("tools_bf16: uint16 files feed a bfloat16 input as bit patterns; other dtypes do not") {
  std::string dir = FreshDir("bf16_load");
  onnx::TensorProto p;  // as ONNX's test data: a UINT16 TensorProto holding bfloat16 bits
  p.set_data_type(onnx::TensorProto::UINT16);
  p.add_dims(2);
  p.set_raw_data(std::string("\x80\x3f\x00\xc0", 4));
  WriteBytes(dir + "/u16.pb", p.SerializeAsString());
  HostTensor t = LoadInput(dir + "/u16.pb", 0, "x", ge::DT_BF16, {2});
  CHECK(t.dtype == ge::DT_BF16);
  CHECK(t.data == std::vector<uint8_t>{0x80, 0x3f, 0x00, 0xc0});
  CHECK(LoadInput(dir + "/u16.pb", 0, "x", ge::DT_UINT16, {2}).dtype == ge::DT_UINT16);
  openatc::Error e = Capture([&] { LoadInput(dir + "/u16.pb", 0, "x", ge::DT_FLOAT16, {2}); });
  CHECK(e.code() == "OA3002");
  CHECK(e.message() == "input 0 'x': the file holds uint16 data but the model expects float16");
  // A BFLOAT16 TensorProto (typed int32_data field) is bfloat16 as it is.
  onnx::TensorProto b;
  b.set_data_type(onnx::TensorProto::BFLOAT16);
  b.add_dims(2);
  b.add_int32_data(0x3f80);
  b.add_int32_data(0xc000);
  WriteBytes(dir + "/b.pb", b.SerializeAsString());
  HostTensor tb = ReadOnnxTensorPb(dir + "/b.pb");
  CHECK(tb.dtype == ge::DT_BF16);
  CHECK(tb.data == std::vector<uint8_t>{0x80, 0x3f, 0x00, 0xc0});
  // A uint16 .npy likewise.
  HostTensor u;
  u.dtype = ge::DT_UINT16;
  u.shape = {2};
  u.data = {0x80, 0x3f, 0x00, 0xc0};
  WriteNpy(dir + "/u.npy", u);
  CHECK(LoadTensorFile(dir + "/u.npy", "expected output 0 'y'", ge::DT_BF16, {2}).dtype == ge::DT_BF16);
}

TEST_CASE("tools_bf16: bfloat16 outputs compare in float") {
  const HostTensor a = Bf16({2}, {0x80, 0x3f, 0x00, 0xc0});  // 1.0, -2.0
  const HostTensor b = Bf16({2}, {0x81, 0x3f, 0x00, 0xc0});  // 1.0078125, -2.0
  Comparison loose = Compare(a, b, 0.0, 1e-2);
  CHECK(loose.ok);
  CHECK(loose.max_abs == 0.0078125);
  Comparison tight = Compare(a, b, 1e-7, 1e-3);
  CHECK_FALSE(tight.ok);
  CHECK(tight.first_bad_index == 0);
}

TEST_CASE("tools_bf16: WriteOutputs names bfloat16 in outputs.json") {
  std::string dir = FreshDir("bf16_outputs");
  WriteOutputs(dir, {"y"}, {Bf16({1}, {0x80, 0x3f})}, "npy");
  const std::string json = tools_test::ReadText(dir + "/outputs.json");
  INFO(json);
  CHECK(json.find("\"dtype\": \"bfloat16\"") != std::string::npos);
  CHECK(ReadNpy(dir + "/output_0.npy").dtype == ge::DT_BF16);
}
