// ONNX nodes mapped to a deliverable's custom op through REGISTER_CUSTOM_OP (register/register.h):
// atc compiles an ONNX model written here with protobuf, omrun runs it, values are exact. Root
// tests/opp/onnx_map holds AxpyCustom (y = alpha * x1 + x2) with an auto-mapping of
// "ai.onnx::11::AxpyAuto", and framework/onnx/libcust_onnx_parsers.so mapping
// "custom.ops::1::AddCust" (its attribute `scale` becomes `alpha`; a negative scale fails).
#include <onnx/onnx_pb.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
std::string Model(const std::string &domain, const std::string &op_type, const std::string &attr, float value) {
  onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(11);
  if (!domain.empty()) {
    auto *imp = m.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(1);
  }
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("custom_map");
  for (const char *name : {"x1", "x2", "y"}) {
    auto *vi = name[0] == 'y' ? g->add_output() : g->add_input();
    vi->set_name(name);
    auto *tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(2);
    tt->mutable_shape()->add_dim()->set_dim_value(3);
  }
  onnx::NodeProto *n = g->add_node();
  n->set_name("cust");
  n->set_op_type(op_type);
  n->set_domain(domain);
  n->add_input("x1");
  n->add_input("x2");
  n->add_output("y");
  auto *a = n->add_attribute();
  a->set_name(attr);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
  std::string bytes;
  m.SerializeToString(&bytes);
  return bytes;
}

tensor_io::HostTensor Floats(const std::vector<float> &v) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = {2, 3};
  t.data.resize(v.size() * sizeof(float));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

CommandResult Compile(const std::string &dir, const std::string &model) {
  WriteBytes(dir + "/m.onnx", model);
  return RunAtc({"--model", dir + "/m.onnx", "--framework", "5", "--soc_version", "host", "--output", dir + "/m"},
                BuildPath("tests/opp/onnx_map"));
}

// Compiles and runs; returns y for x1 = [-2, -1, 0, 1, 2, 3], x2 = [0.5, 1, 1.5, 2, 2.5, 3].
std::vector<float> CompileAndRun(const std::string &model) {
  const std::string dir = MakeTempDir();
  auto atc = Compile(dir, model);
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  tensor_io::WriteNpy(dir + "/a.npy", Floats({-2, -1, 0, 1, 2, 3}));
  tensor_io::WriteNpy(dir + "/b.npy", Floats({0.5f, 1, 1.5f, 2, 2.5f, 3}));
  auto run = RunOmrun({dir + "/m.om", "--input", dir + "/a.npy," + dir + "/b.npy", "--output", dir + "/out"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
  REQUIRE(y.dtype == ge::DT_FLOAT);
  REQUIRE(y.shape == std::vector<int64_t>{2, 3});
  std::vector<float> v(6);
  std::memcpy(v.data(), y.data.data(), 24);
  RemoveTree(dir);
  return v;
}
}  // namespace

TEST_CASE("ONNX custom-domain node mapped by a framework plugin's parse function", "[e2e]") {
  // alpha = scale = 2.5: y = 2.5 * x1 + x2
  CHECK(CompileAndRun(Model("custom.ops", "AddCust", "scale", 2.5f)) ==
        std::vector<float>{-4.5f, -1.5f, 1.5f, 4.5f, 7.5f, 10.5f});
}

TEST_CASE("ONNX default-domain node auto-mapped by a deliverable's REGISTER_CUSTOM_OP", "[e2e]") {
  // alpha copied by name: y = 0.5 * x1 + x2
  CHECK(CompileAndRun(Model("", "AxpyAuto", "alpha", 0.5f)) == std::vector<float>{-0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 4.5f});
}

TEST_CASE("ONNX node without a mapping names the key to register", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto atc = Compile(dir, Model("other.ops", "AddCust", "scale", 2.5f));
  INFO(atc.err);
  CHECK(atc.exit_code != 0);
  CHECK(atc.err.find("OA1503") != std::string::npos);
  CHECK(atc.err.find("node 'cust' (AddCust, domain 'other.ops', opset 1)") != std::string::npos);
  CHECK(atc.err.find("REGISTER_CUSTOM_OP(\"<op type>\").FrameworkType(ONNX).OriginOpType(\"other.ops::1::AddCust\")"
                     ".ParseParamsByOperatorFn(AutoMappingByOpFn)") != std::string::npos);
  CHECK(atc.err.find("(keys:") == std::string::npos);
  RemoveTree(dir);
}

TEST_CASE("ONNX node whose parse function fails is OA1506 naming the node", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto atc = Compile(dir, Model("custom.ops", "AddCust", "scale", -1.0f));
  INFO(atc.err);
  CHECK(atc.exit_code != 0);
  CHECK(atc.err.find("OA1506") != std::string::npos);
  CHECK(atc.err.find("node 'cust' (custom.ops::1::AddCust)") != std::string::npos);
  CHECK(atc.err.find("the parse function returned 4294967295") != std::string::npos);
  RemoveTree(dir);
}

TEST_CASE("ONNX parser plugin that cannot be loaded is OA1506 naming the library", "[e2e]") {
  const std::string dir = MakeTempDir();
  for (const char *sub : {"/root", "/root/framework", "/root/framework/onnx"}) ::mkdir((dir + sub).c_str(), 0755);
  WriteBytes(dir + "/root/framework/onnx/libbroken.so", "not an ELF file");
  WriteBytes(dir + "/m.onnx", Model("custom.ops", "AddCust", "scale", 2.5f));
  auto atc = RunAtc({"--model", dir + "/m.onnx", "--framework", "5", "--soc_version", "host", "--output", dir + "/m"},
                    BuildPath("tests/opp/onnx_map") + ":" + dir + "/root");
  INFO(atc.err);
  CHECK(atc.exit_code != 0);
  CHECK(atc.err.find("OA1506") != std::string::npos);
  CHECK(atc.err.find("the ONNX parser plugin '" + dir + "/root/framework/onnx/libbroken.so' cannot be loaded") !=
        std::string::npos);
  RemoveTree(dir);
}
