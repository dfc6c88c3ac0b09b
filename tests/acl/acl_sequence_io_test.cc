// A model whose own input and output are sequences, end to end through the tools: atc compiles
// it, omrun reads a SequenceProto .pb and a folder of .npy elements, writes the sequence output
// as a folder and compares it element by element; aclmdlLoad and the description calls work and
// aclmdlExecute refuses it naming the input (docs/acl.md, Model). The ONNX model and values are
// built with tests/frontend_onnx/onnx_builder.h; expected values are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "onnx_builder.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

constexpr int32_t kF = onnx::TensorProto::FLOAT;

// out = SequenceInsert(seq, x) (x appended); n = SequenceLength(out).
std::string InsertModel() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto &g = *m.mutable_graph();
  g.set_name("seq_io");
  *g.add_input() = SequenceValue("seq", kF);
  *g.add_input() = Value("x", kF, {2});
  *g.add_output() = SequenceValue("out", kF);
  *g.add_output() = Value("n", onnx::TensorProto::INT64, {});  // a scalar
  *g.add_node() = Node("SequenceInsert", {"seq", "x"}, {"out"}, "insert");
  *g.add_node() = Node("SequenceLength", {"out"}, {"n"}, "len");
  return m.SerializeAsString();
}

std::string SequencePb(const std::vector<onnx::TensorProto> &elems) {
  return TensorSequence(elems).SerializeAsString();
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
  WriteBytes(c.dir + "/seq.pb", SequencePb({FloatInit("a", {1}, {1}), FloatInit("b", {2}, {2, 3})}));
  WriteBytes(c.dir + "/x.pb", FloatInit("x", {2}, {4, 5}).SerializeAsString());
  WriteBytes(c.dir + "/want.pb",
             SequencePb({FloatInit("a", {1}, {1}), FloatInit("b", {2}, {2, 3}), FloatInit("x", {2}, {4, 5})}));
  WriteBytes(c.dir + "/n.pb", Int64Init("n", {}, {3}).SerializeAsString());
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
  WriteBytes(c.dir + "/off.pb",
             SequencePb({FloatInit("a", {1}, {1}), FloatInit("b", {2}, {2, 3.5f}), FloatInit("x", {2}, {4, 5})}));
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
