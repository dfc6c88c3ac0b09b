// Format versioning of the OM container: the schema evolves compatibly from the frozen 1.0-1.3
// schemas (flatbuffers::Parser::ConformTo), an envelope built from the frozen schema text reads
// with the current reader, the minimum reader version is enforced, and the build time appears
// only when SOURCE_DATE_EPOCH (or Model::build_time) gives one.
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <flatbuffers/idl.h>
#include <xxhash.h>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/model.h"
#include "openatc/schemas/om_generated.h"

using namespace openatc;
using omtest::PutLe64;
using omtest::ReadError;
using omtest::Resign;

namespace {

std::string Slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kCurrent = std::string(OPENATC_SCHEMA_DIR) + "/om.fbs";
const std::string kFrozen10 = std::string(OPENATC_SCHEMA_DIR) + "/frozen/om_v1_0.fbs";
const std::string kFrozen11 = std::string(OPENATC_SCHEMA_DIR) + "/frozen/om_v1_1.fbs";
const std::string kFrozen12 = std::string(OPENATC_SCHEMA_DIR) + "/frozen/om_v1_2.fbs";
const std::string kFrozen13 = std::string(OPENATC_SCHEMA_DIR) + "/frozen/om_v1_3.fbs";

// Parses a schema text; REQUIREs success.
void ParseSchema(flatbuffers::Parser &p, const std::string &text, const std::string &name) {
  INFO(name << ": " << p.error_);
  REQUIRE(p.Parse(text.c_str(), nullptr, name.c_str()));
}

// Preamble + envelope (at 64) + zero padding + segment area holding `weights`.
std::vector<uint8_t> WrapEnvelope(const uint8_t *env, size_t env_size,
                                  const std::vector<uint8_t> &weights) {
  std::vector<uint8_t> img(64 + env_size, 0);
  std::memcpy(img.data(), "OAOM", 4);
  img[4] = 64;
  img[8] = 1;  // format 1.0
  PutLe64(img, 16, 64);
  PutLe64(img, 24, env_size);
  std::memcpy(img.data() + 64, env, env_size);
  img.resize((img.size() + 63) / 64 * 64, 0);
  PutLe64(img, 32, img.size());
  PutLe64(img, 40, weights.size());
  img.insert(img.end(), weights.begin(), weights.end());
  Resign(img);
  return img;
}

// A Data -> Add(x, Const w) -> NetOutput model in the JSON form of the schema, with the Const's
// 2 floats in segment 0. `extra` is appended to the root table's fields.
std::string FrozenModelJson(uint64_t weight_hash, const std::string &extra,
                            const std::string &target = R"J({soc_version: "host", arch: "x86_64"})J") {
  const std::string desc =
      R"J({name: "y", dtype: 0, format: 2, origin_format: 2, shape: [2], origin_shape: [2]})J";
  std::ostringstream j;
  j << R"J({producer: "OpenATC 1.0 (frozen schema)",
  target: )J" << target << R"J(,
  build_options: [{key: "soc_version", value: "host"}],
  graph: {name: "frozen",
    nodes: [
      {name: "x", type: "Data", output_descs: [)J" << desc << R"J(],
       attrs: [{name: "index", kind: "Int", i: 0}]},
      {name: "w", type: "Const", output_descs: [)J" << desc << R"J(],
       attrs: [{name: "value", kind: "Tensor", t: {desc: )J" << desc << R"J(, segment: 0}}]},
      {name: "add", type: "Add", inputs: [{node: 0, index: 0}, {node: 1, index: 0}],
       input_descs: [)J" << desc << "," << desc << R"J(], output_descs: [)J" << desc << R"J(]},
      {name: "out", type: "NetOutput", inputs: [{node: 2, index: 0}], input_descs: [)J" << desc
    << R"J(]}],
    inputs: [0], outputs: [{node: 2, index: 0}]},
  segments: [{offset: 0, stored_size: 8, raw_size: 8, codec: "None", kind: "Weight", hash: )J"
    << weight_hash << R"J(}])J" << extra << "}";
  return j.str();
}

std::vector<uint8_t> FrozenImage(const std::string &extra, const std::string &target = "") {
  const float w[2] = {1.5f, -2.25f};
  std::vector<uint8_t> weights(8);
  std::memcpy(weights.data(), w, 8);
  flatbuffers::Parser frozen;
  ParseSchema(frozen, Slurp(kFrozen10), kFrozen10);
  const std::string json = target.empty() ? FrozenModelJson(XXH3_64bits(weights.data(), 8), extra)
                                          : FrozenModelJson(XXH3_64bits(weights.data(), 8), extra, target);
  INFO(frozen.error_);
  REQUIRE(frozen.ParseJson(json.c_str()));
  return WrapEnvelope(frozen.builder_.GetBufferPointer(), frozen.builder_.GetSize(), weights);
}

}  // namespace

TEST_CASE("om version: the current schema is a safe evolution of every frozen one", "[om]") {
  flatbuffers::Parser frozen, frozen11, frozen12, frozen13, current;
  ParseSchema(frozen, Slurp(kFrozen10), kFrozen10);
  ParseSchema(frozen11, Slurp(kFrozen11), kFrozen11);
  ParseSchema(frozen12, Slurp(kFrozen12), kFrozen12);
  ParseSchema(frozen13, Slurp(kFrozen13), kFrozen13);
  ParseSchema(current, Slurp(kCurrent), kCurrent);
  CHECK(current.ConformTo(frozen) == "");
  CHECK(current.ConformTo(frozen11) == "");
  CHECK(current.ConformTo(frozen12) == "");
  CHECK(current.ConformTo(frozen13) == "");
  CHECK(frozen11.ConformTo(frozen) == "");
  CHECK(frozen12.ConformTo(frozen11) == "");
  CHECK(frozen13.ConformTo(frozen12) == "");

  // The check has teeth: changing a field's type, or inserting a field before others, fails.
  std::string text = Slurp(kCurrent);
  const std::string field = "  stored_size: ulong;";
  REQUIRE(text.find(field) != std::string::npos);
  std::string retyped = text;
  retyped.replace(retyped.find(field), field.size(), "  stored_size: uint;");
  flatbuffers::Parser bad1;
  ParseSchema(bad1, retyped, "retyped.fbs");
  CHECK(bad1.ConformTo(frozen) != "");
  std::string inserted = text;
  inserted.replace(inserted.find(field), field.size(), "  inserted: int;\n" + field);
  flatbuffers::Parser bad2;
  ParseSchema(bad2, inserted, "inserted.fbs");
  CHECK(bad2.ConformTo(frozen) != "");
}

TEST_CASE("om version: an envelope written with the frozen 1.1 schema reads as before (no gears)", "[om]") {
  const float w[2] = {1.5f, -2.25f};
  std::vector<uint8_t> weights(8);
  std::memcpy(weights.data(), w, 8);
  flatbuffers::Parser frozen11;
  ParseSchema(frozen11, Slurp(kFrozen11), kFrozen11);
  const std::string json = FrozenModelJson(XXH3_64bits(weights.data(), 8), ", min_reader_major: 1, arena_bytes: 64");
  INFO(frozen11.error_);
  REQUIRE(frozen11.ParseJson(json.c_str()));
  auto img = WrapEnvelope(frozen11.builder_.GetBufferPointer(), frozen11.builder_.GetSize(), weights);
  img[10] = 1;  // format 1.1
  Resign(img);
  const om::Model m = om::ReadBytes(img.data(), img.size());
  CHECK(m.format_minor == 1);
  CHECK(m.graph.arena_bytes == 64);
  CHECK(m.gear_kind == om::GearKind::kNone);
  CHECK(m.gears.empty());
  CHECK(m.gear_input_order.empty());
  REQUIRE(m.graph.nodes.size() == 4);
  CHECK(m.graph.inputs == std::vector<int32_t>{0});
}

TEST_CASE("om version: an envelope written with the frozen 1.0 schema reads", "[om]") {
  const auto img = FrozenImage(", min_reader_major: 1");
  om::Model m = om::ReadBytes(img.data(), img.size());
  CHECK(m.format_major == 1);
  CHECK(m.format_minor == 0);
  CHECK(m.min_reader_major == 1);
  CHECK(m.min_reader_minor == 0);
  CHECK(m.build_time == -1);
  CHECK(m.producer == "OpenATC 1.0 (frozen schema)");
  CHECK(m.target.soc_version == "host");
  CHECK(m.build_options.at("soc_version") == "host");
  REQUIRE(m.graph.nodes.size() == 4);
  CHECK(m.graph.nodes[2].type == "Add");
  CHECK(m.graph.outputs == std::vector<ir::Endpoint>{{2, 0}});
  const auto &t = *m.graph.nodes[1].attrs.at("value").t;
  REQUIRE(t.data.size == 8);
  float w[2];
  std::memcpy(w, t.data.data, 8);
  CHECK(w[0] == 1.5f);
  CHECK(w[1] == -2.25f);
  CHECK(t.desc.shape == std::vector<int64_t>{2});

  // A file that declares a newer minimum reader (a 1.4 feature this 1.3 reader lacks).
  const auto newer = FrozenImage(", min_reader_major: 1, min_reader_minor: 4");
  int cat = -1;
  CHECK(ReadError(newer, &cat) ==
        "OA2003: at byte 64: OM format version 1.0 needs a reader of format 1.4 or newer; this "
        "reader's is 1.3. Use the OpenATC release that built it, or rebuild the OM with this atc.");
  CHECK(cat == static_cast<int>(ErrorCategory::kNotOm));
}

TEST_CASE("om version: the writer records format 1.3 and, without declared launches, minimum reader 1.0", "[om]") {
  auto img = om::Serialize(omtest::MakeSmallModel());
  const om::fb::Model *root = om::fb::GetModel(img.data() + 64);
  CHECK(root->min_reader_major() == 1);
  CHECK(root->min_reader_minor() == 0);
  // Raise the recorded minimum to 2.0 in place and re-sign.
  const uint8_t *p = reinterpret_cast<const flatbuffers::Table *>(root)->GetAddressOf(
      om::fb::Model::VT_MIN_READER_MAJOR);
  REQUIRE(p != nullptr);
  img[omtest::OffsetOf(img, p)] = 2;
  Resign(img);
  CHECK(ReadError(img) ==
        "OA2003: at byte 64: OM format version 1.3 needs a reader of format 2.0 or newer; this "
        "reader's is 1.3. Use the OpenATC release that built it, or rebuild the OM with this atc.");
}

TEST_CASE("om version: build time only from SOURCE_DATE_EPOCH or Model::build_time", "[om]") {
  ::unsetenv("SOURCE_DATE_EPOCH");
  const om::Model model = omtest::MakeSmallModel();
  const auto plain = om::Serialize(model);
  CHECK(om::fb::GetModel(plain.data() + 64)->build_time() == -1);
  CHECK(om::ReadBytes(plain.data(), plain.size()).build_time == -1);
  CHECK(om::Serialize(model) == plain);

  ::setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  const auto dated = om::Serialize(model);
  CHECK(om::Serialize(model) == dated);  // still reproducible
  CHECK(dated != plain);
  CHECK(om::ReadBytes(dated.data(), dated.size()).build_time == 1700000000);
  om::Model explicit_time = model;
  explicit_time.build_time = 42;  // the model's own value wins
  const auto img42 = om::Serialize(explicit_time);
  CHECK(om::ReadBytes(img42.data(), img42.size()).build_time == 42);

  for (const char *bad : {"", "12x", "-5", "99999999999999999999999"}) {
    ::setenv("SOURCE_DATE_EPOCH", bad, 1);
    INFO("SOURCE_DATE_EPOCH=" << bad);
    try {
      om::Serialize(model);
      FAIL("no error");
    } catch (const Error &e) {
      CHECK(std::string(e.what()) ==
            "OA2024: SOURCE_DATE_EPOCH is '" + std::string(bad) +
                "', not a decimal number of seconds since 1970-01-01 UTC. Set it to an integer "
                "such as $(git log -1 --format=%ct), or unset it.");
      CHECK(e.category() == ErrorCategory::kUsage);
    }
  }
  ::unsetenv("SOURCE_DATE_EPOCH");
  CHECK(om::Serialize(model) == plain);
}

TEST_CASE("om version: the target record reads as the target kind, and an unknown one is refused", "[om]") {
  // The file records soc_version and arch (schema 1.0 and 1.1 alike); the kind follows from them.
  const auto host = FrozenImage(", min_reader_major: 1");
  CHECK(om::ReadBytes(host.data(), host.size()).target ==
        openatc::Target{openatc::TargetKind::kHost, "host", "x86_64"});
  const auto ascend = FrozenImage(", min_reader_major: 1", R"J({soc_version: "Ascend910B1", arch: ""})J");
  CHECK(om::ReadBytes(ascend.data(), ascend.size()).target ==
        openatc::Target{openatc::TargetKind::kAscendCann, "Ascend910B1", ""});

  int category = -1;
  const auto unknown = FrozenImage(", min_reader_major: 1", R"J({soc_version: "Ascend999", arch: ""})J");
  CHECK(ReadError(unknown, &category) ==
        "OA2026: the OM records the target 'Ascend999', which is neither host nor an Ascend soc_version this "
        "OpenATC knows. Rebuild it with this OpenATC's atc.");
  CHECK(category == static_cast<int>(ErrorCategory::kNotOm));
  const auto cased = FrozenImage(", min_reader_major: 1", R"J({soc_version: "HOST", arch: "x86_64"})J");
  CHECK(ReadError(cased) == "OA2026: the OM records the target 'HOST' (x86_64), which is neither host nor an Ascend "
                            "soc_version this OpenATC knows. Rebuild it with this OpenATC's atc.");
}

TEST_CASE("om version: a target the file cannot record is refused when writing", "[om]") {
  om::Model m = omtest::MakeSmallModel();
  m.target = openatc::Target{openatc::TargetKind::kAscendEmulated, "Ascend999", "x86_64"};  // not in the table
  try {
    om::Serialize(m);
    FAIL("no error");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kInternal);
    CHECK(std::string(e.what()) ==
          "OA2026: the model's target 'Ascend999, emulated on host (x86_64)' cannot be recorded in an OM of format "
          "1.3 (soc_version and arch would read back as another target). Build it for host, for an Ascend chip "
          "through CANN, or for a chip of the emulation facts table.");
  }
  m.target = openatc::Target{openatc::TargetKind::kAscendEmulated, "Ascend910B1", ""};  // emulated needs a CPU arch
  CHECK_THROWS_AS(om::Serialize(m), Error);
  m.target = openatc::Target{openatc::TargetKind::kHost, "Ascend910B1", ""};  // a kind its name contradicts
  CHECK_THROWS_AS(om::Serialize(m), Error);
  m.target = openatc::Target{openatc::TargetKind::kAscendCann, "Ascend910B1", ""};
  const auto bytes = om::Serialize(m);
  CHECK(om::ReadBytes(bytes.data(), bytes.size()).target == m.target);
}

TEST_CASE("om version: an emulated target round-trips as soc_version + CPU arch", "[om]") {
  om::Model m = omtest::MakeSmallModel();
  for (const char *arch : {"x86_64", "aarch64"}) {
    m.target = openatc::Target{openatc::TargetKind::kAscendEmulated, "Ascend910B1", arch};
    const auto bytes = om::Serialize(m);
    const om::Model back = om::ReadBytes(bytes.data(), bytes.size());
    CHECK(back.target == m.target);
    CHECK(openatc::DescribeTarget(back.target) == std::string("Ascend910B1, emulated on host (") + arch + ")");
  }
  m.target = openatc::Target{openatc::TargetKind::kAscendEmulated, "Ascend910_9362", "x86_64"};
  const auto bytes = om::Serialize(m);
  CHECK(om::ReadBytes(bytes.data(), bytes.size()).target == m.target);
  // The same record written by hand: an Ascend name with an arch is the emulated kind.
  const auto frozen = FrozenImage(", min_reader_major: 1", R"J({soc_version: "Ascend910B1", arch: "aarch64"})J");
  CHECK(om::ReadBytes(frozen.data(), frozen.size()).target ==
        openatc::Target{openatc::TargetKind::kAscendEmulated, "Ascend910B1", "aarch64"});
  // An accepted Ascend name outside the facts table cannot be emulated: refused when read.
  const auto outside = FrozenImage(", min_reader_major: 1", R"J({soc_version: "Ascend910B2", arch: "x86_64"})J");
  CHECK(ReadError(outside) == "OA2026: the OM records the target 'Ascend910B2' (x86_64), which is neither host nor "
                              "an Ascend soc_version this OpenATC knows. Rebuild it with this OpenATC's atc.");
}
