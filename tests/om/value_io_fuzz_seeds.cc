// Writes the seed corpus of value_io_fuzz.cc: small valid SequenceProto / OptionalProto files, each
// behind the byte that value_io_fuzz reads first (kind = byte % 3: 0 sequence, 1 optional tensor,
// 2 optional sequence; dtype = (byte / 3) % 8: 0 float, 1 int64, 3 uint8, 5 bfloat16, 7 double;
// bit 7: shape {2, -1}, so 145 is an optional float tensor of shape {2, -1}). Run at build time by the fuzz build: value_io_fuzz_seeds <dir> (the folder must exist).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <onnx/onnx-data_pb.h>

namespace {

onnx::TensorProto Floats(const std::vector<int64_t> &dims, const std::vector<float> &v, bool raw) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  if (raw) t.set_raw_data(std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float)));
  else
    for (float x : v) t.add_float_data(x);
  return t;
}

onnx::TensorProto Int64s(const std::vector<int64_t> &dims, const std::vector<int64_t> &v) {
  onnx::TensorProto t;
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t.add_dims(d);
  for (int64_t x : v) t.add_int64_data(x);
  return t;
}

onnx::TensorProto Typed(int32_t onnx_type, const std::vector<int64_t> &dims, const std::vector<int32_t> &v) {
  onnx::TensorProto t;
  t.set_data_type(onnx_type);
  for (int64_t d : dims) t.add_dims(d);
  for (int32_t x : v) t.add_int32_data(x);
  return t;
}

onnx::SequenceProto Seq(const std::vector<onnx::TensorProto> &elems, bool typed = true) {
  onnx::SequenceProto s;
  s.set_name("s");
  if (typed) s.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto &e : elems) *s.add_tensor_values() = e;
  return s;
}

bool Write(const std::string &path, uint8_t selector, const google::protobuf::MessageLite &m) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  const std::string bytes = m.SerializeAsString();
  f.put(static_cast<char>(selector));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: value_io_fuzz_seeds <output folder>\n");
    return 2;
  }
  const std::string dir = argv[1];
  bool ok = true;
  // Sequences (selector 0 float, 3 int64, 9 uint8, 15 bfloat16, 21 double).
  ok &= Write(dir + "/seq_float.pb", 0, Seq({Floats({2}, {1.5f, -2.0f}, false), Floats({1, 3}, {1, 2, 3}, true)}));
  ok &= Write(dir + "/seq_int64.pb", 3, Seq({Int64s({2}, {7, -9}), Int64s({}, {4})}));
  ok &= Write(dir + "/seq_uint8.pb", 9, Seq({Typed(onnx::TensorProto::UINT8, {3}, {0, 128, 255})}));
  ok &= Write(dir + "/seq_bf16_as_uint16.pb", 15, Seq({Typed(onnx::TensorProto::UINT16, {2}, {0x3f80, 0xc000})}));
  ok &= Write(dir + "/seq_empty_untyped.pb", 0, Seq({}, false));
  ok &= Write(dir + "/seq_zero_dim.pb", 0, Seq({Floats({0, 4}, {}, true)}));
  {
    onnx::TensorProto d;
    d.set_data_type(onnx::TensorProto::DOUBLE);
    d.add_dims(1);
    d.add_double_data(0.25);
    ok &= Write(dir + "/seq_double.pb", 21, Seq({d}));
  }
  // Optionals of a tensor (selector 1; 145: shape {2, -1}).
  onnx::OptionalProto ot;
  ot.set_name("o");
  ot.set_elem_type(onnx::OptionalProto::TENSOR);
  *ot.mutable_tensor_value() = Floats({2, 2}, {1, 2, 3, 4}, true);
  ok &= Write(dir + "/opt_tensor.pb", 1, ot);
  ok &= Write(dir + "/opt_tensor_shaped.pb", 145, ot);
  onnx::OptionalProto none;
  none.set_elem_type(onnx::OptionalProto::UNDEFINED);
  ok &= Write(dir + "/opt_none.pb", 1, none);
  // Optionals of a sequence (selector 2 float, 5 int64).
  onnx::OptionalProto os;
  os.set_elem_type(onnx::OptionalProto::SEQUENCE);
  *os.mutable_sequence_value() = Seq({Floats({3}, {0.5f, 1, -1}, false)});
  ok &= Write(dir + "/opt_seq.pb", 2, os);
  onnx::OptionalProto os64;
  os64.set_elem_type(onnx::OptionalProto::SEQUENCE);
  *os64.mutable_sequence_value() = Seq({Int64s({1}, {5}), Int64s({2}, {1, 2})});
  ok &= Write(dir + "/opt_seq_int64.pb", 5, os64);
  ok &= Write(dir + "/opt_seq_none.pb", 2, none);
  if (!ok) {
    std::fprintf(stderr, "value_io_fuzz_seeds: cannot write into %s\n", dir.c_str());
    return 1;
  }
  return 0;
}
