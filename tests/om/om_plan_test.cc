// The typed plan of format 1.1 (schemas/om.fbs NodePlan, Model.arena_bytes): it survives a round
// trip with its kernel binaries in Kernel segments, raises the minimum reader only when declared
// launches are present, and an inconsistent plan is refused when written and when read (OA2025).
#include <cstring>

#include <catch2/catch.hpp>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

using namespace openatc;

namespace {

// MakeSmallModel's "add" node (index 2) writes 4 x 4 floats = 64 bytes.
om::Model PlannedModel(bool with_launch) {
  om::Model m = omtest::MakeSmallModel();
  m.graph.arena_bytes = 512;
  ir::Node &add = m.graph.nodes.at(2);
  add.plan.output_offsets = {0};
  if (with_launch) {
    ir::DeclaredLaunch l;
    l.kernel_name = "add_kernel";
    const std::string bin = "\x7f" "ELF kernel bytes";
    l.binary = ir::Bytes::Copy(bin.data(), bin.size());
    l.block_dim = 8;
    l.slots = {{14, 0, 0}, {14, 1, 0}, {15, 0, 0}, {13, 0, 0x1122334455667788ull}};
    add.plan.launches = {l};
    add.plan.workspace_bytes = {4096};
  }
  return m;
}

std::string WriteError(const om::Model &m) {
  try {
    om::Serialize(m);
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kInternal);
    return e.code();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("om plan: offsets, launches and workspaces round-trip; kernels sit in Kernel segments", "[om]") {
  const om::Model m = PlannedModel(true);
  const auto img = om::Serialize(m);
  const om::Model r = om::ReadBytes(img.data(), img.size());
  const om::ContainerInfo info = om::InspectBytes(img.data(), img.size());
  CHECK(r.min_reader_major == 1);
  CHECK(r.min_reader_minor == 1);
  CHECK(r.graph.arena_bytes == 512);
  const ir::NodePlan &p = r.graph.nodes.at(2).plan;
  CHECK(p.output_offsets == std::vector<int64_t>{0});
  CHECK(p.workspace_bytes == std::vector<int64_t>{4096});
  REQUIRE(p.launches.size() == 1);
  CHECK(p.launches[0].kernel_name == "add_kernel");
  CHECK(p.launches[0].block_dim == 8);
  CHECK(std::string(reinterpret_cast<const char *>(p.launches[0].binary.data), p.launches[0].binary.size) ==
        "\x7f" "ELF kernel bytes");
  REQUIRE(p.launches[0].slots.size() == 4);
  CHECK(p.launches[0].slots[1].addr_type == 14);
  CHECK(p.launches[0].slots[1].index == 1);
  CHECK(p.launches[0].slots[3].value == 0x1122334455667788ull);
  CHECK(r.graph.nodes.at(0).plan.empty());
  int kernels = 0;
  for (const auto &s : info.segments) kernels += s.kind == om::SegmentKind::kKernel;
  CHECK(kernels == 1);
}

TEST_CASE("om plan: a memory plan alone keeps the minimum reader at 1.0; no plan is -1", "[om]") {
  const auto img = om::Serialize(PlannedModel(false));
  const om::Model r = om::ReadBytes(img.data(), img.size());
  CHECK(r.min_reader_minor == 0);
  CHECK(r.graph.arena_bytes == 512);
  const auto plain = om::Serialize(omtest::MakeSmallModel());
  CHECK(om::ReadBytes(plain.data(), plain.size()).graph.arena_bytes == -1);
}

TEST_CASE("om plan: an inconsistent plan is refused naming the node", "[om]") {
  om::Model m = PlannedModel(true);
  m.graph.nodes[2].plan.output_offsets = {480};  // 480 + 64 > 512
  CHECK(WriteError(m) == "OA2025");
  try {
    om::Serialize(m);
  } catch (const Error &e) {
    CHECK(std::string(e.what()).find("output 0 at arena offset 480 (64 bytes) does not fit the 512-byte arena") !=
          std::string::npos);
    CHECK(std::string(e.what()).find("'add'") != std::string::npos);
  }
  m = PlannedModel(true);
  m.graph.nodes[2].plan.output_offsets = {0, 0};
  CHECK(WriteError(m) == "OA2025");
  m = PlannedModel(true);
  m.graph.arena_bytes = -1;
  CHECK(WriteError(m) == "OA2025");
  m = PlannedModel(true);
  m.graph.nodes[2].plan.workspace_bytes = {0};
  CHECK(WriteError(m) == "OA2025");
  m = PlannedModel(true);
  m.graph.nodes[2].plan.launches[0].kernel_name.clear();
  CHECK(WriteError(m) == "OA2025");
}
