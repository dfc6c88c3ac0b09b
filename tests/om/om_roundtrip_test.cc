// OM container round trips: every field survives Serialize/ReadBytes and WriteFile/ReadFile,
// the layout is the documented one, output is deterministic, compression choices, zero-copy
// weights, and the writer's refusal of inconsistent models.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <unistd.h>
#include <xxhash.h>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

using namespace openatc;
using omtest::Le64;

TEST_CASE("om: Serialize + ReadBytes keeps every field", "[om]") {
  const om::Model m = omtest::MakeModel();
  const auto img = om::Serialize(m);
  const om::Model r = om::ReadBytes(img.data(), img.size());
  CHECK(r.format_major == 1);
  CHECK(r.format_minor == 3);
  omtest::CheckModelsEqual(m, r);
  // Values checked by hand too, so a symmetric bug in both directions cannot hide.
  const auto &add = r.graph.nodes.at(2);
  CHECK(add.attrs.at("a_int").i == -1234567890123LL);
  CHECK(std::signbit(add.attrs.at("a_float").f));
  CHECK(add.attrs.at("a_float2").f == 2.5f);
  CHECK(add.attrs.at("a_bytes").s == std::string("\x00\x01\xff\x00z", 5));
  CHECK(add.attrs.at("a_dtype").dt == ge::DT_BF16);
  CHECK(add.inputs.at(2).node == -1);
  CHECK_FALSE(add.input_descs.at(2).valid);
  int32_t scalar = 0;
  REQUIRE(add.attrs.at("a_tensor").t->data.size == 4);
  std::memcpy(&scalar, add.attrs.at("a_tensor").t->data.data, 4);
  CHECK(scalar == 42);
  CHECK(add.attrs.at("a_empty_tensor").t->data.size == 0);
  CHECK(r.artifacts.at(1).payload.size == 0);
  CHECK(r.artifacts.at(0).payload.size == 100 * 1024);
}

TEST_CASE("om: layout is the documented one", "[om]") {
  const auto img = om::Serialize(omtest::MakeModel());
  CHECK(std::string(img.begin(), img.begin() + 4) == "OAOM");
  CHECK(Le64(img, 4) % (1ull << 32) == 64);           // preamble size
  CHECK((img[8] | img[9] << 8) == 1);                 // major
  CHECK((img[10] | img[11] << 8) == 3);               // minor
  CHECK(Le64(img, 12) % (1ull << 32) == 0);           // flags
  CHECK(Le64(img, 16) == 64);                         // envelope offset
  const uint64_t env_size = Le64(img, 24);
  CHECK(std::string(img.begin() + 64 + 4, img.begin() + 64 + 8) == "OAOM");  // file_identifier
  const uint64_t area = Le64(img, 32);
  CHECK(area == (64 + env_size + 63) / 64 * 64);
  CHECK(area + Le64(img, 40) == img.size());

  const om::ContainerInfo info = om::InspectBytes(img.data(), img.size());
  CHECK(info.magic == "OAOM");
  CHECK(info.version_major == 1);
  CHECK(info.version_minor == 3);
  CHECK(info.preamble_size == 64);
  CHECK(info.envelope_offset == 64);
  CHECK(info.envelope_size == env_size);
  CHECK(info.segment_area_offset == area);
  CHECK(info.file_size == img.size());
  // Weights in node order then attr-name order, then artifacts, then deliverables.
  REQUIRE(info.segments.size() == 4);
  const auto &s = info.segments;
  CHECK(s[0].kind == om::SegmentKind::kWeight);
  CHECK(s[0].offset == 0);
  CHECK(s[0].stored_size == 1024);
  CHECK(s[0].codec == om::SegmentCodec::kNone);
  CHECK(s[1].kind == om::SegmentKind::kWeight);
  CHECK(s[1].offset == 1024);
  CHECK(s[1].stored_size == 4);
  CHECK(s[2].kind == om::SegmentKind::kArtifact);
  CHECK(s[2].offset == 1088);
  CHECK(s[2].stored_size == 102400);
  CHECK(s[2].codec == om::SegmentCodec::kNone);  // random bytes: zstd is not smaller
  CHECK(s[3].kind == om::SegmentKind::kDeliverable);
  CHECK(s[3].offset == 103488);
  CHECK(s[3].codec == om::SegmentCodec::kZstd);
  CHECK(s[3].raw_size == 64 * 1024);
  CHECK(s[3].stored_size < 64 * 1024 / 2);
  for (const auto &seg : s) CHECK(seg.file_offset % 64 == 0);
  CHECK(std::string(om::SegmentKindName(s[3].kind)) == "deliverable");
  CHECK(std::string(om::SegmentCodecName(s[3].codec)) == "zstd");
}

TEST_CASE("om: the same model gives the same bytes", "[om]") {
  const auto a = om::Serialize(omtest::MakeModel());
  const auto b = om::Serialize(omtest::MakeModel());
  CHECK(a == b);
  // Reading and writing again is stable too.
  const auto c = om::Serialize(om::ReadBytes(a.data(), a.size()));
  CHECK(a == c);
}

TEST_CASE("om: compression on and off both round-trip", "[om]") {
  const om::Model m = omtest::MakeModel();
  om::WriteOptions off;
  off.compress_level = 0;
  const auto plain = om::Serialize(m, off);
  const auto packed = om::Serialize(m);  // default level 3
  om::WriteOptions all;
  all.compress_weights = true;
  all.compress_level = 19;
  const auto packed_all = om::Serialize(m, all);
  omtest::CheckModelsEqual(m, om::ReadBytes(plain.data(), plain.size()));
  omtest::CheckModelsEqual(m, om::ReadBytes(packed.data(), packed.size()));
  omtest::CheckModelsEqual(m, om::ReadBytes(packed_all.data(), packed_all.size()));
  CHECK(packed.size() + 32 * 1024 < plain.size());  // 64 KB of text deliverable
  for (const auto &s : om::InspectBytes(plain.data(), plain.size()).segments)
    CHECK(s.codec == om::SegmentCodec::kNone);
  const auto info = om::InspectBytes(packed_all.data(), packed_all.size());
  CHECK(info.segments[0].codec == om::SegmentCodec::kZstd);  // 1 KB of 0,1,2,3 floats
  CHECK(info.segments[1].codec == om::SegmentCodec::kNone);  // 4 bytes do not shrink
  CHECK(info.segments[2].codec == om::SegmentCodec::kNone);

  // zstd can shrink zeros far beyond the x1024 a reader accepts: such a segment stays raw.
  om::Model zeros = omtest::MakeSmallModel();
  zeros.deliverables[0].data = ir::Bytes::FromVector(std::vector<uint8_t>(1 << 20, 0));
  zeros.deliverables[0].hash = XXH3_64bits(zeros.deliverables[0].data.data, 1 << 20);
  const auto zimg = om::Serialize(zeros);
  const auto zinfo = om::InspectBytes(zimg.data(), zimg.size());
  CHECK(zinfo.segments.back().codec == om::SegmentCodec::kNone);
  CHECK(zinfo.segments.back().stored_size == (1u << 20));
  omtest::CheckModelsEqual(zeros, om::ReadBytes(zimg.data(), zimg.size()));
  om::WriteOptions bad;
  bad.compress_level = 23;
  try {
    om::Serialize(m, bad);
    FAIL("accepted level 23");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kInternal);
    CHECK(std::string(e.what()) ==
          "OA2022: OM compress level 23 is outside 0..22. Pass 0 (no compression) or a zstd level.");
  }
}

// True when `p` lies in a mapping of `path` in /proc/self/maps.
static bool InsideMappingOf(const void *p, const std::string &path) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto addr = reinterpret_cast<uintptr_t>(p);
  while (std::getline(maps, line)) {
    if (line.size() < path.size() || line.compare(line.size() - path.size(), path.size(), path) != 0)
      continue;
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) return true;
  }
  return false;
}

TEST_CASE("om: WriteFile + ReadFile, weights are views into the mapping", "[om]") {
  const std::string dir = omtest::TempDir();
  const std::string path = dir + "/x.om";
  const om::Model m = omtest::MakeModel();
  om::WriteFile(path, m);
  {
    const om::Model r = om::ReadFile(path);
    omtest::CheckModelsEqual(m, r);
    const auto &w = r.graph.nodes.at(1).attrs.at("value").t->data;
    CHECK(reinterpret_cast<uintptr_t>(w.data) % 64 == 0);
    CHECK(InsideMappingOf(w.data, path));
    CHECK(InsideMappingOf(r.artifacts.at(0).payload.data, path));      // uncompressed
    CHECK_FALSE(InsideMappingOf(r.deliverables.at(0).data.data, path));  // decompressed copy
    const auto info = om::InspectFile(path);
    CHECK(info.segments.size() == 4);
    CHECK(info.file_size == om::Serialize(m).size());
  }
  // The mapping lives as long as a view does.
  ir::Bytes keep;
  {
    const om::Model r = om::ReadFile(path);
    keep = r.graph.nodes.at(1).attrs.at("value").t->data;
  }
  CHECK(InsideMappingOf(keep.data, path));
  float v[4];
  std::memcpy(v, keep.data, sizeof v);
  CHECK(v[0] == 0.0f);
  CHECK(v[3] == 3.0f);
  keep = {};
  CHECK_FALSE(InsideMappingOf(nullptr, path));
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("om: ReadBytes with an owner gives views, without one copies", "[om]") {
  auto img = std::make_shared<std::vector<uint8_t>>(om::Serialize(omtest::MakeModel()));
  const uint8_t *lo = img->data(), *hi = img->data() + img->size();
  const om::Model viewed = om::ReadBytes(img->data(), img->size(), img);
  const uint8_t *p = viewed.graph.nodes.at(1).attrs.at("value").t->data.data;
  CHECK((p >= lo && p < hi));
  const om::Model copied = om::ReadBytes(img->data(), img->size());
  const uint8_t *q = copied.graph.nodes.at(1).attrs.at("value").t->data.data;
  CHECK_FALSE((q >= lo && q < hi));
}

TEST_CASE("om: an image at an unaligned address is read", "[om]") {
  const auto img = om::Serialize(omtest::MakeSmallModel());
  std::vector<uint8_t> shifted(img.size() + 3);
  std::memcpy(shifted.data() + 3, img.data(), img.size());
  omtest::CheckModelsEqual(omtest::MakeSmallModel(), om::ReadBytes(shifted.data() + 3, img.size()));
}

static std::string WriteError(const om::Model &m) {
  try {
    om::Serialize(m);
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kInternal);
    return e.what();
  }
  FAIL("Serialize accepted an inconsistent model");
  return {};
}

TEST_CASE("om: Serialize refuses inconsistent models", "[om]") {
  const std::string bug = " This is a bug in the producer of the model.";
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[2].inputs[0].node = 9;
    CHECK(WriteError(m) == "OA2011: node 'add' (AddCustom): input #0 refers to node #9; the graph has 4 nodes." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[2].inputs[1].index = 1;
    CHECK(WriteError(m) == "OA2011: node 'add' (AddCustom): input #1 uses output #1 of node 'w', which has 1 outputs." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[2].control_inputs = {-3};
    CHECK(WriteError(m) == "OA2011: node 'add' (AddCustom): control input refers to node #-3; the graph has 4 nodes." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[3].input_descs.clear();
    CHECK(WriteError(m) == "OA2011: node 'out' (NetOutput): has 1 inputs but 0 input descs." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.outputs = {{3, 0}};
    CHECK(WriteError(m) == "OA2011: graph output #0 uses output #0 of node 'out', which has 0 outputs." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.inputs = {4};
    CHECK(WriteError(m) == "OA2011: graph input #0 refers to node #4; the graph has 4 nodes." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[1].attrs["value"].t->desc.shape = {4, 5};
    CHECK(WriteError(m) == "OA2012: node 'w' (Const): tensor 'value': DT_FLOAT [4, 5] needs 80 bytes but has 64." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.graph.nodes[1].attrs["value"].t->desc.shape = {-1, 4};
    CHECK(WriteError(m) == "OA2012: node 'w' (Const): tensor 'value': shape [-1, 4] is not static or overflows." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.artifacts[1].op_type = "AddCustom";
    CHECK(WriteError(m) == "OA2013: op type 'AddCustom' has more than one artifact." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.artifacts[0].deliverable = 1;
    CHECK(WriteError(m) == "OA2013: artifact of op type 'AddCustom' refers to deliverable #1; there are 1." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.artifacts[0].hash ^= 1;
    CHECK(WriteError(m) == "OA2013: artifact of op type 'AddCustom': hash is not the XXH3-64 of its 40-byte payload." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.deliverables[0].hash = 0;
    CHECK(WriteError(m) == "OA2013: deliverable #0 'libcust_add.so': hash is not the XXH3-64 of its 300 bytes." + bug);
  }
  {
    om::Model m = omtest::MakeSmallModel();
    m.artifacts[1].has_payload = false;
    m.artifacts[1].payload = ir::Bytes::Copy("x", 1);
    CHECK(WriteError(m) == "OA2013: artifact of op type 'SubCustom' has a payload but has_payload is false." + bug);
  }
}

TEST_CASE("om: sub-byte and string constants", "[om]") {
  om::Model m = omtest::MakeSmallModel();
  auto &t = *m.graph.nodes[2].attrs["a_tensor"].t;
  t.desc.dtype = ge::DT_INT4;
  t.desc.shape = {7};  // 7 x 4 bits = 3.5 -> 4 bytes
  auto img = om::Serialize(m);
  omtest::CheckModelsEqual(m, om::ReadBytes(img.data(), img.size()));
  t.desc.shape = {9};  // 4.5 -> 5 bytes
  CHECK(WriteError(m) == "OA2012: node 'add' (AddCustom): tensor 'a_tensor': DT_INT4 [9] needs 5 bytes but has 4. This is a bug in the producer of the model.");
  t.desc.dtype = ge::DT_STRING;  // no fixed size: not checked
  img = om::Serialize(m);
  omtest::CheckModelsEqual(m, om::ReadBytes(img.data(), img.size()));
}

// Seed corpus for tests/om/om_reader_fuzz.cc: a few valid OMs under <build>/om_fuzz_corpus.
TEST_CASE("om: write the fuzz seed corpus", "[om]") {
  const char *build = std::getenv("OPENATC_BUILD_DIR");
  if (!build) return;
  const std::string dir = std::string(build) + "/om_fuzz_corpus";
  std::system(("mkdir -p " + dir).c_str());
  om::WriteOptions off;
  off.compress_level = 0;
  om::WriteOptions all;
  all.compress_weights = true;
  om::Model empty;
  const std::vector<std::pair<std::string, std::vector<uint8_t>>> seeds = {
      {"small_zstd.om", om::Serialize(omtest::MakeSmallModel())},
      {"small_plain.om", om::Serialize(omtest::MakeSmallModel(), off)},
      {"small_all_zstd.om", om::Serialize(omtest::MakeModel(200, 2000, 64), all)},
      {"empty.om", om::Serialize(empty)},
  };
  for (const auto &[name, bytes] : seeds) {
    om::WriteFile(dir + "/" + name, om::ReadBytes(bytes.data(), bytes.size()),
                  name == "small_plain.om" ? off : name == "small_all_zstd.om" ? all : om::WriteOptions{});
    std::ifstream f(dir + "/" + name, std::ios::binary);
    std::vector<uint8_t> back((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK(back == bytes);
  }
}

TEST_CASE("om: subgraph attrs and value kinds (1.3) survive the round trip and need a 1.3 reader", "[om]") {
  om::Model m = omtest::MakeSmallModel();
  {
    const auto img = om::Serialize(m);
    const om::Model r = om::ReadBytes(img.data(), img.size());
    CHECK(r.min_reader_minor < 3);  // nothing of 1.3 used: older readers still read it
  }
  // The Add node gets a subgraph holding a copy of the whole graph (its weights included), a
  // list of two, and its first output becomes a sequence.
  auto sub = std::make_shared<ir::Graph>(m.graph);
  sub->name = "body";
  ir::AttrValue g;
  g.kind = ir::AttrKind::kGraph;
  g.g = sub;
  ir::AttrValue lg;
  lg.kind = ir::AttrKind::kListGraph;
  lg.list_g = {sub, std::make_shared<ir::Graph>(*sub)};
  ir::Node &add = m.graph.nodes.at(2);
  add.attrs["z_body"] = g;
  add.attrs["z_bodies"] = lg;
  const auto img = om::Serialize(m);
  const om::Model r = om::ReadBytes(img.data(), img.size());
  CHECK(r.min_reader_major == 1);
  CHECK(r.min_reader_minor == 3);
  omtest::CheckModelsEqual(m, r);
  REQUIRE(r.graph.nodes.at(2).attrs.at("z_body").g->nodes.size() == m.graph.nodes.size());
  CHECK(r.graph.nodes.at(2).attrs.at("z_bodies").list_g.at(1)->name == "body");

  om::Model v = omtest::MakeSmallModel();
  v.graph.nodes.at(2).output_descs.at(0).value_kind = ir::ValueKind::kOptionalSequence;
  const auto img2 = om::Serialize(v);
  const om::Model r2 = om::ReadBytes(img2.data(), img2.size());
  CHECK(r2.min_reader_minor == 3);
  CHECK(r2.graph.nodes.at(2).output_descs.at(0).value_kind == ir::ValueKind::kOptionalSequence);
}
