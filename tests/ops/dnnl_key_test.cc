// ops/common/dnnl_util.h Key: the primitive cache's key is exact (names, list lengths and values
// all count) and equal keys hash alike; PrimitiveCache builds an entry once per distinct key.
#include <catch2/catch.hpp>

#include "common/dnnl_util.h"

using openatc_ops::dnnl_util::Key;
using openatc_ops::dnnl_util::PrimitiveCache;
using Dims = std::vector<int64_t>;

TEST_CASE("Key: equal content is equal, every part of it counts", "[ops][dnnl]") {
  const Dims d12{1, 2}, d1{1}, d2{2}, empty{};
  auto k = [](auto build) {
    Key key;
    build(key);
    return key;
  };
  const Key a = k([&](Key &x) { x.Add("x", d12).Add("t", int64_t{2}); });
  const Key a2 = k([&](Key &x) { x.Add("x", d12).Add("t", int64_t{2}); });
  CHECK(a == a2);
  CHECK(a.Hash() == a2.Hash());
  CHECK(a.Words() == a2.Words());
  // A list named "x" packs as (0x80 | 1 << 5 | 1) << 56 | 'x'; then the count 2 and the values.
  CHECK(k([&](Key &x) { x.Add("x", d12); }).Words() ==
        std::vector<int64_t>{static_cast<int64_t>((uint64_t{0xA1} << 56) | 'x'), 2, 1, 2});
  CHECK_FALSE(a == k([&](Key &x) { x.Add("x", d12).Add("t", int64_t{1}); }));           // value
  CHECK_FALSE(a == k([&](Key &x) { x.Add("y", d12).Add("t", int64_t{2}); }));           // name
  CHECK_FALSE(k([&](Key &x) { x.Add("a", d12).Add("b", empty); }) ==
              k([&](Key &x) { x.Add("a", d1).Add("b", d2); }));                          // list split
  CHECK_FALSE(k([&](Key &x) { x.Add("x", int64_t{0}); }) == k([&](Key &x) { x.Add("x", empty); }));
  CHECK_FALSE(k([&](Key &x) { x.Add("s", std::string("abcdefgh1")); }) ==
              k([&](Key &x) { x.Add("s", std::string("abcdefgh2")); }));                 // 9th byte
  CHECK_FALSE(k([&](Key &x) { x.Add("longname1", int64_t{1}); }) ==
              k([&](Key &x) { x.Add("longname2", int64_t{1}); }));                       // 9th char
}

TEST_CASE("PrimitiveCache: one build per distinct key", "[ops][dnnl]") {
  PrimitiveCache<int> cache;
  int builds = 0;
  auto get = [&](int64_t t) {
    Key key;
    key.Add("t", t);
    return *cache.Get(key, [&] { return static_cast<int>(++builds * 10 + t); });
  };
  CHECK(get(1) == 11);
  CHECK(get(2) == 22);
  CHECK(get(1) == 11);
  CHECK(builds == 2);
  CHECK(cache.Size() == 2);
}
