// loader/runtime/src/buffer_pool.h: outside a run, blocks of a size come back to the next Take of
// that size (at most the high-water mark of bytes taken at once is kept); a run that repeats the
// last one is served from one planned block, and a run that differs falls back to the heap.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

#include "buffer_pool.h"

using openatc::runtime::BufferPool;

TEST_CASE("BufferPool hands a returned block to the next Take of its size", "[runtime]") {
  BufferPool pool;
  uint8_t *a = pool.Take(128), *b = pool.Take(128);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a != b);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  CHECK(reinterpret_cast<uintptr_t>(b) % 64 == 0);
  a[0] = 1;
  a[127] = 2;  // the whole block is usable
  pool.Give(a, 128);
  pool.Give(b, 128);
  CHECK(pool.stats().kept_bytes == 256);
  uint8_t *c = pool.Take(128);
  CHECK((c == a || c == b));
  CHECK(pool.stats().kept_bytes == 128);
  uint8_t *d = pool.Take(192);  // no kept block of that size: a new one
  CHECK(d != a);
  CHECK(d != b);
  CHECK(pool.stats().kept_bytes == 128);
  pool.Give(c, 128);
  pool.Give(d, 192);
  // At most 128 + 192 = 320 bytes were out at once: the 128-byte block is kept (256 <= 320), the
  // 192-byte one would make 448 and is freed.
  CHECK(pool.stats().kept_bytes == 256);
}

TEST_CASE("BufferPool keeps at most the high-water mark of bytes taken at once", "[runtime]") {
  BufferPool pool;
  pool.Give(pool.Take(64), 64);
  CHECK(pool.stats().kept_bytes == 64);  // peak 64
  uint8_t *big = pool.Take(128);   // peak 128; the kept 64-byte block stays
  pool.Give(big, 128);             // 64 + 128 > 128: freed, not kept
  CHECK(pool.stats().kept_bytes == 64);
  pool.Give(nullptr, 64);  // ignored
  CHECK(pool.stats().kept_bytes == 64);
}

namespace {
struct Block {
  uint8_t *p = nullptr;
  size_t bytes = 0;
  uint8_t tag = 0;  ///< what every byte holds while the block is out (the random case)
};

bool Inside(const uint8_t *p, const uint8_t *lo, size_t n) { return p >= lo && p < lo + n; }

// One run of a fixed pattern: a (1024) and b (2048) alive together, a released, c (1024) taken,
// then b and c released. a and c never live at once, so a plan needs 2048 + 1024 bytes.
std::vector<Block> RunPattern(BufferPool &pool, size_t c_bytes = 1024) {
  pool.BeginRun();
  Block a{pool.Take(1024), 1024}, b{pool.Take(2048), 2048};
  std::memset(a.p, 0xA, a.bytes);
  std::memset(b.p, 0xB, b.bytes);
  pool.Give(a.p, a.bytes);
  Block c{pool.Take(c_bytes), c_bytes};
  std::memset(c.p, 0xC, c.bytes);
  for (size_t i = 0; i < b.bytes; ++i) REQUIRE(b.p[i] == 0xB);  // c did not land on b
  pool.Give(b.p, b.bytes);
  pool.Give(c.p, c.bytes);
  pool.EndRun();
  return {a, b, c};
}
}  // namespace

TEST_CASE("BufferPool serves a repeated run from one planned block, without the heap", "[runtime]") {
  BufferPool pool;
  RunPattern(pool);
  CHECK(pool.stats().heap_takes == 3);
  CHECK(pool.stats().planned_bytes == 3072);  // b at 0, a and c share 2048..3071
  const std::vector<Block> second = RunPattern(pool);
  CHECK(pool.stats().heap_takes == 3);  // all three from the plan
  CHECK(pool.stats().kept_bytes == 0);  // the heap blocks of run 1 were let go
  const std::vector<Block> third = RunPattern(pool);
  CHECK(pool.stats().heap_takes == 3);
  // The same slices every run: b at the start, a and c sharing the bytes after it.
  CHECK(second[1].p + 2048 == second[0].p);
  CHECK(second[2].p == second[0].p);
  for (size_t k = 0; k < 3; ++k) CHECK(third[k].p == second[k].p);
  CHECK(reinterpret_cast<uintptr_t>(second[1].p) % 64 == 0);
}

TEST_CASE("BufferPool falls back to the heap where a run leaves its plan, then plans again", "[runtime]") {
  BufferPool pool;
  RunPattern(pool);
  RunPattern(pool, 4096);  // c differs: a and b planned, c from the heap
  CHECK(pool.stats().heap_takes == 4);
  CHECK(pool.stats().planned_bytes == 4096 + 2048);  // re-planned from this run: c (4096) and b
  RunPattern(pool, 4096);
  CHECK(pool.stats().heap_takes == 4);
  RunPattern(pool);  // c smaller again: from the heap, then a 3072-byte plan
  CHECK(pool.stats().heap_takes == 5);
  CHECK(pool.stats().planned_bytes == 6144);  // the block is kept: the plan fits and uses half of it
}

TEST_CASE("BufferPool never plans over a block that outlives its run", "[runtime]") {
  BufferPool pool;
  RunPattern(pool);
  // Run 2 follows the plan but keeps c past its end (as a caller holding an output would).
  pool.BeginRun();
  uint8_t *a = pool.Take(1024), *b = pool.Take(2048);
  pool.Give(a, 1024);
  uint8_t *c = pool.Take(1024);
  pool.Give(b, 2048);
  pool.EndRun();
  std::memset(c, 0x5C, 1024);
  // Later runs: their blocks never overlap c, which is still out.
  for (int run = 0; run < 3; ++run) {
    for (const Block &blk : RunPattern(pool)) CHECK_FALSE((Inside(blk.p, c, 1024) || Inside(c, blk.p, blk.bytes)));
  }
  for (size_t i = 0; i < 1024; ++i) REQUIRE(c[i] == 0x5C);
  pool.Give(c, 1024);  // frees the retired block it was cut from
  RunPattern(pool);
}

TEST_CASE("BufferPool: random runs repeated and varied never hand out overlapping live blocks", "[runtime]") {
  BufferPool pool;
  uint32_t seed = 12345;
  auto rnd = [&seed](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % n;
  };
  std::vector<std::vector<std::pair<bool, size_t>>> patterns;  // (take?, bytes or index of a live block)
  for (int p = 0; p < 4; ++p) {
    std::vector<std::pair<bool, size_t>> ops;
    size_t live = 0;
    for (int k = 0; k < 60; ++k) {
      if (live > 0 && rnd(3) == 0) {
        ops.push_back({false, rnd(static_cast<uint32_t>(live))});
        --live;
      } else {
        ops.push_back({true, 64 * (1 + rnd(40))});
        ++live;
      }
    }
    patterns.push_back(ops);
  }
  for (int run = 0; run < 40; ++run) {
    const auto &ops = patterns[run < 20 ? run % 2 : rnd(4)];  // repeats, then changes
    pool.BeginRun();
    std::vector<Block> live;
    uint8_t tag = 1;
    auto check = [](const Block &b) {
      for (size_t i = 0; i < b.bytes; ++i) REQUIRE(b.p[i] == b.tag);
    };
    for (const auto &[take, v] : ops) {
      if (take) {
        Block b{pool.Take(v), v, tag++};
        if (tag == 0) tag = 1;
        std::memset(b.p, b.tag, b.bytes);
        live.push_back(b);
      } else {
        check(live[v]);
        pool.Give(live[v].p, live[v].bytes);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(v));
      }
    }
    for (const Block &b : live) {
      check(b);
      pool.Give(b.p, b.bytes);
    }
    pool.EndRun();
  }
  CHECK(pool.stats().planned_bytes > 0);
}

TEST_CASE("BufferPool drops its planned block after a run too long to plan", "[runtime]") {
  BufferPool pool;
  RunPattern(pool);
  CHECK(pool.stats().planned_bytes == 3072);
  // 16385 Takes (one over the limit buffer_pool.cc plans): no plan, and the old block is freed.
  pool.BeginRun();
  std::vector<uint8_t *> blocks;
  for (int k = 0; k < 16385; ++k) blocks.push_back(pool.Take(64));
  for (uint8_t *b : blocks) pool.Give(b, 64);
  pool.EndRun();
  CHECK(pool.stats().planned_bytes == 0);
  RunPattern(pool);  // plans again
  CHECK(pool.stats().planned_bytes == 3072);
}

TEST_CASE("BufferPool: Gives in another order than planned leave the plan and plan again", "[runtime]") {
  BufferPool pool;
  RunPattern(pool);
  const size_t heap = pool.stats().heap_takes;
  // a, b and c taken as planned, but b given back before a: the plan is left at that Give.
  pool.BeginRun();
  uint8_t *a = pool.Take(1024), *b = pool.Take(2048);
  pool.Give(b, 2048);
  pool.Give(a, 1024);
  uint8_t *c = pool.Take(1024);  // after the plan was left: from the heap
  CHECK(pool.stats().heap_takes == heap + 1);
  pool.Give(c, 1024);
  pool.EndRun();
  // Planned from that run: a and b overlap in time, c after both: 3072 bytes, c reusing a's or b's.
  CHECK(pool.stats().planned_bytes == 3072);
  pool.BeginRun();
  a = pool.Take(1024);
  b = pool.Take(2048);
  pool.Give(b, 2048);
  pool.Give(a, 1024);
  c = pool.Take(1024);
  pool.Give(c, 1024);
  pool.EndRun();
  CHECK(pool.stats().heap_takes == heap + 1);  // the whole run from the new plan
}
