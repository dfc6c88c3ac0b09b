// The custom-op lifecycle rules enforced end to end with the test deliverable "misbehaving":
// --check_portable (byte symmetry and equal outputs), the portability rule, and user-code
// failures (GRAPH_FAILED, exceptions, empty Serialize) stopping atc/omrun cleanly with the node,
// op type, callback and deliverable named.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
std::string Opp() { return BuildPath("tests/opp/misbehaving"); }
std::string So() { return Opp() + "/op_graph/lib/linux/" + opp::HostArch() + "/libmisbehaving_ops.so"; }
bool Contains(const std::string &s, const std::string &p) { return s.find(p) != std::string::npos; }

struct Case {
  std::string dir;
  explicit Case(const std::string &op) : dir(MakeTempDir()) { WriteBytes(dir + "/g.json", UnaryGraphJson(op, {4})); }
  ~Case() { RemoveTree(dir); }
  CommandResult Atc(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunAtc(args, Opp());
  }
  std::vector<float> Run() const {
    tensor_io::HostTensor x;
    x.dtype = ge::DT_FLOAT;
    x.shape = {4};
    const float v[4] = {1.0f, -2.0f, 0.5f, 4.0f};
    x.data.resize(16);
    std::memcpy(x.data.data(), v, 16);
    tensor_io::WriteNpy(dir + "/x.npy", x);
    auto r = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--output", dir + "/out"});
    if (r.exit_code != 0) FAIL(r.err);
    auto y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    std::vector<float> out(4);
    std::memcpy(out.data(), y.data.data(), 16);
    return out;
  }
};
}  // namespace

TEST_CASE("a correct PortableOp passes --check_portable and runs from its deserialized state", "[lifecycle]") {
  Case c("GoodPortableOp");
  auto r = c.Atc({"--check_portable"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(c.Run() == std::vector<float>{3.0f, -6.0f, 1.5f, 12.0f});
}

TEST_CASE("--check_portable names the op type and first differing byte of an asymmetric Serialize", "[lifecycle]") {
  Case c("AsymSerializeOp");
  auto r = c.Atc({"--check_portable"});
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.err, "atc: error: OA1701: '" + c.dir + "/g.json': op type 'AsymSerializeOp': Serialize after "
                        "Deserialize differs from the compiled Serialize buffer at byte 2 (sizes 3 and 3)."));
  CHECK(ReadText(c.dir + "/m.om").empty());  // nothing written
  CHECK(c.Atc().exit_code == 0);             // without the check the OM is written
}

TEST_CASE("--check_portable catches state that Deserialize does not restore", "[lifecycle]") {
  Case c("LostStateOp");
  auto r = c.Atc({"--check_portable"});
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.err, "OA1702"));
  CHECK(Contains(r.err, "output 0 ('op:0') differs between the compiling op objects and the deserialized ones"));
  // Without the check, the OM silently computes with the lost state: y = 1 * x instead of 2 * x.
  REQUIRE(c.Atc().exit_code == 0);
  CHECK(c.Run() == std::vector<float>{1.0f, -2.0f, 0.5f, 4.0f});
}

TEST_CASE("a CompilableOp without PortableOp is refused, naming what to add", "[lifecycle]") {
  Case c("NoPortableOp");
  auto r = c.Atc();
  CHECK(r.exit_code == 255);
  CHECK(Contains(r.err, "OA1107: '" + c.dir + "/g.json': node 'op' (NoPortableOp): the op is a CompilableOp but not "
                        "a PortableOp (deliverable '" + So() + "'), so its compile results cannot be carried into an "
                        "OM. Derive the class from ge::PortableOp and implement Serialize/Deserialize."));
}

TEST_CASE("user-code failures stop the tools cleanly, naming node, op type, callback and deliverable", "[lifecycle]") {
  SECTION("InferShape returns GRAPH_FAILED") {
    Case c("FailingInferOp");
    auto r = c.Atc();
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "node 'op' (FailingInferOp): InferShape returned GRAPH_FAILED. See the deliverable's log "
                          "above ('" + So() + "')."));
  }
  SECTION("Serialize returns an empty buffer") {
    Case c("EmptySerializeOp");
    auto r = c.Atc();
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "OA1403: '" + c.dir + "/g.json': op type 'EmptySerializeOp': Serialize returned an empty "
                          "buffer."));
  }
  SECTION("Execute throws") {
    Case c("ThrowingOp");
    REQUIRE(c.Atc().exit_code == 0);
    auto r = RunOmrun({c.dir + "/m.om"});
    CHECK(r.exit_code == 6);
    CHECK(Contains(r.err, "node 'op' (ThrowingOp): Execute threw an exception: kernel table is empty. See the "
                          "deliverable's log above ('" + c.dir + "/m.om:libmisbehaving_ops.so')."));
  }
}

TEST_CASE("MakeOutputRefInput: two chained ref ops update the input in place, no copy", "[lifecycle]") {
  // RefInplaceOp (tests/deliverables/refs) fails Execute unless its output has the input's
  // address; each applies x = 2x + 1, so the graph computes 4x + 3.
  const std::string dir = MakeTempDir();
  const std::string desc = R"({ "dtype": "DT_FLOAT", "shape": { "dim": ["6"] }, "layout": "ND" })";
  WriteBytes(dir + "/g.json",
             R"({ "name": "refs", "graph": [ { "name": "refs", "output": ["r2:0"], "op": [
                 { "name": "x", "type": "Data", "input": [""], "attr": { "index": { "i": "0" } },
                   "inputDesc": [)" + desc + R"(], "outputDesc": [)" + desc + R"(] },
                 { "name": "r1", "type": "RefInplaceOp", "input": ["x:0"] },
                 { "name": "r2", "type": "RefInplaceOp", "input": ["r1:0"] } ] } ] })");
  auto atc = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                    BuildPath("tests/opp/refs"));
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  tensor_io::HostTensor x;
  x.dtype = ge::DT_FLOAT;
  x.shape = {6};
  const float v[6] = {1.0f, -2.0f, 0.5f, 4.0f, 0.0f, -0.25f};
  x.data.resize(sizeof(v));
  std::memcpy(x.data.data(), v, sizeof(v));
  tensor_io::WriteNpy(dir + "/x.npy", x);
  for (const char *loop : {"1", "3"}) {  // repeated runs start again from the caller's input
    auto r = RunOmrun({dir + "/m.om", "--input", dir + "/x.npy", "--output", dir + "/out", "--loop", loop});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    auto y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
    std::vector<float> out(6);
    REQUIRE(y.data.size() == 24);
    std::memcpy(out.data(), y.data.data(), 24);
    CHECK(out == std::vector<float>{7.0f, -5.0f, 5.0f, 19.0f, 3.0f, 2.0f});
  }
  RemoveTree(dir);
}
