// loader/runtime/src/buffer_pool.h: blocks of a size come back to the next Take of that size, and
// the pool keeps no more bytes than were ever taken at once.
#include <catch2/catch.hpp>

#include <cstdint>

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
  CHECK(pool.kept_bytes() == 256);
  uint8_t *c = pool.Take(128);
  CHECK((c == a || c == b));
  CHECK(pool.kept_bytes() == 128);
  uint8_t *d = pool.Take(192);  // no kept block of that size: a new one
  CHECK(d != a);
  CHECK(d != b);
  CHECK(pool.kept_bytes() == 128);
  pool.Give(c, 128);
  pool.Give(d, 192);
  // At most 128 + 192 = 320 bytes were out at once: the 128-byte block is kept (256 <= 320), the
  // 192-byte one would make 448 and is freed.
  CHECK(pool.kept_bytes() == 256);
}

TEST_CASE("BufferPool keeps at most the high-water mark of bytes taken at once", "[runtime]") {
  BufferPool pool;
  pool.Give(pool.Take(64), 64);
  CHECK(pool.kept_bytes() == 64);  // peak 64
  uint8_t *big = pool.Take(128);   // peak 128; the kept 64-byte block stays
  pool.Give(big, 128);             // 64 + 128 > 128: freed, not kept
  CHECK(pool.kept_bytes() == 64);
  pool.Give(nullptr, 64);  // ignored
  CHECK(pool.kept_bytes() == 64);
}
