// The process-wide memo of compressed deliverables (om_format/src/deliverable_memo.h): an OM
// written or read again in the same process reuses the frame or the raw bytes of a deliverable of
// 1 MiB or more, and gives exactly what compressing or decompressing it again would.
#include <cstring>

#include <catch2/catch.hpp>
#include <xxhash.h>

#include "om_test_util.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

using namespace openatc;

namespace {

constexpr size_t kBig = (size_t{1} << 20) + 4096;  // above the memo's 1 MiB floor

// `m` with its deliverable replaced by a copy whose byte `at` is changed (same size).
om::Model WithChangedByte(const om::Model &m, size_t at) {
  om::Model out = m;
  std::vector<uint8_t> bytes(m.deliverables[0].data.data, m.deliverables[0].data.data + m.deliverables[0].data.size);
  bytes[at] ^= 0x5a;
  out.deliverables[0].data = ir::Bytes::FromVector(std::move(bytes));
  out.deliverables[0].hash = XXH3_64bits(out.deliverables[0].data.data, out.deliverables[0].data.size);
  return out;
}

bool SameBytes(const ir::Bytes &a, const ir::Bytes &b) {
  return a.size == b.size && std::memcmp(a.data, b.data, a.size) == 0;
}

om::SegmentInfo DeliverableSegment(const std::vector<uint8_t> &img) {
  const om::ContainerInfo info = om::InspectBytes(img.data(), img.size());
  for (const auto &s : info.segments)
    if (s.kind == om::SegmentKind::kDeliverable) return s;
  FAIL("no deliverable segment");
  return {};
}

}  // namespace

TEST_CASE("om: a large deliverable written twice gives the same image; read twice, shares its bytes", "[om]") {
  const om::Model m = omtest::MakeModel(100 * 1024, kBig);
  const std::vector<uint8_t> first = om::Serialize(m), second = om::Serialize(m);
  CHECK(first == second);
  CHECK(DeliverableSegment(first).codec == om::SegmentCodec::kZstd);

  // The writer remembered the library: reading the OM back hands out those very bytes.
  const om::Model a = om::ReadBytes(first.data(), first.size());
  const om::Model b = om::ReadBytes(second.data(), second.size());
  REQUIRE(a.deliverables.size() == 1);
  CHECK(SameBytes(a.deliverables[0].data, m.deliverables[0].data));
  CHECK(a.deliverables[0].data.data == b.deliverables[0].data.data);
  omtest::CheckModelsEqual(m, a);
}

TEST_CASE("om: the memo tells apart deliverables that differ in one byte", "[om]") {
  const om::Model m = omtest::MakeModel(100 * 1024, kBig);
  const std::vector<uint8_t> img = om::Serialize(m);
  for (size_t at : {size_t{0}, kBig / 2, kBig - 1}) {
    const om::Model changed = WithChangedByte(m, at);
    const std::vector<uint8_t> cimg = om::Serialize(changed);
    CHECK(cimg != img);
    const om::Model back = om::ReadBytes(cimg.data(), cimg.size());
    CHECK(SameBytes(back.deliverables[0].data, changed.deliverables[0].data));
    CHECK_FALSE(SameBytes(back.deliverables[0].data, m.deliverables[0].data));
  }
  // And the first library still reads as itself.
  const om::Model again = om::ReadBytes(img.data(), img.size());
  CHECK(SameBytes(again.deliverables[0].data, m.deliverables[0].data));
}

TEST_CASE("om: a frame remembered at one zstd level is not reused at another", "[om]") {
  const om::Model m = WithChangedByte(omtest::MakeModel(100 * 1024, kBig), 17);
  om::WriteOptions fast, small;
  fast.compress_level = 1;
  small.compress_level = 9;
  const std::vector<uint8_t> img1 = om::Serialize(m, fast), img9 = om::Serialize(m, small);
  CHECK(DeliverableSegment(img1).stored_size != DeliverableSegment(img9).stored_size);
  CHECK(om::Serialize(m, fast) == img1);
  CHECK(om::Serialize(m, small) == img9);
  for (const auto *img : {&img1, &img9}) {
    const om::Model back = om::ReadBytes(img->data(), img->size());
    CHECK(SameBytes(back.deliverables[0].data, m.deliverables[0].data));
  }
}
