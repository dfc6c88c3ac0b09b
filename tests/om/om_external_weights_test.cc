// External weight files (format 1.3, atc --external_weight): ATC's file names and layout, the
// reader's search order (folder beside the OM, a given folder, caller buffers), and hostile
// Segment.external_file / external_offset values and damaged weight files.
#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>

#include <catch2/catch.hpp>
#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/schemas/om_generated.h"

using namespace openatc;

namespace {

// ATC's `_value_sha256`: SHA-256, each byte through std::hex without padding.
std::string AtcSha(const uint8_t *data, size_t size) {
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(data, size, md);
  std::ostringstream os;
  for (unsigned char c : md) os << std::hex << static_cast<int>(c);
  return os.str();
}

const ir::Bytes &Weight(const om::Model &m) { return m.graph.nodes[1].attrs.at("value").t->data; }

std::vector<uint8_t> Serialize(const om::Model &m, om::ExternalWeights mode, std::vector<om::WeightFile> *files) {
  om::WriteOptions o;
  o.external_weights = mode;
  o.combined_weight_file = "x_weight_combined";
  return om::Serialize(m, o, files);
}

void WriteAll(const std::string &path, const std::vector<uint8_t> &bytes) {
  FILE *f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
}

std::string Hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << std::setw(16) << std::setfill('0') << v;
  return os.str();
}

std::string ErrorOf(const std::vector<uint8_t> &img, const om::ReadOptions &o, int *category = nullptr) {
  try {
    om::ReadBytes(img.data(), img.size(), nullptr, o);
  } catch (const Error &e) {
    if (category) *category = static_cast<int>(e.category());
    return e.what();
  }
  FAIL("ReadBytes accepted the image");
  return {};
}

}  // namespace

TEST_CASE("om external weights: mode 1 names the file by ATC's SHA-256 and keeps it out of the OM", "[om]") {
  const om::Model m = omtest::MakeSmallModel();
  const ir::Bytes &w = Weight(m);
  std::vector<om::WeightFile> files;
  const auto img = Serialize(m, om::ExternalWeights::kPerWeight, &files);
  REQUIRE(files.size() == 1);  // only the Const's value; AddCustom's tensor attr stays in the OM
  CHECK(files[0].name == "weight_" + AtcSha(w.data, w.size));
  CHECK(files[0].bytes == std::vector<uint8_t>(w.data, w.data + w.size));
  // The OM holds the segment's description, not its bytes.
  const auto inline_img = om::Serialize(m);
  CHECK(std::search(inline_img.begin(), inline_img.end(), w.data, w.data + w.size) != inline_img.end());
  CHECK(std::search(img.begin(), img.end(), w.data, w.data + w.size) == img.end());
  const om::fb::Model *root = om::fb::GetModel(img.data() + 64);
  const om::fb::Segment *seg = root->segments()->Get(0);
  REQUIRE(seg->external_file() != nullptr);
  CHECK(seg->external_file()->str() == "weight/" + files[0].name);
  CHECK(seg->external_offset() == 0);
  CHECK(seg->stored_size() == w.size);
  CHECK(seg->hash() == XXH3_64bits(w.data, w.size));
  CHECK(root->min_reader_minor() == 3);
  CHECK(om::fb::GetModel(inline_img.data() + 64)->min_reader_minor() < 3);
  // Same model, same bytes.
  std::vector<om::WeightFile> again;
  CHECK(Serialize(m, om::ExternalWeights::kPerWeight, &again) == img);
  CHECK(again[0].bytes == files[0].bytes);

  // ReadFile finds weight/ beside the OM; the model reads back equal to the original.
  const std::string dir = omtest::TempDir();
  REQUIRE(::mkdir((dir + "/weight").c_str(), 0755) == 0);
  WriteAll(dir + "/m.om", img);
  WriteAll(dir + "/weight/" + files[0].name, files[0].bytes);
  omtest::CheckModelsEqual(om::ReadFile(dir + "/m.om"), m);
  const om::ContainerInfo info = om::InspectFile(dir + "/m.om");
  CHECK(info.segments[0].external_file == "weight/" + files[0].name);
  CHECK(info.version_minor == 3);

  // ReadBytes needs a folder or a buffer.
  int category = -1;
  CHECK(ErrorOf(img, {}, &category) ==
        "OA2113: node 'w' (Const): segment #0 (weight) of tensor 'value' lives in the external weight file '" +
            files[0].name +
            "', and a model loaded from memory has no folder to find it in. Load it with aclmdlLoadWithConfig and "
            "ACL_MDL_WEIGHT_PATH_PTR (the folder of its weight files) or aclmdlSetExternalWeightAddress, or load "
            "the .om file.");
  CHECK(category == static_cast<int>(ErrorCategory::kUsage));
  om::ReadOptions by_dir;
  by_dir.weight_dir = dir + "/weight";
  omtest::CheckModelsEqual(om::ReadBytes(img.data(), img.size(), nullptr, by_dir), m);
  om::ReadOptions by_buffer;
  std::vector<uint8_t> user(files[0].bytes);
  user.resize(user.size() + 32, 0);  // a larger buffer is fine
  by_buffer.weight_buffers[files[0].name] = ir::Bytes{user.data(), user.size(), nullptr};
  const om::Model from_buffer = om::ReadBytes(img.data(), img.size(), nullptr, by_buffer);
  CHECK(Weight(from_buffer).data == user.data());  // a view of the caller's memory
  omtest::CheckModelsEqual(from_buffer, m);
  ::unlink((dir + "/weight/" + files[0].name).c_str());
  ::rmdir((dir + "/weight").c_str());
  ::unlink((dir + "/m.om").c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("om external weights: mode 2 pads each weight to 512 bytes in the combined file", "[om]") {
  om::Model m = omtest::MakeModel(40, 300, 160);  // 640 weight bytes: two 512-byte blocks
  const ir::Bytes w = Weight(m);
  std::vector<om::WeightFile> files;
  const auto img = Serialize(m, om::ExternalWeights::kCombined, &files);
  REQUIRE(files.size() == 1);
  CHECK(files[0].name == "x_weight_combined");
  std::vector<uint8_t> expect(w.data, w.data + w.size);
  expect.resize(1024, 0);
  CHECK(files[0].bytes == expect);
  om::ReadOptions o;
  o.weight_buffers["x_weight_combined"] = ir::Bytes{files[0].bytes.data(), files[0].bytes.size(), nullptr};
  omtest::CheckModelsEqual(om::ReadBytes(img.data(), img.size(), nullptr, o), m);
  // Without a name the graph's is used.
  om::WriteOptions unnamed;
  unnamed.external_weights = om::ExternalWeights::kCombined;
  om::Serialize(m, unnamed, &files);
  CHECK(files[0].name == "test_graph_weight_combined");
  // A caller that takes no files cannot ask for external weights.
  CHECK_THROWS_WITH(om::Serialize(m, unnamed), Catch::Contains("external weights were asked for"));
}

TEST_CASE("om external weights: a missing, truncated or altered file is refused naming it and the hash", "[om]") {
  const om::Model m = omtest::MakeSmallModel();
  std::vector<om::WeightFile> files;
  const auto img = Serialize(m, om::ExternalWeights::kPerWeight, &files);
  const uint64_t hash = XXH3_64bits(files[0].bytes.data(), files[0].bytes.size());
  const size_t n = files[0].bytes.size();
  const std::string dir = omtest::TempDir();
  om::ReadOptions o;
  o.weight_dir = dir;
  int category = -1;
  CHECK(ErrorOf(img, o, &category).rfind("OA2112: node 'w' (Const): cannot read the external weight file '" + dir +
                                             "/" + files[0].name + "' of segment #0 (weight) of tensor 'value': open "
                                             "failed: No such file or directory.",
                                         0) == 0);
  CHECK(category == static_cast<int>(ErrorCategory::kIo));

  std::vector<uint8_t> cut(files[0].bytes.begin(), files[0].bytes.end() - 1);
  WriteAll(dir + "/" + files[0].name, cut);
  CHECK(ErrorOf(img, o, &category) ==
        "OA2112: node 'w' (Const): the external weight file '" + dir + "/" + files[0].name +
            "' of segment #0 (weight) of tensor 'value' holds " + std::to_string(n - 1) + " bytes; the OM needs " +
            std::to_string(n) + " bytes at offset 0 (XXH3-64 " + Hex(hash) +
            "): it is truncated or not this OM's. Use the weight files atc wrote with this OM, or rebuild the OM.");
  CHECK(category == static_cast<int>(ErrorCategory::kCorruptOm));

  std::vector<uint8_t> flipped = files[0].bytes;
  flipped[5] ^= 0x10;
  WriteAll(dir + "/" + files[0].name, flipped);
  const uint64_t got = XXH3_64bits(flipped.data(), flipped.size());
  CHECK(ErrorOf(img, o) == "OA2112: node 'w' (Const): the external weight file '" + dir + "/" + files[0].name +
                               "' of segment #0 (weight) of tensor 'value': the " + std::to_string(n) +
                               " bytes at offset 0 have XXH3-64 " + Hex(got) + ", the OM expects " + Hex(hash) +
                               ": the file was altered or is not this OM's. Use the weight files atc wrote with this "
                               "OM, or rebuild the OM.");
  ::unlink((dir + "/" + files[0].name).c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("om external weights: hostile external paths and ranges are refused", "[om]") {
  const om::Model m = omtest::MakeSmallModel();
  std::vector<om::WeightFile> files;
  const auto base = Serialize(m, om::ExternalWeights::kPerWeight, &files);
  const om::fb::Segment *seg = om::fb::GetModel(base.data() + 64)->segments()->Get(0);
  const size_t name_at = omtest::OffsetOf(base, seg->external_file()->data());
  const size_t name_len = seg->external_file()->size();
  const std::string kDamaged = " The file is damaged or truncated; rebuild it with atc.";
  om::ReadOptions o;
  o.weight_dir = "/nonexistent";
  auto with_name = [&](const std::string &prefix) {
    auto img = base;
    std::memcpy(img.data() + name_at, prefix.data(), prefix.size());
    omtest::Resign(img);
    return ErrorOf(img, o);
  };
  const std::string rest = seg->external_file()->str();
  CHECK(with_name("../") == "OA2008: segment #0 (weight): the external weight file path '../" + rest.substr(3) +
                                "' has a '..' component; only a relative path inside the OM's folder is allowed." +
                                kDamaged);
  CHECK(with_name("/") == "OA2008: segment #0 (weight): the external weight file path '/" + rest.substr(1) +
                              "' is absolute; only a relative path inside the OM's folder is allowed." + kDamaged);
  CHECK(with_name("weight//").find("has an empty component") != std::string::npos);
  CHECK(with_name("weight/./").find("has a '.' component") != std::string::npos);
  CHECK(with_name("weight\\").find("holds a backslash") != std::string::npos);
  CHECK(with_name(std::string("w\0", 2)).find("holds a NUL byte") != std::string::npos);
  CHECK(name_len == rest.size());

  // external_offset + size overflowing, and a Zstd external segment.
  auto img = base;
  const uint8_t *off = reinterpret_cast<const flatbuffers::Table *>(seg)->GetAddressOf(om::fb::Segment::VT_EXTERNAL_OFFSET);
  REQUIRE(off == nullptr);  // 0 is the default, not stored: craft through the codec instead
  const uint8_t *codec = reinterpret_cast<const flatbuffers::Table *>(seg)->GetAddressOf(om::fb::Segment::VT_CODEC);
  REQUIRE(codec == nullptr);
  const uint8_t *size_at = reinterpret_cast<const flatbuffers::Table *>(seg)->GetAddressOf(om::fb::Segment::VT_STORED_SIZE);
  REQUIRE(size_at != nullptr);
  omtest::PutLe64(img, omtest::OffsetOf(base, size_at), ~0ull);
  omtest::Resign(img);
  CHECK(ErrorOf(img, o).rfind("OA2008: segment #0 (weight): 18446744073709551615 bytes (raw 64)", 0) == 0);
}

TEST_CASE("om external weights: WriteFile leaves no half set behind on failure", "[om]") {
  const om::Model m = omtest::MakeSmallModel();
  om::WriteOptions o;
  o.external_weights = om::ExternalWeights::kPerWeight;
  std::vector<om::WeightFile> files;
  om::Serialize(m, o, &files);
  const std::string dir = omtest::TempDir();
  const std::string weight = dir + "/weight/" + files[0].name;

  // The OM cannot be renamed into place (a folder holds its name): the weight file it placed goes.
  REQUIRE(::mkdir((dir + "/m.om").c_str(), 0755) == 0);
  REQUIRE(::mkdir((dir + "/m.om/x").c_str(), 0755) == 0);
  CHECK_THROWS_AS(om::WriteFile(dir + "/m.om", m, o), Error);
  struct stat st {};
  CHECK(::stat(weight.c_str(), &st) != 0);
  ::rmdir((dir + "/m.om/x").c_str());
  ::rmdir((dir + "/m.om").c_str());

  // A file where the weight folder belongs: nothing is written at all.
  ::rmdir((dir + "/weight").c_str());
  WriteAll(dir + "/weight", {1, 2, 3});
  CHECK_THROWS_AS(om::WriteFile(dir + "/m.om", m, o), Error);
  CHECK(::stat((dir + "/m.om").c_str(), &st) != 0);
  ::unlink((dir + "/weight").c_str());

  // Success: both in place, and the OM reads back.
  om::WriteFile(dir + "/m.om", m, o);
  omtest::CheckModelsEqual(om::ReadFile(dir + "/m.om"), m);
  ::unlink(weight.c_str());
  ::rmdir((dir + "/weight").c_str());
  ::unlink((dir + "/m.om").c_str());
  CHECK(::rmdir(dir.c_str()) == 0);  // nothing else was left (no staged temp files)
}
