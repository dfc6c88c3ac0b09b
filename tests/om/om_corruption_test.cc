// The OM reader on damaged and hostile input: every truncation, bit flips in each part, foreign
// and newer files, oversized sizes and counts, crafted envelopes. Each must give openatc::Error
// (never a crash, hang or huge allocation) with the documented message.
#include <cstring>

#include <catch2/catch.hpp>
#include <unistd.h>
#include <xxhash.h>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/schemas/om_generated.h"

using namespace openatc;
using omtest::Le64;
using omtest::PutLe64;
using omtest::ReadError;
using omtest::Resign;

namespace {
const std::string kDamaged = " The file is damaged or truncated; rebuild it with atc.";
const std::string kDamagedSem = " The file is damaged; rebuild it with atc.";
const int kNotOm = static_cast<int>(ErrorCategory::kNotOm);
const int kCorrupt = static_cast<int>(ErrorCategory::kCorruptOm);

std::vector<uint8_t> Small(int level = 3) {
  om::WriteOptions o;
  o.compress_level = level;
  return om::Serialize(omtest::MakeSmallModel(), o);
}

const om::fb::Model *Root(const std::vector<uint8_t> &img) {
  return om::fb::GetModel(img.data() + 64);
}

// Address of a scalar field of a table (the generated classes derive privately from Table).
size_t FieldOffset(const std::vector<uint8_t> &img, const void *table, uint16_t vt) {
  const uint8_t *p = reinterpret_cast<const flatbuffers::Table *>(table)->GetAddressOf(vt);
  REQUIRE(p != nullptr);
  return omtest::OffsetOf(img, p);
}
}  // namespace

TEST_CASE("om corrupt: truncation at every byte offset", "[om]") {
  const auto img = Small();
  REQUIRE(img.size() < 20000);
  for (size_t len = 0; len < img.size(); ++len) {
    std::vector<uint8_t> cut(img.begin(), img.begin() + static_cast<long>(len));
    int cat = -1;
    INFO("length " << len);
    std::string msg = ReadError(cut, &cat);
    CHECK(cat == (len < 64 && len < 4 ? kNotOm : kCorrupt));
  }
  int cat = -1;
  CHECK(ReadError({}, &cat) == "OA2001: not an OM file: the file is empty. Pass an OM built by OpenATC's atc.");
  CHECK(cat == kNotOm);
  std::vector<uint8_t> cut(img.begin(), img.begin() + 3);
  CHECK(ReadError(cut) == "OA2001: not an OM file (no OAOM magic). Pass an OM built by OpenATC's atc.");
  cut.assign(img.begin(), img.begin() + 10);
  CHECK(ReadError(cut) == "OA2004: at byte 10: preamble: the file has 10 bytes, fewer than the 64-byte preamble." + kDamaged);
  const uint64_t env = Le64(img, 24);
  cut.assign(img.begin(), img.begin() + 64);
  CHECK(ReadError(cut) == "OA2005: at byte 24: preamble: envelope (" + std::to_string(env) +
                              " bytes at 64) extends past the end of the 64-byte file." + kDamaged);
  cut.assign(img.begin(), img.end() - 1);
  const uint64_t area = Le64(img, 32), area_size = Le64(img, 40);
  CHECK(ReadError(cut) == "OA2005: at byte 40: preamble: segment area (" + std::to_string(area_size) +
                              " bytes at " + std::to_string(area) + ") extends past the end of the " +
                              std::to_string(img.size() - 1) + "-byte file." + kDamaged);
}

TEST_CASE("om corrupt: trailing bytes and non-zero padding", "[om]") {
  auto img = Small();
  img.push_back(0);
  CHECK(ReadError(img) == "OA2005: at byte " + std::to_string(img.size() - 1) +
                              ": preamble: the file has 1 unexpected bytes after the segment area." + kDamaged);
  img = Small();
  const uint64_t env_end = 64 + Le64(img, 24), area = Le64(img, 32);
  REQUIRE(env_end < area);
  img[area - 1] = 7;
  CHECK(ReadError(img) == "OA2005: at byte " + std::to_string(area - 1) +
                              ": padding after the envelope is not zero." + kDamaged);
  img = Small();
  const auto info = om::InspectBytes(img.data(), img.size());
  REQUIRE(info.segments.size() == 4);
  const uint64_t gap = info.segments[1].file_offset + info.segments[1].stored_size;  // 4-byte weight
  REQUIRE(gap < info.segments[2].file_offset);
  img[gap] = 1;
  CHECK(ReadError(img) == "OA2008: at byte " + std::to_string(gap) +
                              ": padding before segment #2 (artifact) is not zero." + kDamaged);
}

TEST_CASE("om corrupt: magic, GE OM, version, flags, preamble checksum", "[om]") {
  auto img = Small();
  int cat = -1;
  img[0] = 'X';
  CHECK(ReadError(img, &cat) == "OA2001: not an OM file (no OAOM magic). Pass an OM built by OpenATC's atc.");
  CHECK(cat == kNotOm);

  std::vector<uint8_t> ge(256, 0);
  std::memcpy(ge.data(), "IMOD", 4);
  CHECK(ReadError(ge, &cat) ==
        "OA2002: this is a GE OM (magic IMOD) made by CANN's ATC; this runtime executes only OpenATC OMs. "
        "Rebuild it with OpenATC's atc.");
  CHECK(cat == kNotOm);
  CHECK(om::LooksLikeGeOm(ge.data(), ge.size()));
  CHECK_FALSE(om::LooksLikeGeOm(img.data(), 3));
  CHECK_FALSE(om::LooksLikeGeOm(nullptr, 0));

  img = Small();
  CHECK(img[8] == 1);  // the writer writes format 1.3
  CHECK(img[9] == 0);
  CHECK(img[10] == 3);  // format 1.3
  CHECK(img[11] == 0);
  img[8] = 2;  // major 2
  img[10] = 3;
  Resign(img);
  CHECK(ReadError(img, &cat) == "OA2003: at byte 8: OM format version 2.3 is newer than this reader's 1.3. "
                                "Use the OpenATC release that built it, or rebuild the OM with this atc.");
  CHECK(cat == kNotOm);
  img = Small();
  img[8] = 0;  // a pre-release 0.x file (the Foundation wrote 0.1)
  img[10] = 1;
  Resign(img);
  CHECK(ReadError(img, &cat) == "OA2015: at byte 8: this OM (format 0.1) was written by an unstable pre-release "
                                "format 0.x; rebuild it with atc. This reader reads format 1.x OMs only.");
  CHECK(cat == kNotOm);
  img = Small();
  img[10] = 9;  // a newer minor is read
  Resign(img);
  CHECK(om::ReadBytes(img.data(), img.size()).format_minor == 9);

  img = Small();
  img[12] = 4;
  Resign(img);
  CHECK(ReadError(img, &cat) == "OA2003: at byte 12: OM format flags 0x4 are unknown to this reader (format 1.3). "
                                "Use the OpenATC release that built it, or rebuild the OM with this atc.");

  img = Small();
  img[20] ^= 0x10;  // inside the envelope offset, not re-signed
  CHECK(ReadError(img, &cat) == "OA2004: at byte 56: preamble: checksum mismatch." + kDamaged);
  CHECK(cat == kCorrupt);
  // Every single-bit flip in the preamble is caught.
  for (size_t byte = 0; byte < 64; ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      auto f = Small();
      f[byte] ^= static_cast<uint8_t>(1 << bit);
      INFO("byte " << byte << " bit " << bit);
      ReadError(f);
    }
  }
  img = Small();
  img[4] = 63;  // preamble size
  Resign(img);
  CHECK(ReadError(img) == "OA2004: at byte 4: preamble: its size field says 63 bytes; expected a multiple of 8 from 64 to 4096." + kDamaged);
}

TEST_CASE("om corrupt: oversized sizes in the preamble", "[om]") {
  const auto base = Small();
  const std::string n = std::to_string(base.size());
  auto img = base;
  PutLe64(img, 24, 1ull << 63);
  Resign(img);
  CHECK(ReadError(img) == "OA2005: at byte 24: preamble: envelope (9223372036854775808 bytes at 64) extends past the end of the " + n + "-byte file." + kDamaged);
  img = base;
  PutLe64(img, 16, ~0ull);
  Resign(img);
  CHECK(ReadError(img) == "OA2005: at byte 16: preamble: envelope offset 18446744073709551615 is not an 8-aligned offset "
                          "between the preamble end (64) and the file size (" + n + ")." + kDamaged);
  img = base;
  PutLe64(img, 40, ~0ull - 63);
  Resign(img);
  CHECK(ReadError(img) == "OA2005: at byte 40: preamble: segment area (18446744073709551552 bytes at " +
                              std::to_string(Le64(base, 32)) + ") extends past the end of the " + n + "-byte file." + kDamaged);
  img = base;
  PutLe64(img, 32, Le64(base, 32) + 1);
  Resign(img);
  CHECK(ReadError(img) == "OA2005: at byte 32: preamble: segment area offset " + std::to_string(Le64(base, 32) + 1) +
                              " is not a 64-aligned offset between the envelope end (" + std::to_string(64 + Le64(base, 24)) +
                              ") and the file size (" + n + ")." + kDamaged);
}

TEST_CASE("om corrupt: bit flips in the envelope", "[om]") {
  const auto base = Small();
  auto img = base;
  img[100] ^= 1;
  CHECK(ReadError(img) == "OA2006: at byte 64: envelope: checksum mismatch." + kDamaged);
  img = base;
  img[68] = 'X';  // file identifier
  Resign(img);
  CHECK(ReadError(img) == "OA2007: at byte 68: envelope: FlatBuffers file identifier is not OAOM." + kDamaged);
  // Every byte of the envelope changed (and re-signed, so the verifier and the semantic checks
  // see it): an error or a model that passes all checks, never a crash.
  const uint64_t env_size = Le64(base, 24);
  size_t rejected = 0;
  for (size_t k = 64; k < 64 + env_size; ++k) {
    for (uint8_t x : {0x01, 0x80, 0xff}) {
      img = base;
      img[k] ^= x;
      Resign(img);
      try {
        om::ReadBytes(img.data(), img.size());
      } catch (const Error &e) {
        // A changed minimum reader version is refused as an unsupported format (OA2003), a changed
        // target name as a target this OpenATC does not know (OA2026).
        CHECK((e.category() == ErrorCategory::kCorruptOm || e.category() == ErrorCategory::kInternal ||
               (e.category() == ErrorCategory::kNotOm && (e.code() == "OA2003" || e.code() == "OA2026"))));
        ++rejected;
      }
    }
  }
  CHECK(rejected > env_size);  // most changes are caught
}

TEST_CASE("om corrupt: a bit flip in each segment", "[om]") {
  const auto base = Small();
  const auto info = om::InspectBytes(base.data(), base.size());
  REQUIRE(info.segments.size() == 4);
  const char *expect[4] = {
      "node 'w' (Const): at byte %llu: segment #0 (weight) of tensor 'value': checksum mismatch.",
      "node 'add' (AddCustom): at byte %llu: segment #1 (weight) of tensor 'a_tensor': checksum mismatch.",
      "at byte %llu: segment #2 (artifact) of artifact of op type 'AddCustom': checksum mismatch.",
      "at byte %llu: segment #3 (deliverable) of deliverable #0 'libcust_add.so': checksum mismatch.",
  };
  for (size_t k = 0; k < 4; ++k) {
    const auto &s = info.segments[k];
    for (uint64_t at : {s.file_offset, s.file_offset + s.stored_size - 1}) {
      auto img = base;
      img[at] ^= 0x20;
      char want[300];
      std::snprintf(want, sizeof want, expect[k], static_cast<unsigned long long>(s.file_offset));
      CHECK(ReadError(img) == "OA2009: " + std::string(want) + kDamaged);
    }
  }
}

TEST_CASE("om corrupt: crafted segment tables", "[om]") {
  const auto base = Small();
  const auto *segs = Root(base)->segments();
  REQUIRE(segs->size() == 4);
  REQUIRE(segs->Get(3)->codec() == om::fb::Codec::Zstd);
  const uint64_t raw = segs->Get(3)->raw_size(), stored = segs->Get(3)->stored_size();

  auto img = base;
  img[FieldOffset(base, segs->Get(3), om::fb::Segment::VT_CODEC)] = 7;
  Resign(img);
  CHECK(ReadError(img) == "OA2008: segment #3 (deliverable): unknown codec 7." + kDamaged);

  img = base;
  img[FieldOffset(base, segs->Get(3), om::fb::Segment::VT_KIND)] = 9;
  Resign(img);
  CHECK(ReadError(img) == "OA2008: segment #3 (unknown kind): unknown kind 9." + kDamaged);

  img = base;
  size_t at = FieldOffset(base, segs->Get(3), om::fb::Segment::VT_RAW_SIZE);
  PutLe64(img, at, raw + 1);
  Resign(img);
  CHECK(ReadError(img) == "OA2010: at byte " + std::to_string(Le64(base, 32) + segs->Get(3)->offset()) +
                              ": segment #3 (deliverable) of deliverable #0 'libcust_add.so': decompressed to " +
                              std::to_string(raw) + " bytes; the segment table says " + std::to_string(raw + 1) + "." + kDamaged);
  PutLe64(img, at, stored * 1024 + 1);
  Resign(img);
  CHECK(ReadError(img) == "OA2008: segment #3 (deliverable): raw size " + std::to_string(stored * 1024 + 1) +
                              " is not plausible for " + std::to_string(stored) +
                              " compressed bytes (limits: x1024, 64 GiB)." + kDamaged);
  PutLe64(img, at, 1ull << 40);
  Resign(img);
  CHECK(ReadError(img).rfind("OA2008: segment #3 (deliverable): raw size 1099511627776 is not plausible", 0) == 0);

  img = base;
  at = FieldOffset(base, segs->Get(1), om::fb::Segment::VT_OFFSET);
  PutLe64(img, at, Le64(img, at) + 8);
  Resign(img);
  CHECK(ReadError(img) == "OA2008: at byte " + std::to_string(Le64(base, 32)) + ": segment #1 (weight): offset " +
                              std::to_string(segs->Get(1)->offset() + 8) + " is not 64-aligned, overlaps the previous "
                              "segment, or is outside the " + std::to_string(Le64(base, 40)) + "-byte segment area." + kDamaged);

  img = base;
  at = FieldOffset(base, segs->Get(2), om::fb::Segment::VT_STORED_SIZE);
  PutLe64(img, at, 1ull << 62);
  Resign(img);
  CHECK(ReadError(img).rfind("OA2008: at byte ", 0) == 0);
  CHECK(ReadError(img).find("segment #2 (artifact): 4611686018427387904 bytes at offset") != std::string::npos);

  // An artifact pointing at the deliverable's segment.
  img = base;
  const auto *art = Root(img)->artifacts()->Get(0);
  at = FieldOffset(img, art, om::fb::OpArtifact::VT_SEGMENT);
  img[at] = 3;
  Resign(img);
  CHECK(ReadError(img) == "OA2008: artifact of op type 'AddCustom' refers to segment #3 (deliverable), which holds "
                          "another kind of data." + kDamaged);
  img[at] = 9;
  Resign(img);
  CHECK(ReadError(img) == "OA2008: artifact of op type 'AddCustom' refers to segment #9; there are 4." + kDamaged);
}

TEST_CASE("om corrupt: crafted graphs and artifacts", "[om]") {
  const auto base = Small();
  const auto *nodes = Root(base)->graph()->nodes();
  auto img = base;
  // Input #0 of 'add' names node #7.
  size_t at = omtest::OffsetOf(base, nodes->Get(2)->inputs()->Get(0));
  img[at] = 7;
  Resign(img);
  int cat = -1;
  CHECK(ReadError(img, &cat) == "OA2011: node 'add' (AddCustom): input #0 refers to node #7; the graph has 4 nodes." + kDamagedSem);
  CHECK(cat == kCorrupt);

  // Shape of 'w' [4, 4] -> [4, 5].
  img = base;
  const auto *shape = nodes->Get(1)->attrs()->Get(0)->t()->desc()->shape();
  at = omtest::OffsetOf(base, shape->Data() + 8);
  img[at] = 5;
  Resign(img);
  CHECK(ReadError(img) == "OA2012: node 'w' (Const): tensor 'value': DT_FLOAT [4, 5] needs 80 bytes but has 64." + kDamagedSem);

  // Op type "SubCustom" -> "AddCustom": two artifacts of one op type.
  img = base;
  at = omtest::OffsetOf(img, Root(img)->artifacts()->Get(1)->op_type()->c_str());
  std::memcpy(img.data() + at, "Add", 3);
  Resign(img);
  CHECK(ReadError(img) == "OA2013: op type 'AddCustom' has more than one artifact." + kDamagedSem);

  // A dtype outside ge::DataType.
  img = base;
  const auto *a_tensor = nodes->Get(2)->attrs()->Get(15);
  REQUIRE(a_tensor->name()->str() == "a_tensor");
  at = FieldOffset(base, a_tensor->t()->desc(), om::fb::TensorDesc::VT_DTYPE);
  img[at] = 0xe8;  // 1000 little-endian
  img[at + 1] = 0x03;
  Resign(img);
  CHECK(ReadError(img) == "OA2007: envelope: node 'add' tensor 'a_tensor': unknown dtype value 1000." + kDamaged);
  // Beyond DT_MAX only OpenATC's private 61..63 (include/openatc/private_dtype.h) are dtypes: 60
  // and 64 are refused; 61..63 decode (then this tensor's bytes no longer fit its dtype: OA2012).
  for (int v : {44, 60, 64}) {
    img[at] = static_cast<uint8_t>(v);
    img[at + 1] = 0;
    Resign(img);
    CHECK(ReadError(img) == "OA2007: envelope: node 'add' tensor 'a_tensor': unknown dtype value " +
                                std::to_string(v) + "." + kDamaged);
  }
  for (int v : {61, 62, 63}) {
    img[at] = static_cast<uint8_t>(v);
    img[at + 1] = 0;
    Resign(img);
    const std::string err = ReadError(img);
    CHECK_THAT(err, !Catch::Contains("unknown dtype value"));
    CHECK_THAT(err, Catch::Contains("(OpenATC)"));
  }

  // An attr kind past kListGraph (1.3).
  img = base;
  at = FieldOffset(base, nodes->Get(0)->attrs()->Get(0), om::fb::Attr::VT_KIND);
  img[at] = 16;
  Resign(img);
  CHECK(ReadError(img) == "OA2007: node 'x' (Data): envelope: attr 'index' has unknown kind 16." + kDamaged);
  // Kind Graph (1.3) without a graph.
  img[at] = 14;
  Resign(img);
  CHECK(ReadError(img) == "OA2007: node 'x' (Data): envelope: attr 'index' of kind graph has no graph." + kDamaged);

  // A huge vector count: the FlatBuffers verifier refuses it.
  img = base;
  at = omtest::OffsetOf(base, nodes) ;
  PutLe64(img, at, (Le64(img, at) & ~0xffffffffull) | 0x7fffffff);
  Resign(img);
  CHECK(ReadError(img) == "OA2007: at byte 64: envelope: FlatBuffers verification failed (schema om.fbs)." + kDamaged);
}

// Builds an image around a hand-made envelope (no segments).
static std::vector<uint8_t> Wrap(const flatbuffers::FlatBufferBuilder &b) {
  std::vector<uint8_t> img(64 + b.GetSize(), 0);
  std::memcpy(img.data(), "OAOM", 4);
  img[4] = 64;
  img[8] = 1;
  PutLe64(img, 16, 64);
  PutLe64(img, 24, b.GetSize());
  std::memcpy(img.data() + 64, b.GetBufferPointer(), b.GetSize());
  img.resize((img.size() + 63) / 64 * 64, 0);
  PutLe64(img, 32, img.size());
  PutLe64(img, 40, 0);
  Resign(img);
  return img;
}

TEST_CASE("om corrupt: shared references cannot expand the envelope", "[om]") {
  namespace fb = om::fb;
  flatbuffers::FlatBufferBuilder b;
  auto big = b.CreateString(std::string(100000, 'a'));
  std::vector<flatbuffers::Offset<flatbuffers::String>> many(100000, big);  // 10 GB if copied
  auto list = b.CreateVector(many);
  auto name = b.CreateString("s");
  fb::AttrBuilder ab(b);
  ab.add_name(name);
  ab.add_kind(fb::AttrKind::ListString);
  ab.add_list_s(list);
  auto attr = ab.Finish();
  auto node = fb::CreateNode(b, b.CreateString("n"), b.CreateString("T"), 0, 0, 0, 0,
                             b.CreateVector(std::vector<flatbuffers::Offset<fb::Attr>>{attr}));
  auto graph = fb::CreateGraph(b, 0, b.CreateVector(std::vector<flatbuffers::Offset<fb::Node>>{node}));
  b.Finish(fb::CreateModel(b, 0, 0, 0, graph), fb::ModelIdentifier());
  const auto img = Wrap(b);
  CHECK(ReadError(img) == "OA2014: envelope: decoding it would allocate far more than its size (shared references "
                          "in a crafted file?)." + kDamaged);

  // The same wrapper around an honest envelope is accepted.
  flatbuffers::FlatBufferBuilder ok;
  auto host = fb::CreateTarget(ok, ok.CreateString("host"), ok.CreateString("x86_64"));
  ok.Finish(fb::CreateModel(ok, ok.CreateString("p"), host),
            fb::ModelIdentifier());
  const auto good = Wrap(ok);
  CHECK(om::ReadBytes(good.data(), good.size()).producer == "p");
  // Without a target table it is sound but runs nowhere: refused once every other check passed.
  flatbuffers::FlatBufferBuilder no_target;
  no_target.Finish(fb::CreateModel(no_target, no_target.CreateString("p")), fb::ModelIdentifier());
  int category = -1;
  CHECK(ReadError(Wrap(no_target), &category) == "OA2026: the OM records the target '', which is neither host nor an "
                                                  "Ascend soc_version this OpenATC knows. Rebuild it with this "
                                                  "OpenATC's atc.");
  CHECK(category == static_cast<int>(ErrorCategory::kNotOm));
}

TEST_CASE("om corrupt: segment users", "[om]") {
  namespace fb = om::fb;
  // A segment nothing refers to.
  flatbuffers::FlatBufferBuilder b;
  std::vector<uint8_t> bytes(64, 0x11);
  auto seg = fb::CreateSegment(b, 0, 64, 64, fb::Codec::None, fb::SegmentKind::Weight,
                               XXH3_64bits(bytes.data(), bytes.size()));
  b.Finish(fb::CreateModel(b, 0, 0, 0, 0, 0, 0, b.CreateVector(std::vector<flatbuffers::Offset<fb::Segment>>{seg})),
           fb::ModelIdentifier());
  auto img = Wrap(b);
  img.insert(img.end(), bytes.begin(), bytes.end());
  PutLe64(img, 40, 64);
  Resign(img);
  CHECK(ReadError(img) == "OA2008: segment #0 (weight) is not referenced by the envelope." + kDamaged);
}

TEST_CASE("om corrupt: ReadFile errors name the file", "[om]") {
  const std::string dir = omtest::TempDir();
  const std::string empty = dir + "/empty.om";
  std::fclose(std::fopen(empty.c_str(), "wb"));
  try {
    om::ReadFile(empty);
    FAIL("read an empty file");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kNotOm);
    CHECK(std::string(e.what()) == "OA2001: '" + empty + "': not an OM file: the file is empty. Pass an OM built by OpenATC's atc.");
  }
  try {
    om::ReadFile(dir + "/missing.om");
    FAIL("read a missing file");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kIo);
    CHECK(std::string(e.what()) == "OA2021: '" + dir + "/missing.om': cannot read the OM: open failed: No such file or directory. Check the path and its permissions.");
  }
  try {
    om::InspectFile(dir);
    FAIL("read a directory");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kIo);
    CHECK(std::string(e.what()) == "OA2021: '" + dir + "': cannot read the OM: not a regular file: Is a directory. Check the path and its permissions.");
  }
  std::remove(empty.c_str());
  ::rmdir(dir.c_str());
}
