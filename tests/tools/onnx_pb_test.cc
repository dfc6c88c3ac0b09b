// ONNX TensorProto (.pb) reading: raw_data and typed fields for several dtypes, and errors.
#include <cstring>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <onnx/onnx_pb.h>

#include "openatc/common/dtype.h"
#include "openatc/tensor_io/tensor_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using openatc::ErrorCategory;
using tools_test::Capture;
using tools_test::FreshDir;

namespace {
std::string Save(const std::string &dir, const std::string &name, const onnx::TensorProto &p) {
  std::string path = dir + "/" + name;
  tools_test::WriteBytes(path, p.SerializeAsString());
  return path;
}
std::string PbError(const std::string &path) {
  openatc::Error e = Capture([&] { ReadOnnxTensorPb(path); });
  CHECK(e.category() == ErrorCategory::kInvalidInput);
  CHECK(e.code() == "OA3001");
  return e.message();
}
}  // namespace

TEST_CASE("tools_pb: raw_data float32") {
  std::string dir = FreshDir("pb_raw");
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(2);
  p.add_dims(1);
  p.set_name("x");
  p.set_raw_data(std::string("\x00\x00\x80\x3f\x00\x00\x20\xc1", 8));  // 1.0, -10.0
  HostTensor t = ReadOnnxTensorPb(Save(dir, "raw.pb", p));
  CHECK(t.dtype == ge::DT_FLOAT);
  CHECK(t.shape == std::vector<int64_t>{2, 1});
  CHECK(t.data == std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc1});
}

TEST_CASE("tools_pb: typed fields") {
  std::string dir = FreshDir("pb_typed");
  onnx::TensorProto f;
  f.set_data_type(onnx::TensorProto::FLOAT);
  f.add_dims(3);
  f.add_float_data(1.0f);
  f.add_float_data(-10.0f);
  f.add_float_data(0.5f);
  HostTensor tf = ReadOnnxTensorPb(Save(dir, "f.pb", f));
  CHECK(tf.dtype == ge::DT_FLOAT);
  CHECK(tf.shape == std::vector<int64_t>{3});
  CHECK(tf.data == std::vector<uint8_t>{0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc1, 0, 0, 0, 0x3f});

  onnx::TensorProto h;  // float16 bit patterns in int32_data
  h.set_data_type(onnx::TensorProto::FLOAT16);
  h.add_dims(2);
  h.add_int32_data(0x3C00);
  h.add_int32_data(0xC000);
  HostTensor th = ReadOnnxTensorPb(Save(dir, "h.pb", h));
  CHECK(th.dtype == ge::DT_FLOAT16);
  CHECK(th.data == std::vector<uint8_t>{0x00, 0x3c, 0x00, 0xc0});

  onnx::TensorProto i64;
  i64.set_data_type(onnx::TensorProto::INT64);
  i64.add_int64_data(-2);
  HostTensor ti = ReadOnnxTensorPb(Save(dir, "i.pb", i64));
  CHECK(ti.dtype == ge::DT_INT64);
  CHECK(ti.shape.empty());
  CHECK(ti.data == std::vector<uint8_t>{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});

  onnx::TensorProto b;
  b.set_data_type(onnx::TensorProto::BOOL);
  b.add_dims(3);
  b.add_int32_data(1);
  b.add_int32_data(0);
  b.add_int32_data(5);
  CHECK(ReadOnnxTensorPb(Save(dir, "b.pb", b)).data == std::vector<uint8_t>{1, 0, 1});

  onnx::TensorProto i8;
  i8.set_data_type(onnx::TensorProto::INT8);
  i8.add_dims(2);
  i8.add_int32_data(-1);
  i8.add_int32_data(7);
  HostTensor t8 = ReadOnnxTensorPb(Save(dir, "i8.pb", i8));
  CHECK(t8.dtype == ge::DT_INT8);
  CHECK(t8.data == std::vector<uint8_t>{0xff, 7});

  onnx::TensorProto u32;
  u32.set_data_type(onnx::TensorProto::UINT32);
  u32.add_dims(1);
  u32.add_uint64_data(0x01020304);
  HostTensor tu = ReadOnnxTensorPb(Save(dir, "u32.pb", u32));
  CHECK(tu.dtype == ge::DT_UINT32);
  CHECK(tu.data == std::vector<uint8_t>{4, 3, 2, 1});

  onnx::TensorProto d;
  d.set_data_type(onnx::TensorProto::DOUBLE);
  d.add_dims(1);
  d.add_double_data(1.0);
  CHECK(ReadOnnxTensorPb(Save(dir, "d.pb", d)).data == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
}

TEST_CASE("tools_pb: errors") {
  std::string dir = FreshDir("pb_bad");
  onnx::TensorProto s;
  s.set_data_type(onnx::TensorProto::STRING);
  s.add_string_data("a");
  CHECK(PbError(Save(dir, "s.pb", s)) == "not a valid ONNX TensorProto file: ONNX data_type 8 is not supported");

  onnx::TensorProto raw;
  raw.set_data_type(onnx::TensorProto::FLOAT);
  raw.add_dims(2);
  raw.set_raw_data(std::string(7, '\0'));
  CHECK(PbError(Save(dir, "raw.pb", raw)) ==
        "not a valid ONNX TensorProto file: raw_data holds 7 bytes but shape [2] of float32 needs 8");

  onnx::TensorProto f;
  f.set_data_type(onnx::TensorProto::FLOAT);
  f.add_dims(2);
  f.add_dims(2);
  f.add_float_data(1.0f);
  CHECK(PbError(Save(dir, "f.pb", f)) ==
        "not a valid ONNX TensorProto file: float_data holds 1 values but shape [2, 2] of float32 needs 4");

  onnx::TensorProto huge;
  huge.set_data_type(onnx::TensorProto::FLOAT);
  huge.add_dims(int64_t{1} << 40);
  huge.add_dims(int64_t{1} << 40);
  CHECK(PbError(Save(dir, "huge.pb", huge)) ==
        "not a valid ONNX TensorProto file: the element count of shape [1099511627776, 1099511627776] overflows");

  onnx::TensorProto neg;
  neg.set_data_type(onnx::TensorProto::FLOAT);
  neg.add_dims(-1);
  CHECK(PbError(Save(dir, "neg.pb", neg)) == "not a valid ONNX TensorProto file: dim -1 is negative");

  onnx::TensorProto ext;
  ext.set_data_type(onnx::TensorProto::FLOAT);
  ext.set_data_location(onnx::TensorProto::EXTERNAL);
  CHECK(PbError(Save(dir, "ext.pb", ext)) == "not a valid ONNX TensorProto file: external data is not supported");

  tools_test::WriteBytes(dir + "/junk.pb", std::string("\xff\xff\xff\xff", 4));
  CHECK(PbError(dir + "/junk.pb") == "not a valid ONNX TensorProto file: protobuf parsing failed");
}

TEST_CASE("tools_pb: every truncation either parses to the right size or is refused") {
  std::string dir = FreshDir("pb_trunc");
  onnx::TensorProto p;
  p.set_data_type(onnx::TensorProto::FLOAT);
  p.add_dims(2);
  p.add_float_data(1.0f);
  p.add_float_data(2.0f);
  const std::string full = p.SerializeAsString();
  for (size_t n = 0; n < full.size(); ++n) {
    tools_test::WriteBytes(dir + "/cut.pb", full.substr(0, n));
    try {
      HostTensor t = ReadOnnxTensorPb(dir + "/cut.pb");
      CHECK(t.data.size() == 4 * static_cast<size_t>(openatc::ShapeElementCount(t.shape)));
    } catch (const openatc::Error &e) {
      CHECK(e.code() == "OA3001");
    }
  }
}
