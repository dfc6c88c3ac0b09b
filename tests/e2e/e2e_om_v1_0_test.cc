// OM files written by format 1.0 (tests/om/fixtures, README there) still load and run: their plan
// attributes are read as the typed plan, and the results are the hand values of their graphs.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/om/model.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

void WriteFloats(const std::string &path, const std::vector<float> &v) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = {static_cast<int64_t>(v.size())};
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  tensor_io::WriteNpy(path, t);
}

std::vector<float> ReadFloats(const std::string &path) {
  auto t = tensor_io::ReadNpy(path);
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

const ir::Node &Named(const om::Model &m, const std::string &name) {
  const int32_t i = m.graph.FindNode(name);
  REQUIRE(i >= 0);
  return m.graph.nodes[static_cast<size_t>(i)];
}

}  // namespace

TEST_CASE("om 1.0 fixture: the memory plan attributes become the typed plan", "[e2e][om]") {
  om::Model m = om::ReadFile(SourcePath("tests/om/fixtures/single_add_v1_0.om"));
  CHECK(m.format_minor == 0);
  CHECK(m.graph.arena_bytes == 64);  // add1's 16 floats; add2's output is the graph output
  const ir::Node &add1 = Named(m, "add1");
  CHECK(add1.plan.output_offsets == std::vector<int64_t>{0});
  CHECK(add1.attrs.count("_output_offsets") == 0);
  CHECK(Named(m, "add2").plan.output_offsets == std::vector<int64_t>{-1});
}

TEST_CASE("om 1.0 fixture: single_add runs, (x + x) + x of ones is 3", "[e2e][om]") {
  const std::string dir = MakeTempDir();
  auto run = RunOmrun({SourcePath("tests/om/fixtures/single_add_v1_0.om"), "--input",
                       SourcePath("examples/compilable_add_custom/ones.npy"), "--output", dir});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(ReadFloats(dir + "/output_0.npy") == std::vector<float>(16, 3.0f));
  RemoveTree(dir);
}

TEST_CASE("om 1.0 fixture: the declared launch record becomes typed launches and runs", "[e2e][om]") {
  om::Model m = om::ReadFile(SourcePath("tests/om/fixtures/annotated_add_v1_0.om"));
  const ir::Node &n = Named(m, "annotated_add");
  REQUIRE(n.plan.launches.size() == 1);
  CHECK_FALSE(n.plan.launches[0].kernel_name.empty());
  CHECK(n.plan.launches[0].binary.size > 0);
  CHECK(n.plan.launches[0].slots.size() >= 3);  // x, y, z at least
  CHECK(n.attrs.count("_annotated_launches") == 0);
  CHECK(n.attrs.count("_annotated_workspaces") == 0);

  const std::string dir = MakeTempDir();
  std::vector<float> x(8192), y(8192), want(8192);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i % 7);
    want[i] = x[i] + y[i];  // exact: small integers and halves
  }
  WriteFloats(dir + "/x.npy", x);
  WriteFloats(dir + "/y.npy", y);
  auto run = RunOmrun({SourcePath("tests/om/fixtures/annotated_add_v1_0.om"), "--input",
                       dir + "/x.npy," + dir + "/y.npy", "--output", dir + "/out"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(ReadFloats(dir + "/out/output_0.npy") == want);
  RemoveTree(dir);
}

TEST_CASE("om 1.1: a rebuilt OM stores the plan typed and asks for a 1.1 reader only with launches", "[e2e][om]") {
  const std::string dir = MakeTempDir();
  auto a = RunAtc({"--model", SourcePath("examples/annotated_args_refresh_add_custom/annotated_add.json"),
                   "--soc_version", "host", "--output", dir + "/aa"},
                  BuildPath("examples/annotated_args_refresh_add_custom/opp"));
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  om::Model m = om::ReadFile(dir + "/aa.om");
  CHECK(m.format_minor == 3);  // the current format; the file needs only a 1.1 reader
  CHECK(m.min_reader_minor == 1);
  const ir::Node &n = Named(m, "annotated_add");
  REQUIRE(n.plan.launches.size() == 1);
  CHECK(n.attrs.count("_annotated_launches") == 0);
  // The same launch as the 1.0 file held inline. The kernel bytes differ: the op's kernel is now
  // Ascend C (the fixture holds the former host-C++ kernel); both are host shared objects (ELF).
  om::Model old = om::ReadFile(SourcePath("tests/om/fixtures/annotated_add_v1_0.om"));
  const auto &ol = Named(old, "annotated_add").plan.launches.at(0);
  CHECK(n.plan.launches[0].kernel_name == ol.kernel_name);
  const ir::Bytes &bin = n.plan.launches[0].binary;
  REQUIRE(bin.size > 4);
  CHECK(std::memcmp(bin.data, "\x7f" "ELF", 4) == 0);
  CHECK(std::memcmp(bin.data, ol.binary.data, 4) == 0);

  auto s = RunAtc({"--model", SourcePath("examples/compilable_add_custom/single_add.json"), "--soc_version", "host",
                   "--output", dir + "/sa"},
                  AddCustomOpp());
  REQUIRE(s.exit_code == 0);
  om::Model sa = om::ReadFile(dir + "/sa.om");
  CHECK(sa.min_reader_minor == 0);  // a memory plan alone: a 1.0 reader may run it unplanned
  CHECK(sa.graph.arena_bytes == 512);  // the planner rounds each tensor up to 512 bytes
  CHECK(Named(sa, "add1").plan.output_offsets == std::vector<int64_t>{0});
  RemoveTree(dir);
}
