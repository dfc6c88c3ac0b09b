// ONNX's own node conformance cases (Debian libonnx-testdata) for the oneDNN-backed built-in ops:
// each case's model.onnx is read with a small protobuf wire-format reader (node op_type, inputs,
// attributes, opset), run through the one-op harness, and compared with output_K.pb.
// Skipped with a message when /usr/share/libonnx-testdata is absent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
const char *kNodeDir = "/usr/share/libonnx-testdata/data/node/";

// A minimal protobuf reader: enough of onnx.proto's ModelProto/GraphProto/NodeProto/AttributeProto.
struct Wire {
  const uint8_t *p, *end;
  bool More() const { return p < end; }
  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
      const uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    return v;
  }
  // Reads a tag; returns field number and sets wire type.
  uint32_t Tag(uint32_t *wt) {
    const uint64_t t = Varint();
    *wt = static_cast<uint32_t>(t & 7);
    return static_cast<uint32_t>(t >> 3);
  }
  Wire Sub() {
    const uint64_t n = Varint();
    Wire w{p, p + n};
    p += n;
    return w;
  }
  std::string Str() {
    Wire w = Sub();
    return std::string(reinterpret_cast<const char *>(w.p), static_cast<size_t>(w.end - w.p));
  }
  float Fixed32() {
    float f;
    std::memcpy(&f, p, 4);
    p += 4;
    return f;
  }
  void Skip(uint32_t wt) {
    if (wt == 0) Varint();
    else if (wt == 1) p += 8;
    else if (wt == 2) Sub();
    else if (wt == 5) p += 4;
    else p = end;
  }
};

struct OnnxNode {
  std::string op_type;
  std::vector<std::string> inputs, outputs, graph_inputs;
  std::map<std::string, ir::AttrValue> attrs;
  int64_t opset = 0;
};

ir::AttrValue ReadAttr(Wire w, std::string *name) {
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  uint64_t type = 0;
  while (w.More()) {
    uint32_t wt;
    const uint32_t field = w.Tag(&wt);
    if (field == 1) *name = w.Str();
    else if (field == 2) f = w.Fixed32();
    else if (field == 3) i = static_cast<int64_t>(w.Varint());
    else if (field == 4) s = w.Str();
    else if (field == 7 && wt == 2) {
      Wire q = w.Sub();
      while (q.More()) floats.push_back(q.Fixed32());
    } else if (field == 7) floats.push_back(w.Fixed32());
    else if (field == 8 && wt == 2) {
      Wire q = w.Sub();
      while (q.More()) ints.push_back(static_cast<int64_t>(q.Varint()));
    } else if (field == 8) ints.push_back(static_cast<int64_t>(w.Varint()));
    else if (field == 20) type = w.Varint();
    else w.Skip(wt);
  }
  switch (type) {
    case 1: return FloatAttr(f);
    case 2: return IntAttr(i);
    case 3: return StringAttr(s);
    case 6: return FloatsAttr(floats);
    case 7: return IntsAttr(ints);
    default: throw std::runtime_error("attribute '" + *name + "' has an unsupported type " + std::to_string(type));
  }
}

OnnxNode ReadModel(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  OnnxNode n;
  Wire m{bytes.data(), bytes.data() + bytes.size()};
  while (m.More()) {
    uint32_t wt;
    const uint32_t field = m.Tag(&wt);
    if (field == 7) {
      Wire g = m.Sub();
      bool have_node = false;
      while (g.More()) {
        const uint32_t gf = g.Tag(&wt);
        if (gf == 1 && !have_node) {
          have_node = true;
          Wire nd = g.Sub();
          while (nd.More()) {
            const uint32_t nf = nd.Tag(&wt);
            if (nf == 1) n.inputs.push_back(nd.Str());
            else if (nf == 2) n.outputs.push_back(nd.Str());
            else if (nf == 4) n.op_type = nd.Str();
            else if (nf == 5) {
              std::string name;
              ir::AttrValue v = ReadAttr(nd.Sub(), &name);
              n.attrs[name] = v;
            } else nd.Skip(wt);
          }
        } else if (gf == 11) {
          Wire vi = g.Sub();
          while (vi.More()) {
            const uint32_t vf = vi.Tag(&wt);
            if (vf == 1) n.graph_inputs.push_back(vi.Str());
            else vi.Skip(wt);
          }
        } else {
          g.Skip(wt);
        }
      }
    } else if (field == 8) {
      Wire op = m.Sub();
      std::string domain;
      int64_t version = 0;
      while (op.More()) {
        const uint32_t of = op.Tag(&wt);
        if (of == 1) domain = op.Str();
        else if (of == 2) version = static_cast<int64_t>(op.Varint());
        else op.Skip(wt);
      }
      if (domain.empty() || domain == "ai.onnx") n.opset = version;
    } else {
      m.Skip(wt);
    }
  }
  return n;
}

// Runs one case; returns "" on a match, else what went wrong.
std::string RunCase(const std::string &name, double atol, double rtol) {
  const std::string dir = kNodeDir + name + "/";
  OnnxNode n = ReadModel(dir + "model.onnx");
  OpCase c{n.op_type, {}, n.attrs, 0};
  c.attrs["onnx_opset"] = IntAttr(n.opset);
  for (const std::string &in : n.inputs) {
    if (in.empty()) {
      c.inputs.emplace_back();
      continue;
    }
    size_t k = 0;
    while (k < n.graph_inputs.size() && n.graph_inputs[k] != in) ++k;
    if (k == n.graph_inputs.size()) return "input '" + in + "' is not a graph input";
    c.inputs.emplace_back(tensor_io::ReadOnnxTensorPb(dir + "test_data_set_0/input_" + std::to_string(k) + ".pb"));
  }
  for (const std::string &out : n.outputs)
    if (!out.empty()) ++c.num_outputs;
  std::vector<HostTensor> got;
  try {
    got = RunOp(c);
  } catch (const std::exception &e) {
    return std::string("error: ") + e.what();
  }
  for (size_t k = 0; k < got.size(); ++k) {
    HostTensor want = tensor_io::ReadOnnxTensorPb(dir + "test_data_set_0/output_" + std::to_string(k) + ".pb");
    try {
      auto cmp = tensor_io::Compare(got[k], want, atol, rtol);
      if (!cmp.ok)
        return "output " + std::to_string(k) + " mismatch: max abs " + std::to_string(cmp.max_abs) + ", max rel " +
               std::to_string(cmp.max_rel) + " at " + std::to_string(cmp.first_bad_index);
    } catch (const std::exception &e) {
      return "output " + std::to_string(k) + ": " + e.what();
    }
  }
  return "";
}

void RunCases(const std::vector<std::string> &names, double atol, double rtol) {
  if (!std::filesystem::exists(kNodeDir)) {
    WARN("skipped: " << kNodeDir << " is absent (install libonnx-testdata)");
    return;
  }
  for (const std::string &name : names) {
    INFO("case " << name);
    CHECK(RunCase(name, atol, rtol) == "");
  }
}
}  // namespace

TEST_CASE("ONNX node cases: Conv", "[ops][onnx]") {
  RunCases({"test_basic_conv_with_padding", "test_basic_conv_without_padding", "test_conv_with_autopad_same",
            "test_conv_with_strides_and_asymmetric_padding", "test_conv_with_strides_no_padding",
            "test_conv_with_strides_padding"},
           1e-5, 1e-3);
}

TEST_CASE("ONNX node cases: ConvTranspose", "[ops][onnx]") {
  RunCases({"test_convtranspose", "test_convtranspose_1d", "test_convtranspose_3d", "test_convtranspose_autopad_same",
            "test_convtranspose_dilations", "test_convtranspose_kernel_shape", "test_convtranspose_output_shape",
            "test_convtranspose_pad", "test_convtranspose_pads", "test_convtranspose_with_kernel"},
           1e-5, 1e-3);
}

TEST_CASE("ONNX node cases: MatMul and Gemm", "[ops][onnx]") {
  RunCases({"test_matmul_2d", "test_matmul_3d", "test_matmul_4d", "test_gemm_all_attributes", "test_gemm_alpha",
            "test_gemm_beta", "test_gemm_default_matrix_bias", "test_gemm_default_no_bias",
            "test_gemm_default_scalar_bias", "test_gemm_default_single_elem_vector_bias",
            "test_gemm_default_vector_bias", "test_gemm_default_zero_bias", "test_gemm_transposeA",
            "test_gemm_transposeB"},
           1e-5, 1e-3);
}

TEST_CASE("ONNX node cases: pooling", "[ops][onnx]") {
  RunCases({"test_averagepool_1d_default", "test_averagepool_2d_ceil", "test_averagepool_2d_default",
            "test_averagepool_2d_pads", "test_averagepool_2d_pads_count_include_pad",
            "test_averagepool_2d_precomputed_pads", "test_averagepool_2d_precomputed_pads_count_include_pad",
            "test_averagepool_2d_precomputed_same_upper", "test_averagepool_2d_precomputed_strides",
            "test_averagepool_2d_same_lower", "test_averagepool_2d_same_upper", "test_averagepool_2d_strides",
            "test_averagepool_3d_default", "test_maxpool_1d_default", "test_maxpool_2d_ceil",
            "test_maxpool_2d_default", "test_maxpool_2d_dilations", "test_maxpool_2d_pads",
            "test_maxpool_2d_precomputed_pads", "test_maxpool_2d_precomputed_same_upper",
            "test_maxpool_2d_precomputed_strides", "test_maxpool_2d_same_lower", "test_maxpool_2d_same_upper",
            "test_maxpool_2d_strides", "test_maxpool_2d_uint8", "test_maxpool_3d_default",
            "test_maxpool_with_argmax_2d_precomputed_pads", "test_maxpool_with_argmax_2d_precomputed_strides",
            "test_globalaveragepool", "test_globalaveragepool_precomputed", "test_globalmaxpool",
            "test_globalmaxpool_precomputed"},
           1e-5, 1e-3);
}

TEST_CASE("ONNX node cases: BatchNormalization (inference)", "[ops][onnx]") {
  RunCases({"test_batchnorm_epsilon", "test_batchnorm_example"}, 1e-5, 1e-3);
}

TEST_CASE("ONNX node cases: LRN, InstanceNormalization, LayerNormalization", "[ops][onnx]") {
  std::vector<std::string> names = {"test_lrn", "test_lrn_default", "test_instancenorm_epsilon",
                                    "test_instancenorm_example"};
  if (std::filesystem::exists(kNodeDir))
    for (const auto &e : std::filesystem::directory_iterator(kNodeDir)) {
      const std::string n = e.path().filename().string();
      if (n.rfind("test_layer_normalization_", 0) == 0 && n.find("_expanded") == std::string::npos) names.push_back(n);
    }
  std::sort(names.begin(), names.end());
  RunCases(names, 1e-5, 1e-3);
}
