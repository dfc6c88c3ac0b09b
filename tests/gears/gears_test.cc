// Dynamic gears (issue 15 stage 3) on a tiny ONNX model built here: y = x @ W + b with x [-1, 3],
// W = [[1, 2], [3, 4], [5, 6]], b = [10, 20], compiled with --dynamic_batch_size "1,2,4".
// For x[i] = (3i+1, 3i+2, 3i+3) the exact result is y[i] = (27i + 32, 36i + 48), computed by hand.
// Each gear runs through omrun --dynamic_batch and through the aclmdl* C API (gear_acl_run.c);
// batch 3 is refused naming the gears; the OM holds one variant per gear with W and b stored once.
#include <onnx/onnx_pb.h>

#include "acl/acl.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>

#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/omrun/options.h"
#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

void AddInit(onnx::GraphProto *g, const std::string &name, const std::vector<int64_t> &dims,
             const std::vector<float> &values) {
  onnx::TensorProto *t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  for (float v : values) t->add_float_data(v);
}

void AddValue(onnx::ValueInfoProto *vi, const std::string &name, int64_t cols) {
  vi->set_name(name);
  auto *tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_param("N");
  tt->mutable_shape()->add_dim()->set_dim_value(cols);
}

std::string TinyModel() {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("gears");
  AddValue(g->add_input(), "x", 3);
  AddValue(g->add_output(), "y", 2);
  AddInit(g, "W", {3, 2}, {1, 2, 3, 4, 5, 6});
  AddInit(g, "b", {2}, {10, 20});
  onnx::NodeProto *mm = g->add_node();
  mm->set_name("mm");
  mm->set_op_type("MatMul");
  mm->add_input("x");
  mm->add_input("W");
  mm->add_output("xw");
  onnx::NodeProto *add = g->add_node();
  add->set_name("add");
  add->set_op_type("Add");
  add->add_input("xw");
  add->add_input("b");
  add->add_output("y");
  return m.SerializeAsString();
}

tensor_io::HostTensor Input(int64_t batch) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = {batch, 3};
  std::vector<float> v;
  for (int64_t i = 0; i < batch * 3; ++i) v.push_back(static_cast<float>(i + 1));
  t.data.resize(v.size() * sizeof(float));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

std::vector<float> Expected(int64_t batch) {
  std::vector<float> y;
  for (int64_t i = 0; i < batch; ++i) {
    y.push_back(static_cast<float>(27 * i + 32));
    y.push_back(static_cast<float>(36 * i + 48));
  }
  return y;
}

std::vector<float> Floats(const std::vector<uint8_t> &bytes) {
  std::vector<float> v(bytes.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
  return v;
}

struct Built {
  std::string dir, om;
};

Built Compile(const std::string &flag, const std::string &gears) {
  Built b;
  b.dir = MakeTempDir();
  WriteBytes(b.dir + "/m.onnx", TinyModel());
  b.om = b.dir + "/m.om";
  CommandResult r = RunCommand({BuildPath("bin/atc"), "--model", b.dir + "/m.onnx", "--framework", "5", "--soc_version",
                                "host", "--output", b.dir + "/m", "--input_shape", "x:-1,3", "--" + flag, gears});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find(flag) == std::string::npos);  // it has an effect: no warning
  return b;
}

const Built &Compiled() {
  static const Built built = Compile("dynamic_batch_size", "1,2,4");
  static const struct Cleanup {  // destroyed first, at exit: the shared folder goes with the test
    ~Cleanup() { RemoveTree(built.dir); }
  } cleanup;
  return built;
}

}  // namespace

TEST_CASE("gears: the OM holds one static variant per gear and stores the weights once", "[gears]") {
  const Built &b = Compiled();
  const om::Model m = om::ReadFile(b.om);
  CHECK(m.format_minor == 3);
  CHECK(m.min_reader_minor == 2);
  CHECK(m.gear_kind == om::GearKind::kBatch);
  REQUIRE(m.gears.size() == 3);
  CHECK(m.gears[0].values == std::vector<int64_t>{1});
  CHECK(m.gears[1].values == std::vector<int64_t>{2});
  CHECK(m.gears[2].values == std::vector<int64_t>{4});
  CHECK(m.gear_input_order == std::vector<std::string>{"x"});
  // Main graph: the largest gear plus the gear input, last.
  REQUIRE(m.graph.inputs.size() == 2);
  const ir::Node &shape = m.graph.nodes[static_cast<size_t>(m.graph.inputs[1])];
  CHECK(shape.name == om::kGearShapeInput);
  CHECK(shape.output_descs.at(0).dtype == ge::DT_INT32);
  CHECK(shape.output_descs.at(0).shape == std::vector<int64_t>{1});
  const ir::Node &x = m.graph.nodes[static_cast<size_t>(m.graph.inputs[0])];
  CHECK(x.output_descs.at(0).shape == std::vector<int64_t>{4, 3});
  CHECK(x.attrs.at(om::kGearOriginDimsAttr).list_i == std::vector<int64_t>{-1, 3});
  // Each gear's graph has its own shapes; W (24 bytes) and b (8 bytes) are two Weight segments.
  for (size_t g = 0; g < 3; ++g) {
    const ir::Graph &gg = m.gears[g].graph;
    CHECK(gg.nodes[static_cast<size_t>(gg.inputs.at(0))].output_descs.at(0).shape ==
          std::vector<int64_t>{m.gears[g].values[0], 3});
  }
  size_t weights = 0;
  for (const auto &s : om::InspectFile(b.om).segments) weights += s.kind == om::SegmentKind::kWeight;
  CHECK(weights == 2);
  // The gears' W is the main graph's W: one mapped view of the same segment.
  auto w_of = [](const ir::Graph &g) {
    for (const auto &n : g.nodes)
      for (const auto &[k, a] : n.attrs)
        if (a.kind == ir::AttrKind::kTensor && a.t->data.size == 24) return a.t->data.data;
    return static_cast<const uint8_t *>(nullptr);
  };
  REQUIRE(w_of(m.graph) != nullptr);
  CHECK(w_of(m.gears[0].graph) == w_of(m.graph));
  CHECK(w_of(m.gears[1].graph) == w_of(m.graph));
  // Everything read is written back to the same bytes (no field lost, deterministic layout).
  const std::string file = ReadText(b.om);
  const std::vector<uint8_t> again = om::Serialize(m);
  CHECK(std::string(again.begin(), again.end()) == file);
}

TEST_CASE("gears: omrun --dynamic_batch runs each gear with exact values; batch 3 is refused", "[gears]") {
  const Built &b = Compiled();
  for (int64_t batch : {1, 2, 4}) {
    DYNAMIC_SECTION("batch " << batch) {
      const std::string in = b.dir + "/x" + std::to_string(batch) + ".npy";
      const std::string out = b.dir + "/out" + std::to_string(batch);
      tensor_io::WriteNpy(in, Input(batch));
      CommandResult r = RunCommand({BuildPath("bin/omrun"), b.om, "--dynamic_batch", std::to_string(batch), "--input",
                                    in, "--output", out});
      INFO(r.out << r.err);
      REQUIRE(r.exit_code == 0);
      const tensor_io::HostTensor y = tensor_io::ReadNpy(out + "/output_0.npy");
      CHECK(y.shape == std::vector<int64_t>{batch, 2});
      CHECK(Floats(y.data) == Expected(batch));
    }
  }
  tensor_io::WriteNpy(b.dir + "/x3.npy", Input(3));
  CommandResult r = RunCommand({BuildPath("bin/omrun"), b.om, "--dynamic_batch", "3", "--input", b.dir + "/x3.npy"});
  CHECK(r.exit_code == 3);
  CHECK(r.err == "omrun: error: OA2209: batch size 3 is not a gear of this model; its gears are 1; 2; 4. Pick one of "
                 "the gears, or rebuild the model with atc listing this gear too.\n");
  CommandResult info = RunCommand({BuildPath("bin/omrun"), b.om, "--info"});
  CHECK(info.out.find("gears (--dynamic_batch): 1; 2; 4 (default: the largest, gear 2)") != std::string::npos);
  CommandResult hw = RunCommand({BuildPath("bin/omrun"), b.om, "--dynamic_hw", "2,2"});
  CHECK(hw.exit_code == 2);
  CHECK(hw.err.find("--dynamic_hw does not fit") != std::string::npos);
}

TEST_CASE("gears: aclmdlSetDynamicBatchSize picks the gear; a batch that is no gear is 145013", "[gears]") {
  const Built &b = Compiled();
  for (int64_t batch : {1, 2, 4}) {
    DYNAMIC_SECTION("batch " << batch) {
      const std::string in = b.dir + "/acl_x" + std::to_string(batch) + ".bin";
      const std::string out = b.dir + "/acl_y" + std::to_string(batch) + ".bin";
      const tensor_io::HostTensor x = Input(batch);
      WriteBytes(in, std::string(x.data.begin(), x.data.end()));
      CommandResult r = RunCommand({BuildPath("tests/gear_acl_run"), b.om, std::to_string(batch), in, out});
      INFO(r.out << r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == "gears: 1 2 4\nshape input: 1 of 2\noutput dims: " + std::to_string(batch) + " 2\n");
      const std::string y = ReadText(out);
      CHECK(Floats(std::vector<uint8_t>(y.begin(), y.end())) == Expected(batch));
    }
  }
  const std::string in = b.dir + "/acl_x3.bin";
  const tensor_io::HostTensor x = Input(3);
  WriteBytes(in, std::string(x.data.begin(), x.data.end()));
  CommandResult r = RunCommand({BuildPath("tests/gear_acl_run"), b.om, "3", in, b.dir + "/acl_y3.bin"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("acl error 145013 in aclmdlSetDynamicBatchSize") != std::string::npos);
  CHECK(r.out.find("its gears are 1; 2; 4") != std::string::npos);
}

namespace {
std::string ParseError(std::vector<const char *> args) {
  args.insert(args.begin(), "omrun");
  try {
    omrun::ParseOmrunOptions(static_cast<int>(args.size()), args.data());
  } catch (const Error &e) {
    return e.Format("omrun");
  }
  return "no error";
}
}  // namespace

TEST_CASE("gears: omrun's gear flags take positive integers, one flag at a time", "[gears]") {
  const char *argv[] = {"omrun", "m.om", "--dynamic_hw", "224,448"};
  const omrun::Options o = omrun::ParseOmrunOptions(4, argv);
  CHECK(o.gear_flag == "dynamic_hw");
  CHECK(o.gear == std::vector<int64_t>{224, 448});
  CHECK(ParseError({"m.om", "--dynamic_hw", "224"}) ==
        "omrun: error: E10001: invalid value '224' for --dynamic_hw: give the height and the width. Write e.g. "
        "--dynamic_hw 224,224.");
  CHECK(ParseError({"m.om", "--dynamic_batch", "0"}) ==
        "omrun: error: E10001: invalid value '0' for --dynamic_batch: '0' is not an integer >= 1. Write e.g. "
        "--dynamic_batch 4.");
  CHECK(ParseError({"m.om", "--dynamic_batch", "2", "--dynamic_dims", "1,2"}) ==
        "omrun: error: E10001: --dynamic_batch and --dynamic_dims cannot be used together. Choose the gear with one of "
        "--dynamic_batch, --dynamic_hw, --dynamic_dims.");
}

TEST_CASE("gears: --dynamic_dims gears run through omrun and aclmdlSetInputDynamicDims", "[gears]") {
  const Built b = Compile("dynamic_dims", "2;1");
  const om::Model m = om::ReadFile(b.om);
  CHECK(m.gear_kind == om::GearKind::kDims);
  tensor_io::WriteNpy(b.dir + "/x1.npy", Input(1));
  CommandResult r = RunCommand({BuildPath("bin/omrun"), b.om, "--dynamic_dims", "1", "--input", b.dir + "/x1.npy", "--output",
                  b.dir + "/o1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(Floats(tensor_io::ReadNpy(b.dir + "/o1/output_0.npy").data) == Expected(1));
  r = RunCommand({BuildPath("bin/omrun"), b.om, "--dynamic_dims", "4"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("OA2209: dims gear 4 is not a gear of this model; its gears are 2; 1.") != std::string::npos);

  // In process, through the ACL C API.
  REQUIRE(aclInit(nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtSetDevice(0) == ACL_SUCCESS);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(b.om.c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc *desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  size_t count = 0;
  CHECK(aclmdlGetInputDynamicGearCount(desc, 0, &count) == ACL_ERROR_INVALID_PARAM);
  REQUIRE(aclmdlGetInputDynamicGearCount(desc, static_cast<size_t>(-1), &count) == ACL_SUCCESS);
  REQUIRE(count == 2);
  aclmdlIODims gears[2];
  REQUIRE(aclmdlGetInputDynamicDims(desc, static_cast<size_t>(-1), gears, 2) == ACL_SUCCESS);
  CHECK(gears[0].dimCount == 2);
  CHECK(gears[0].dims[0] == 2);
  CHECK(gears[0].dims[1] == 3);
  CHECK(gears[1].dims[0] == 1);
  aclmdlBatch batch;
  REQUIRE(aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS);
  CHECK(batch.batchCount == 0);
  size_t idx = 0;
  REQUIRE(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &idx) == ACL_SUCCESS);
  CHECK(idx == 1);
  std::vector<float> x(6), y(4, -1.0f);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k + 1);
  int32_t shape = 0;
  REQUIRE(aclmdlGetInputSizeByIndex(desc, 0) == 24);
  REQUIRE(aclmdlGetInputSizeByIndex(desc, 1) == 4);
  REQUIRE(aclmdlGetOutputSizeByIndex(desc, 0) == 16);
  aclmdlDataset *in = aclmdlCreateDataset();
  aclmdlDataset *out = aclmdlCreateDataset();
  aclDataBuffer *bx = aclCreateDataBuffer(x.data(), 24), *bs = aclCreateDataBuffer(&shape, 4);
  aclDataBuffer *by = aclCreateDataBuffer(y.data(), 16);
  REQUIRE(aclmdlAddDatasetBuffer(in, bx) == ACL_SUCCESS);
  REQUIRE(aclmdlAddDatasetBuffer(in, bs) == ACL_SUCCESS);
  REQUIRE(aclmdlAddDatasetBuffer(out, by) == ACL_SUCCESS);
  aclmdlIODims dims{};
  dims.dimCount = 2;
  dims.dims[0] = 1;
  dims.dims[1] = 4;  // the fixed dim is 3
  CHECK(aclmdlSetInputDynamicDims(id, in, idx, &dims) == ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  dims.dims[1] = 3;
  dims.dims[0] = 3;
  CHECK(aclmdlSetInputDynamicDims(id, in, idx, &dims) == ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  dims.dims[0] = 1;
  REQUIRE(aclmdlSetInputDynamicDims(id, in, idx, &dims) == ACL_SUCCESS);
  CHECK(shape == 1);
  REQUIRE(aclmdlExecute(id, in, out) == ACL_SUCCESS);
  CHECK(y == std::vector<float>{32, 48, -1, -1});  // gear 1 writes one row; the rest is untouched
  aclmdlIODims cur{};
  REQUIRE(aclmdlGetCurOutputDims(desc, 0, &cur) == ACL_SUCCESS);
  CHECK(cur.dimCount == 2);
  CHECK(cur.dims[0] == 1);
  CHECK(cur.dims[1] == 2);
  shape = 0;  // no gear set: the largest (2)
  REQUIRE(aclmdlExecute(id, in, out) == ACL_SUCCESS);
  CHECK(y == std::vector<float>{32, 48, 59, 84});
  CHECK(aclmdlSetDynamicBatchSize(id, in, idx, 1) == ACL_ERROR_INVALID_PARAM);  // not a batch model
  for (aclDataBuffer *p : {bx, bs, by}) aclDestroyDataBuffer(p);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  RemoveTree(b.dir);
}

namespace {
// y = x * 2 with x [1, 1, -1, -1] (NCHW): an image-size model.
std::string ImageModel() {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("image_gears");
  for (const char *name : {"x", "y"}) {
    auto *vi = name[0] == 'x' ? g->add_input() : g->add_output();
    vi->set_name(name);
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(1);
    tt->mutable_shape()->add_dim()->set_dim_value(1);
    tt->mutable_shape()->add_dim()->set_dim_param("H");
    tt->mutable_shape()->add_dim()->set_dim_param("W");
  }
  AddInit(g, "two", {}, {2});
  onnx::NodeProto *mul = g->add_node();
  mul->set_name("mul");
  mul->set_op_type("Mul");
  mul->add_input("x");
  mul->add_input("two");
  mul->add_output("y");
  return m.SerializeAsString();
}
}  // namespace

TEST_CASE("gears: --dynamic_image_size gears run through omrun --dynamic_hw", "[gears]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/img.onnx", ImageModel());
  CommandResult r = RunCommand({BuildPath("bin/atc"), "--model", dir + "/img.onnx", "--framework", "5", "--soc_version",
                                "host", "--output", dir + "/img", "--input_shape", "x:1,1,-1,-1",
                                "--dynamic_image_size", "2,2;1,3"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const om::Model m = om::ReadFile(dir + "/img.om");
  CHECK(m.gear_kind == om::GearKind::kImageSize);
  REQUIRE(m.gears.size() == 2);
  CHECK(m.gears[1].values == std::vector<int64_t>{1, 3});
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {1, 1, 1, 3};
  const std::vector<float> xs = {1.5f, -2.0f, 4.25f};
  x.data.resize(12);
  std::memcpy(x.data.data(), xs.data(), 12);
  tensor_io::WriteNpy(dir + "/x13.npy", x);
  r = RunCommand({BuildPath("bin/omrun"), dir + "/img.om", "--dynamic_hw", "1,3", "--input", dir + "/x13.npy", "--output",
                  dir + "/o"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const tensor_io::HostTensor y = tensor_io::ReadNpy(dir + "/o/output_0.npy");
  CHECK(y.shape == std::vector<int64_t>{1, 1, 1, 3});
  CHECK(Floats(y.data) == std::vector<float>{3.0f, -4.0f, 8.5f});
  r = RunCommand({BuildPath("bin/omrun"), dir + "/img.om", "--dynamic_hw", "3,1"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("OA2209: image size (h x w) 3x1 is not a gear of this model; its gears are 2x2; 1x3.") !=
        std::string::npos);
  RemoveTree(dir);
}

TEST_CASE("gears: atc --check_portable runs every gear through the compiling and the deserialized objects", "[gears]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/m.onnx", TinyModel());
  CommandResult r = RunCommand({BuildPath("bin/atc"), "--model", dir + "/m.onnx", "--framework", "5", "--soc_version",
                                "host", "--output", dir + "/m", "--input_shape", "x:-1,3", "--dynamic_batch_size",
                                "1,2", "--check_portable", "--log", "info"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("--check_portable: ") != std::string::npos);
  CHECK(r.err.find("OA2209") == std::string::npos);
  RemoveTree(dir);
}
