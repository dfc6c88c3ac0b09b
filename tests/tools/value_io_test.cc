// Sequence and optional values in omrun's files (openatc/tensor_io/value_io.h): SequenceProto and
// OptionalProto .pb files, element folders, `none`, the outputs written for them, and their
// element-by-element comparison. Expected bytes are written out by hand.
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <onnx/onnx-data_pb.h>

#include "openatc/common/dtype.h"
#include "openatc/tensor_io/value_io.h"
#include "test_util.h"

using namespace openatc::tensor_io;
using openatc::HostValue;
using openatc::ir::ValueKind;
using tools_test::Capture;
using tools_test::FreshDir;

namespace {

onnx::TensorProto FloatProto(std::vector<int64_t> dims, const std::vector<float> &v) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float x : v) t.add_float_data(x);
  return t;
}

std::vector<float> Floats(const HostTensor &t) {
  std::vector<float> v(t.data.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

HostTensor FloatTensor(std::vector<int64_t> shape, const std::vector<float> &v) {
  HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = std::move(shape);
  t.data.resize(v.size() * 4);
  if (!v.empty()) std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

std::string Save(const std::string &dir, const std::string &name, const google::protobuf::MessageLite &m) {
  const std::string path = dir + "/" + name;
  tools_test::WriteBytes(path, m.SerializeAsString());
  return path;
}

}  // namespace

TEST_CASE("value_io: a SequenceProto of two float tensors") {
  const std::string dir = FreshDir("value_seq_pb");
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  *s.add_tensor_values() = FloatProto({2}, {1.5f, -2.0f});
  *s.add_tensor_values() = FloatProto({1, 3}, {3, 4, 5});
  const HostValue v = LoadValueFile(Save(dir, "s.pb", s), "input 0 'seq'", ValueKind::kSequence, ge::DT_FLOAT, {-2});
  CHECK(v.kind == ValueKind::kSequence);
  REQUIRE(v.seq.size() == 2);
  CHECK(v.seq[0].shape == std::vector<int64_t>{2});
  CHECK(Floats(v.seq[0]) == std::vector<float>{1.5f, -2.0f});
  CHECK(v.seq[1].shape == std::vector<int64_t>{1, 3});
  CHECK(Floats(v.seq[1]) == std::vector<float>{3, 4, 5});
  // An element of another dtype is refused naming the element.
  onnx::SequenceProto bad = s;
  bad.mutable_tensor_values(1)->set_data_type(onnx::TensorProto::INT32);
  bad.mutable_tensor_values(1)->clear_float_data();
  for (int k = 0; k < 3; ++k) bad.mutable_tensor_values(1)->add_int32_data(k);
  openatc::Error e = Capture([&] { LoadValueFile(Save(dir, "bad.pb", bad), "input 0 'seq'", ValueKind::kSequence, ge::DT_FLOAT, {-2}); });
  CHECK(e.code() == "OA3002");
  CHECK(e.message().find("input 0 'seq' element 1") != std::string::npos);
}

TEST_CASE("value_io: a sequence folder 0.npy, 1.npy; gaps and strays are refused") {
  const std::string dir = FreshDir("value_seq_dir");
  std::filesystem::create_directories(dir + "/seq");
  WriteNpy(dir + "/seq/0.npy", FloatTensor({2}, {7, 8}));
  WriteNpy(dir + "/seq/1.npy", FloatTensor({}, {9}));
  const HostValue v = LoadValueFile(dir + "/seq", "input 1 's'", ValueKind::kSequence, ge::DT_FLOAT, {-2});
  REQUIRE(v.seq.size() == 2);
  CHECK(Floats(v.seq[0]) == std::vector<float>{7, 8});
  CHECK(v.seq[1].shape.empty());
  std::filesystem::create_directories(dir + "/empty");
  CHECK(LoadValueFile(dir + "/empty", "in", ValueKind::kSequence, ge::DT_FLOAT, {-2}).seq.empty());
  std::filesystem::create_directories(dir + "/gap");
  WriteNpy(dir + "/gap/0.npy", FloatTensor({1}, {1}));
  WriteNpy(dir + "/gap/2.npy", FloatTensor({1}, {1}));
  openatc::Error gap = Capture([&] { LoadValueFile(dir + "/gap", "in", ValueKind::kSequence, ge::DT_FLOAT, {-2}); });
  CHECK(gap.code() == "OA3001");
  CHECK(gap.message().find("no element 1") != std::string::npos);
  tools_test::WriteBytes(dir + "/seq/notes.txt", "x");
  openatc::Error stray = Capture([&] { LoadValueFile(dir + "/seq", "in", ValueKind::kSequence, ge::DT_FLOAT, {-2}); });
  CHECK(stray.code() == "OA3001");
  CHECK(stray.message().find("notes.txt") != std::string::npos);
}

TEST_CASE("value_io: OptionalProto None, tensor and sequence; 'none'; a plain tensor file is a present value") {
  const std::string dir = FreshDir("value_opt");
  onnx::OptionalProto none;
  none.set_elem_type(onnx::OptionalProto::UNDEFINED);
  const HostValue n = LoadValueFile(Save(dir, "n.pb", none), "in", ValueKind::kOptionalTensor, ge::DT_FLOAT, {2});
  CHECK(n.kind == ValueKind::kOptionalTensor);
  CHECK_FALSE(n.present);
  CHECK_FALSE(LoadValueFile("none", "in", ValueKind::kOptionalSequence, ge::DT_FLOAT, {-2}).present);
  onnx::OptionalProto t;
  t.set_elem_type(onnx::OptionalProto::TENSOR);
  *t.mutable_tensor_value() = FloatProto({2}, {0.25f, 4});
  const HostValue tv = LoadValueFile(Save(dir, "t.pb", t), "in", ValueKind::kOptionalTensor, ge::DT_FLOAT, {2});
  CHECK(tv.present);
  CHECK(Floats(tv.tensor) == std::vector<float>{0.25f, 4});
  // The model's tensor shape is checked, as for any tensor input.
  openatc::Error shape = Capture([&] { LoadValueFile(Save(dir, "t2.pb", t), "in", ValueKind::kOptionalTensor, ge::DT_FLOAT, {3}); });
  CHECK(shape.code() == "OA3003");
  onnx::OptionalProto s;
  s.set_elem_type(onnx::OptionalProto::SEQUENCE);
  s.mutable_sequence_value()->set_elem_type(onnx::SequenceProto::TENSOR);
  *s.mutable_sequence_value()->add_tensor_values() = FloatProto({1}, {6});
  const HostValue sv = LoadValueFile(Save(dir, "s.pb", s), "in", ValueKind::kOptionalSequence, ge::DT_FLOAT, {-2});
  CHECK(sv.kind == ValueKind::kOptionalSequence);
  REQUIRE(sv.seq.size() == 1);
  CHECK(Floats(sv.seq[0]) == std::vector<float>{6});
  openatc::Error kind = Capture([&] { LoadValueFile(dir + "/s.pb", "in", ValueKind::kOptionalTensor, ge::DT_FLOAT, {-2}); });
  CHECK(kind.code() == "OA3001");
  CHECK(kind.message().find("holds a sequence") != std::string::npos);
  WriteNpy(dir + "/x.npy", FloatTensor({2}, {1, 2}));
  const HostValue plain = LoadValueFile(dir + "/x.npy", "in", ValueKind::kOptionalTensor, ge::DT_FLOAT, {2});
  CHECK(plain.present);
  CHECK(plain.kind == ValueKind::kOptionalTensor);
  CHECK(Floats(plain.tensor) == std::vector<float>{1, 2});
}

namespace {
std::vector<uint8_t> Bytes(const google::protobuf::MessageLite &m) {
  const std::string s = m.SerializeAsString();
  return std::vector<uint8_t>(s.begin(), s.end());
}
}  // namespace

// The in-memory form value_io_fuzz (tests/om/value_io_fuzz.cc) drives; every bad input is an OA3001
// naming the file, never a crash or an allocation the input's size does not pay for.
TEST_CASE("value_io: ValueFromPbBytes refuses malformed, mixed, deeply nested and oversized values") {
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  *s.add_tensor_values() = FloatProto({2}, {1, 2});
  const HostValue ok = ValueFromPbBytes(Bytes(s), "m.pb", "in", ValueKind::kSequence, ge::DT_FLOAT, {-2});
  REQUIRE(ok.seq.size() == 1);
  CHECK(Floats(ok.seq[0]) == std::vector<float>{1, 2});
  auto code_of = [](const std::vector<uint8_t> &b, ValueKind k, const std::string &want_text) {
    openatc::Error e = Capture([&] { ValueFromPbBytes(b, "m.pb", "in", k, ge::DT_FLOAT, {-2}); });
    INFO(e.message());
    CHECK(e.message().find(want_text) != std::string::npos);
    CHECK(e.file() == "m.pb");
    return e.code();
  };
  // Cut short inside the tensor: protobuf refuses it.
  std::vector<uint8_t> cut = Bytes(s);
  cut.resize(cut.size() - 3);
  CHECK(code_of(cut, ValueKind::kSequence, "protobuf parsing failed") == "OA3001");
  // A TENSOR sequence that also carries nested sequences: refused, not silently dropped.
  onnx::SequenceProto mixed = s;
  mixed.add_sequence_values()->set_elem_type(onnx::SequenceProto::TENSOR);
  CHECK(code_of(Bytes(mixed), ValueKind::kSequence, "also holds sparse, sequence, map or optional values") == "OA3001");
  // Sequences nested 200 deep (past protobuf's recursion limit of 100): refused by the parser.
  onnx::SequenceProto deep;
  onnx::SequenceProto *at = &deep;
  for (int i = 0; i < 200; ++i) {
    at->set_elem_type(onnx::SequenceProto::SEQUENCE);
    at = at->add_sequence_values();
  }
  CHECK(code_of(Bytes(deep), ValueKind::kSequence, "protobuf parsing failed") == "OA3001");
  // 10 levels, within protobuf's limit: refused as a sequence of sequences.
  onnx::SequenceProto nested;
  at = &nested;
  for (int i = 0; i < 10; ++i) {
    at->set_elem_type(onnx::SequenceProto::SEQUENCE);
    at = at->add_sequence_values();
  }
  CHECK(code_of(Bytes(nested), ValueKind::kSequence, "elem_type 3") == "OA3001");
  // An element claiming 2^40 floats with none stored: refused before anything is allocated.
  onnx::SequenceProto huge;
  huge.set_elem_type(onnx::SequenceProto::TENSOR);
  *huge.add_tensor_values() = FloatProto({int64_t{1} << 40}, {});
  CHECK(code_of(Bytes(huge), ValueKind::kSequence, "float_data holds 0 values") == "OA3001");
  onnx::SequenceProto overflow;
  *overflow.add_tensor_values() = FloatProto({int64_t{1} << 40, int64_t{1} << 40}, {});
  CHECK(code_of(Bytes(overflow), ValueKind::kSequence, "overflows") == "OA3001");
  // An OptionalProto of an unknown elem_type, and a tensor asked for through this entry point.
  onnx::OptionalProto odd;
  odd.set_elem_type(9);
  CHECK(code_of(Bytes(odd), ValueKind::kOptionalTensor, "elem_type 9") == "OA3001");
  // An OptionalProto that is None yet holds a tensor, or holds both a tensor and a sequence.
  onnx::OptionalProto none_with_value;
  *none_with_value.mutable_tensor_value() = FloatProto({1}, {1});
  CHECK(code_of(Bytes(none_with_value), ValueKind::kOptionalTensor, "UNDEFINED (None) but holds a value") == "OA3001");
  onnx::OptionalProto two = none_with_value;
  two.set_elem_type(onnx::OptionalProto::TENSOR);
  *two.mutable_sequence_value() = s;
  CHECK(code_of(Bytes(two), ValueKind::kOptionalTensor, "more than one value") == "OA3001");
  CHECK(code_of(Bytes(s), ValueKind::kTensor, "LoadTensorFile") == "OA3001");
}

TEST_CASE("value_io: outputs: a sequence folder, a None optional, outputs.json, and reading them back") {
  const std::string dir = FreshDir("value_out");
  HostValue seq;
  seq.kind = ValueKind::kSequence;
  seq.seq = {FloatTensor({2}, {1, 2}), FloatTensor({1}, {3})};
  HostValue none;
  none.kind = ValueKind::kOptionalTensor;
  none.present = false;
  HostValue t = openatc::TensorHostValue(FloatTensor({1}, {5}));
  WriteValueOutputs(dir + "/out", {"s", "o", "t"}, {seq, none, t}, "NPY");
  const auto doc = nlohmann::json::parse(tools_test::ReadText(dir + "/out/outputs.json"));
  const auto &list = doc.at("outputs");
  REQUIRE(list.size() == 3);
  CHECK(list[0].at("kind") == "sequence");
  CHECK(list[0].at("file") == "output_0");
  REQUIRE(list[0].at("elements").size() == 2);
  CHECK(list[0].at("elements")[1].at("file") == "output_0/1.npy");
  CHECK(list[1].at("kind") == "optional tensor");
  CHECK(list[1].at("present") == false);
  CHECK_FALSE(list[1].contains("file"));
  CHECK_FALSE(list[2].contains("kind"));
  CHECK(list[2].at("file") == "output_2.npy");
  CHECK_FALSE(std::filesystem::exists(dir + "/out/output_0.part"));
  const HostValue back = LoadValueFile(dir + "/out/output_0", "expected", ValueKind::kSequence, ge::DT_FLOAT, {-2});
  REQUIRE(back.seq.size() == 2);
  CHECK(Floats(back.seq[1]) == std::vector<float>{3});
  // Written again with one element fewer: the folder holds exactly the new elements.
  seq.seq.pop_back();
  WriteValueOutputs(dir + "/out", {"s", "o", "t"}, {seq, none, t}, "NPY");
  CHECK(LoadValueFile(dir + "/out/output_0", "expected", ValueKind::kSequence, ge::DT_FLOAT, {-2}).seq.size() == 1);
}

TEST_CASE("value_io: CompareValues: length, presence, and per-element tolerance") {
  HostValue a;
  a.kind = ValueKind::kSequence;
  a.seq = {FloatTensor({2}, {1, 2}), FloatTensor({1}, {3})};
  HostValue b = a;
  CHECK(CompareValues(a, b, 1e-7, 1e-3).ok);
  CHECK(CompareValues(a, b, 1e-7, 1e-3).elements.size() == 2);
  b.seq[1] = FloatTensor({1}, {3.01f});  // |diff| 0.01 > 1e-7 + 1e-3 * 3.01
  const ValueComparison off = CompareValues(a, b, 1e-7, 1e-3);
  CHECK_FALSE(off.ok);
  CHECK(off.problem.empty());
  CHECK(off.elements[0].ok);
  CHECK_FALSE(off.elements[1].ok);
  b.seq.pop_back();
  const ValueComparison len = CompareValues(a, b, 1e-7, 1e-3);
  CHECK_FALSE(len.ok);
  CHECK(len.problem.find("has 2 tensors but the expected one has 1") != std::string::npos);
  HostValue none;
  none.kind = ValueKind::kOptionalSequence;
  none.present = false;
  CHECK(CompareValues(none, none, 0, 0).ok);
  CHECK_FALSE(CompareValues(a, none, 0, 0).ok);
}
