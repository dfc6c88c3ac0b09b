// AddCustomOffline's PortableOp buffer (examples/tilelang_stand_in/ge/offline_op.cpp), through the
// deliverable's pull ABI: the layout byte for byte (u32 LE magic 0x4F504B4E, version 1, count,
// then key_len, key, so_size, .so bytes), a Deserialize/Serialize round trip, and every malformed
// buffer refused with the previous kernels kept.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "graph/custom_op.h"
#include "graph/custom_op_pull_registry.h"

namespace {
using Bytes = std::vector<uint8_t>;

std::unique_ptr<ge::BaseCustomOp> MakeOp() {
  void *lib = dlopen(TL_OFFLINE_OP, RTLD_NOW);
  REQUIRE(lib != nullptr);
  auto num = reinterpret_cast<size_t (*)()>(dlsym(lib, "GetRegisteredCustomOpCreatorNum"));
  auto get = reinterpret_cast<int32_t (*)(ge::CustomOpTypeToCreator *, size_t, size_t)>(
      dlsym(lib, "GetRegisteredCustomOpCreators"));
  REQUIRE(num != nullptr);
  REQUIRE(get != nullptr);
  REQUIRE(num() == 1);
  ge::CustomOpTypeToCreator entry{};
  REQUIRE(get(&entry, 1, sizeof(entry)) == 0);
  REQUIRE(std::string(entry.op_type) == "AddCustomOffline");
  return std::unique_ptr<ge::BaseCustomOp>(entry.creator());
}

void U32(Bytes &b, uint32_t v) {
  const uint8_t le[4] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8), static_cast<uint8_t>(v >> 16),
                         static_cast<uint8_t>(v >> 24)};
  b.insert(b.end(), le, le + 4);
}

Bytes Entry(const std::string &key, const Bytes &so) {
  Bytes b;
  b.reserve(8 + key.size() + so.size());
  U32(b, static_cast<uint32_t>(key.size()));
  b.insert(b.end(), key.begin(), key.end());
  U32(b, static_cast<uint32_t>(so.size()));
  b.insert(b.end(), so.begin(), so.end());
  return b;
}

Bytes Buffer(uint32_t magic, uint32_t version, uint32_t count, const std::vector<Bytes> &entries) {
  Bytes b;
  U32(b, magic);
  U32(b, version);
  U32(b, count);
  for (const Bytes &e : entries) b.insert(b.end(), e.begin(), e.end());
  return b;
}

Bytes KernelFixture() {
  std::ifstream in(TL_CALL_FIXTURE, std::ios::binary);
  Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(b.size() > 64);
  return b;
}
}  // namespace

TEST_CASE("AddCustomOffline serializes an empty cache as 12 bytes", "[tilelang]") {
  auto op = MakeOp();
  auto *portable = dynamic_cast<ge::PortableOp *>(op.get());
  REQUIRE(portable != nullptr);
  Bytes out;
  REQUIRE(portable->Serialize(out) == ge::GRAPH_SUCCESS);
  REQUIRE(out == Bytes{0x4E, 0x4B, 0x50, 0x4F, 1, 0, 0, 0, 0, 0, 0, 0});
  REQUIRE(portable->Deserialize(out) == ge::GRAPH_FAILED);  // count 0
}

TEST_CASE("AddCustomOffline's buffer round-trips and refuses malformed input", "[tilelang]") {
  auto op = MakeOp();
  auto *portable = dynamic_cast<ge::PortableOp *>(op.get());
  REQUIRE(portable != nullptr);
  const Bytes so = KernelFixture();
  // Two sizes, given out of key order: Serialize writes them in key order ("1024" < "4096").
  const Bytes given = Buffer(0x4F504B4E, 1, 2, {Entry("4096", so), Entry("1024", so)});
  REQUIRE(portable->Deserialize(given) == ge::GRAPH_SUCCESS);
  Bytes out;
  REQUIRE(portable->Serialize(out) == ge::GRAPH_SUCCESS);
  const Bytes ordered = Buffer(0x4F504B4E, 1, 2, {Entry("1024", so), Entry("4096", so)});
  REQUIRE(out.size() == 12 + 2 * (4 + 4 + 4 + so.size()));
  REQUIRE(out == ordered);

  Bytes trailing = ordered;
  trailing.push_back(0);
  Bytes truncated(ordered.begin(), ordered.end() - 1);
  const std::vector<Bytes> bad = {
      Buffer(0x4F504B4F, 1, 1, {Entry("4096", so)}),                    // magic
      Buffer(0x4F504B4E, 2, 1, {Entry("4096", so)}),                    // version
      Buffer(0x4F504B4E, 1, 65, {Entry("4096", so)}),                   // count over 64
      Buffer(0x4F504B4E, 1, 2, {Entry("4096", so), Entry("4096", so)}),  // duplicate key
      Buffer(0x4F504B4E, 1, 1, {Entry("", so)}),                        // empty key
      Buffer(0x4F504B4E, 1, 1, {Entry("4096", Bytes(100, 0x7F))}),      // not a shared object
      Buffer(0x4F504B4E, 1, 2, {Entry("4096", so)}),                    // count beyond the entries
      trailing, truncated, Bytes{0x4E, 0x4B}};
  for (const Bytes &b : bad) {
    REQUIRE(portable->Deserialize(b) == ge::GRAPH_FAILED);
    Bytes kept;
    REQUIRE(portable->Serialize(kept) == ge::GRAPH_SUCCESS);
    REQUIRE(kept == ordered);
  }
}
