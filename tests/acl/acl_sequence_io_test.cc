// A model whose own input and output are sequences, end to end through the tools: atc compiles
// it, omrun reads a SequenceProto .pb and a folder of .npy elements, writes the sequence output
// as a folder and compares it element by element; aclmdlLoad and the description calls work and
// aclmdlExecute refuses it naming the input (docs/acl.md, Model). The ONNX model is written with
// protobuf here; expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

onnx::TensorProto Floats(const std::string &name, std::vector<int64_t> dims, const std::vector<float> &v) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float x : v) t.add_float_data(x);
  return t;
}

void SeqType(onnx::ValueInfoProto *v, const std::string &name) {
  v->set_name(name);
  v->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::FLOAT);
}

// out = SequenceInsert(seq, x) (x appended); n = SequenceLength(out).
std::string InsertModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto &g = *m.mutable_graph();
  g.set_name("seq_io");
  SeqType(g.add_input(), "seq");
  auto *x = g.add_input();
  x->set_name("x");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  SeqType(g.add_output(), "out");
  auto *n = g.add_output();
  n->set_name("n");
  n->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  n->mutable_type()->mutable_tensor_type()->mutable_shape();
  auto *ins = g.add_node();
  ins->set_op_type("SequenceInsert");
  ins->set_name("insert");
  ins->add_input("seq");
  ins->add_input("x");
  ins->add_output("out");
  auto *len = g.add_node();
  len->set_op_type("SequenceLength");
  len->set_name("len");
  len->add_input("out");
  len->add_output("n");
  return m.SerializeAsString();
}

std::string SequencePb(const std::vector<onnx::TensorProto> &elems) {
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto &e : elems) *s.add_tensor_values() = e;
  return s.SerializeAsString();
}

struct Compiled {
  std::string dir, om;
  Compiled() : dir(MakeTempDir()), om(dir + "/m.om") {
    WriteBytes(dir + "/m.onnx", InsertModel());
    CommandResult a = RunCommand({BuildPath("bin/atc"), "--model", dir + "/m.onnx", "--soc_version", "host",
                                  "--output", dir + "/m", "--log", "error"});
    INFO(a.err);
    REQUIRE(a.exit_code == 0);
  }
  ~Compiled() { RemoveTree(dir); }
};

}  // namespace

TEST_CASE("sequence I/O: omrun reads a SequenceProto, writes a folder, compares element by element", "[acl]") {
  Compiled c;
  // seq = [[1], [2, 3]], x = [4, 5]  ->  out = [[1], [2, 3], [4, 5]], n = 3.
  WriteBytes(c.dir + "/seq.pb", SequencePb({Floats("a", {1}, {1}), Floats("b", {2}, {2, 3})}));
  WriteBytes(c.dir + "/x.pb", Floats("x", {2}, {4, 5}).SerializeAsString());
  WriteBytes(c.dir + "/want.pb", SequencePb({Floats("a", {1}, {1}), Floats("b", {2}, {2, 3}), Floats("x", {2}, {4, 5})}));
  onnx::TensorProto three;
  three.set_data_type(onnx::TensorProto::INT64);
  three.add_int64_data(3);
  WriteBytes(c.dir + "/n.pb", three.SerializeAsString());
  CommandResult info = RunCommand({BuildPath("bin/omrun"), c.om, "--info"});
  CHECK(info.out.find("[0] seq sequence of float32") != std::string::npos);
  CommandResult r = RunCommand({BuildPath("bin/omrun"), c.om, "--input", c.dir + "/seq.pb," + c.dir + "/x.pb",
                                "--output", c.dir + "/out", "--expected_output", c.dir + "/want.pb," + c.dir + "/n.pb"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("output 0: insert:0: sequence of 3 tensors") != std::string::npos);
  CHECK(r.out.find("compare output 0 (insert:0): PASS 3 tensor(s)") != std::string::npos);
  CHECK(r.out.find("compare output 1 (len:0): PASS 1 tensor(s)") != std::string::npos);
  CHECK(std::filesystem::exists(c.dir + "/out/output_0/2.npy"));
  CHECK(std::filesystem::exists(c.dir + "/out/output_1.npy"));
  // The written folder is itself a valid sequence input (a folder of .npy elements): feeding it
  // back appends x again, so out has 4 elements and n = 4, which the old expectation rejects.
  CommandResult again = RunCommand({BuildPath("bin/omrun"), c.om, "--input", c.dir + "/out/output_0," + c.dir + "/x.pb",
                                    "--expected_output", c.dir + "/want.pb," + c.dir + "/n.pb"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 1);
  CHECK(again.out.find("compare output 0 (insert:0): FAIL the output sequence has 4 tensors but the expected one has 3") !=
        std::string::npos);
  // A wrong element value fails that element only.
  WriteBytes(c.dir + "/off.pb", SequencePb({Floats("a", {1}, {1}), Floats("b", {2}, {2, 3.5f}), Floats("x", {2}, {4, 5})}));
  CommandResult off = RunCommand({BuildPath("bin/omrun"), c.om, "--input", c.dir + "/seq.pb," + c.dir + "/x.pb",
                                  "--expected_output", c.dir + "/off.pb," + c.dir + "/n.pb"});
  CHECK(off.exit_code == 1);
  CHECK(off.out.find("element 1: first mismatch at 1: actual 3 expected 3.5") != std::string::npos);
  // No random inputs for such a model.
  CommandResult none = RunCommand({BuildPath("bin/omrun"), c.om});
  CHECK(none.exit_code == 3);
  CHECK(none.err.find("OA2301") != std::string::npos);
}

TEST_CASE("sequence I/O: aclmdlLoad and the descriptions work, aclmdlExecute refuses naming the input", "[acl]") {
  Compiled c;
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(c.om.c_str(), &id) == ACL_SUCCESS);
  aclmdlDesc *desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, id) == ACL_SUCCESS);
  CHECK(aclmdlGetNumInputs(desc) == 2);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 0);  // a sequence has no fixed byte size
  CHECK(aclmdlGetInputSizeByIndex(desc, 1) == 8);  // x: float32 [2]
  FloatDataset in({{0.0f}, {4.0f, 5.0f}}), out({{0.0f}, {0.0f, 0.0f}});
  CHECK(aclmdlExecute(id, in.get(), out.get()) == ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK(RecentErrorContains("input 0 ('seq') of model"));
  CHECK(RecentErrorContains("is a sequence of float32 tensors, which an aclmdlDataset buffer cannot carry"));
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
}
