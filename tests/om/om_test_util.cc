// Helpers of the OM tests (see om_test_util.h).
#include "om_test_util.h"

#include <cstdlib>
#include <cstring>

#include <catch2/catch.hpp>
#include <xxhash.h>

#include "openatc/common/error.h"

namespace omtest {
using namespace openatc;

namespace {

ir::TensorDesc Desc(ge::DataType dt, std::vector<int64_t> shape, std::string name = {}) {
  ir::TensorDesc d;
  d.name = std::move(name);
  d.dtype = dt;
  d.format = ge::FORMAT_NCHW;
  d.origin_format = ge::FORMAT_ND;
  d.shape = shape;
  d.origin_shape = shape;
  return d;
}

ir::AttrValue Attr(ir::AttrKind k) {
  ir::AttrValue v;
  v.kind = k;
  return v;
}

}  // namespace

om::Model MakeModel(size_t artifact_bytes, size_t deliverable_bytes, size_t w_elems) {
  om::Model m;
  m.producer = "OpenATC 0.1.0";
  m.target = openatc::Target{openatc::TargetKind::kHost, "host", "x86_64"};
  m.build_options = {{"soc_version", "host"}, {"framework", "5"}, {"output", "out/x"}};

  auto &g = m.graph;
  g.name = "test_graph";
  const std::vector<int64_t> shape{static_cast<int64_t>(w_elems / 4), 4};

  ir::Node x;
  x.name = "x";
  x.type = ir::kData;
  x.output_descs = {Desc(ge::DT_FLOAT, shape, "y")};
  x.attrs["index"] = Attr(ir::AttrKind::kInt);

  ir::Node w;
  w.name = "w";
  w.type = ir::kConst;
  w.output_descs = {Desc(ge::DT_FLOAT, shape, "y")};
  {
    auto t = std::make_shared<ir::ConstTensor>();
    t->desc = Desc(ge::DT_FLOAT, shape);
    std::vector<float> vals(w_elems);
    for (size_t k = 0; k < w_elems; ++k) vals[k] = static_cast<float>(k % 4);
    t->data = ir::Bytes::Copy(vals.data(), vals.size() * sizeof(float));
    ir::AttrValue v = Attr(ir::AttrKind::kTensor);
    v.t = t;
    w.attrs["value"] = v;
  }

  ir::Node add;
  add.name = "add";
  add.type = "AddCustom";
  add.inputs = {{0, 0}, {1, 0}, {-1, 0}};
  add.control_inputs = {1};
  add.input_descs = {Desc(ge::DT_FLOAT, shape, "x1"), Desc(ge::DT_FLOAT, shape, "x2"),
                     Desc(ge::DT_FLOAT, {}, "bias")};
  add.input_descs[2].valid = false;
  add.output_descs = {Desc(ge::DT_FLOAT, shape, "z")};
  {
    auto &a = add.attrs;
    a["a_none"] = Attr(ir::AttrKind::kNone);
    a["a_int"] = Attr(ir::AttrKind::kInt);
    a["a_int"].i = -1234567890123LL;
    a["a_float"] = Attr(ir::AttrKind::kFloat);
    a["a_float"].f = -0.0f;
    a["a_float2"] = Attr(ir::AttrKind::kFloat);
    a["a_float2"].f = 2.5f;
    a["a_bool"] = Attr(ir::AttrKind::kBool);
    a["a_bool"].b = true;
    a["a_string"] = Attr(ir::AttrKind::kString);
    a["a_string"].s = "hello";
    a["a_bytes"] = Attr(ir::AttrKind::kBytes);
    a["a_bytes"].s = std::string("\x00\x01\xff\x00z", 5);
    a["a_dtype"] = Attr(ir::AttrKind::kDataType);
    a["a_dtype"].dt = ge::DT_BF16;
    a["a_tensor"] = Attr(ir::AttrKind::kTensor);
    a["a_tensor"].t = std::make_shared<ir::ConstTensor>();
    a["a_tensor"].t->desc = Desc(ge::DT_INT32, {});
    int32_t scalar = 42;
    a["a_tensor"].t->data = ir::Bytes::Copy(&scalar, 4);
    a["a_empty_tensor"] = Attr(ir::AttrKind::kTensor);
    a["a_empty_tensor"].t = std::make_shared<ir::ConstTensor>();
    a["a_empty_tensor"].t->desc = Desc(ge::DT_FLOAT16, {0, 3});
    a["a_list_int"] = Attr(ir::AttrKind::kListInt);
    a["a_list_int"].list_i = {1, -2, 3};
    a["a_list_float"] = Attr(ir::AttrKind::kListFloat);
    a["a_list_float"].list_f = {0.5f, -1.25f};
    a["a_list_bool"] = Attr(ir::AttrKind::kListBool);
    a["a_list_bool"].list_b = {1, 0, 1};
    a["a_list_string"] = Attr(ir::AttrKind::kListString);
    a["a_list_string"].list_s = {"a", "", "ccc"};
    a["a_list_dtype"] = Attr(ir::AttrKind::kListDataType);
    a["a_list_dtype"].list_i = {ge::DT_FLOAT, ge::DT_INT8};
    a["a_list_list_int"] = Attr(ir::AttrKind::kListListInt);
    a["a_list_list_int"].list_list_i = {{1, 2}, {}, {3}};
  }

  ir::Node out;
  out.name = "out";
  out.type = ir::kNetOutput;
  out.inputs = {{2, 0}};
  out.input_descs = {Desc(ge::DT_FLOAT, shape)};

  g.nodes = {x, w, add, out};
  g.inputs = {0};
  g.outputs = {{2, 0}};

  om::Deliverable d;
  d.file_name = "libcust_add.so";
  d.sdk_version = "0.1.0";
  d.op_types = {"AddCustom", "SubCustom"};
  {
    // Text from a small vocabulary: compresses a few times, far from zstd's extreme ratios.
    static const char *const kWords[] = {"add", "custom", "kernel", "tiling", "block", "ge::",
                                         "Execute", "Serialize", "tensor", "shape", "0x7f", "ELF"};
    std::string text;
    uint32_t s = 777;
    while (text.size() < deliverable_bytes) {
      s = s * 1664525u + 1013904223u;
      text += kWords[(s >> 16) % 12];
      text += ' ';
    }
    text.resize(deliverable_bytes);
    d.data = ir::Bytes::Copy(text.data(), text.size());
    d.hash = XXH3_64bits(d.data.data, d.data.size);
  }
  m.deliverables = {d};

  om::OpArtifact a1;
  a1.op_type = "AddCustom";
  a1.capabilities = 1 | 2 | 4 | 8;
  a1.deliverable = 0;
  a1.has_payload = true;
  a1.producer = "OpenATC 0.1.0";
  {
    std::vector<uint8_t> p(artifact_bytes);
    uint32_t s = 12345;
    for (auto &b : p) {
      s = s * 1664525u + 1013904223u;
      b = static_cast<uint8_t>(s >> 24);
    }
    a1.payload = ir::Bytes::FromVector(std::move(p));
    a1.hash = XXH3_64bits(a1.payload.data, a1.payload.size);
  }
  om::OpArtifact a2;
  a2.op_type = "SubCustom";
  a2.capabilities = 1 | 8;
  a2.deliverable = 0;
  a2.has_payload = true;
  a2.producer = "OpenATC 0.1.0";
  m.artifacts = {a1, a2};
  return m;
}

static bool SameBytes(const ir::Bytes &a, const ir::Bytes &b) {
  return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

static void CheckDescEqual(const ir::TensorDesc &a, const ir::TensorDesc &b) {
  CHECK(a.name == b.name);
  CHECK(a.dtype == b.dtype);
  CHECK(a.format == b.format);
  CHECK(a.origin_format == b.origin_format);
  CHECK(a.shape == b.shape);
  CHECK(a.origin_shape == b.origin_shape);
  CHECK(a.valid == b.valid);
  CHECK(a.value_kind == b.value_kind);
}

static void CheckGraphsEqual(const ir::Graph &a, const ir::Graph &b);

static void CheckAttrEqual(const ir::AttrValue &a, const ir::AttrValue &b) {
  using K = ir::AttrKind;
  REQUIRE(a.kind == b.kind);
  switch (a.kind) {
    case K::kNone: break;
    case K::kInt: CHECK(a.i == b.i); break;
    case K::kFloat: CHECK(std::memcmp(&a.f, &b.f, sizeof(float)) == 0); break;
    case K::kBool: CHECK(a.b == b.b); break;
    case K::kString:
    case K::kBytes: CHECK(a.s == b.s); break;
    case K::kDataType: CHECK(a.dt == b.dt); break;
    case K::kTensor:
      REQUIRE(a.t);
      REQUIRE(b.t);
      CheckDescEqual(a.t->desc, b.t->desc);
      CHECK(SameBytes(a.t->data, b.t->data));
      break;
    case K::kListInt:
    case K::kListDataType: CHECK(a.list_i == b.list_i); break;
    case K::kListFloat: CHECK(a.list_f == b.list_f); break;
    case K::kListBool: CHECK(a.list_b == b.list_b); break;
    case K::kListString: CHECK(a.list_s == b.list_s); break;
    case K::kListListInt: CHECK(a.list_list_i == b.list_list_i); break;
    case K::kGraph:
      REQUIRE(a.g);
      REQUIRE(b.g);
      CheckGraphsEqual(*a.g, *b.g);
      break;
    case K::kListGraph:
      REQUIRE(a.list_g.size() == b.list_g.size());
      for (size_t k = 0; k < a.list_g.size(); ++k) CheckGraphsEqual(*a.list_g[k], *b.list_g[k]);
      break;
  }
}

static void CheckGraphsEqual(const ir::Graph &a, const ir::Graph &b) {
  CHECK(a.name == b.name);
  CHECK(a.inputs == b.inputs);
  CHECK(a.outputs == b.outputs);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (size_t k = 0; k < a.nodes.size(); ++k) {
    const auto &x = a.nodes[k], &y = b.nodes[k];
    INFO("node " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.type == y.type);
    CHECK(x.inputs == y.inputs);
    CHECK(x.control_inputs == y.control_inputs);
    REQUIRE(x.input_descs.size() == y.input_descs.size());
    for (size_t i = 0; i < x.input_descs.size(); ++i) CheckDescEqual(x.input_descs[i], y.input_descs[i]);
    REQUIRE(x.output_descs.size() == y.output_descs.size());
    for (size_t i = 0; i < x.output_descs.size(); ++i) CheckDescEqual(x.output_descs[i], y.output_descs[i]);
    REQUIRE(x.attrs.size() == y.attrs.size());
    for (auto ix = x.attrs.begin(), iy = y.attrs.begin(); ix != x.attrs.end(); ++ix, ++iy) {
      INFO("attr " << ix->first);
      CHECK(ix->first == iy->first);
      CheckAttrEqual(ix->second, iy->second);
    }
  }
}

void CheckModelsEqual(const om::Model &a, const om::Model &b) {
  CHECK(a.producer == b.producer);
  CHECK(a.target == b.target);  // kind, soc_version and arch
  CHECK(a.build_options == b.build_options);
  CheckGraphsEqual(a.graph, b.graph);
  REQUIRE(a.artifacts.size() == b.artifacts.size());
  for (size_t k = 0; k < a.artifacts.size(); ++k) {
    const auto &x = a.artifacts[k], &y = b.artifacts[k];
    CHECK(x.op_type == y.op_type);
    CHECK(x.capabilities == y.capabilities);
    CHECK(x.deliverable == y.deliverable);
    CHECK(x.has_payload == y.has_payload);
    CHECK(x.producer == y.producer);
    CHECK(x.hash == y.hash);
    CHECK(SameBytes(x.payload, y.payload));
  }
  REQUIRE(a.deliverables.size() == b.deliverables.size());
  for (size_t k = 0; k < a.deliverables.size(); ++k) {
    const auto &x = a.deliverables[k], &y = b.deliverables[k];
    CHECK(x.file_name == y.file_name);
    CHECK(x.sdk_version == y.sdk_version);
    CHECK(x.hash == y.hash);
    CHECK(x.op_types == y.op_types);
    CHECK(SameBytes(x.data, y.data));
  }
}

uint64_t Le64(const std::vector<uint8_t> &img, size_t off) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | img.at(off + static_cast<size_t>(i));
  return v;
}

void PutLe64(std::vector<uint8_t> &img, size_t off, uint64_t v) {
  for (int i = 0; i < 8; ++i) img.at(off + static_cast<size_t>(i)) = static_cast<uint8_t>(v >> (8 * i));
}

void Resign(std::vector<uint8_t> &img) {
  // Preamble: envelope offset at 16, size at 24, envelope hash at 48, preamble hash at 56.
  const uint64_t env_off = Le64(img, 16), env_size = Le64(img, 24);
  if (env_off <= img.size() && env_size <= img.size() - env_off)
    PutLe64(img, 48, XXH3_64bits(img.data() + env_off, env_size));
  PutLe64(img, 56, XXH3_64bits(img.data(), 56));
}

size_t OffsetOf(const std::vector<uint8_t> &img, const void *p) {
  return static_cast<size_t>(static_cast<const uint8_t *>(p) - img.data());
}

std::string ReadError(const std::vector<uint8_t> &img, int *category) {
  try {
    om::ReadBytes(img.data(), img.size());
  } catch (const Error &e) {
    if (category) *category = static_cast<int>(e.category());
    return e.what();
  }
  FAIL("ReadBytes accepted the image");
  return {};
}

std::string TempDir() {
  char tmpl[] = "/tmp/om_test_XXXXXX";
  const char *d = mkdtemp(tmpl);
  REQUIRE(d != nullptr);
  return d;
}

}  // namespace omtest
