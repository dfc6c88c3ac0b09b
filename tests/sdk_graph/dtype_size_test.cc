// ge::GetSizeByDataType / ge::GetSizeInBytes (docs/custom-op-lifecycle.md §6-§7) and
// extern_math_util.h.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "graph/types.h"
#include "utils/extern_math_util.h"

TEST_CASE("sdk_graph: GetSizeByDataType table", "[dtype]") {
  CHECK(ge::GetSizeByDataType(ge::DT_FLOAT) == 4);
  CHECK(ge::GetSizeByDataType(ge::DT_FLOAT16) == 2);
  CHECK(ge::GetSizeByDataType(static_cast<ge::DataType>(5)) == -1);
  CHECK(ge::GetSizeByDataType(ge::DT_STRING) == -1);
  CHECK(ge::GetSizeByDataType(ge::DT_STRING_REF) == -1);
  CHECK(ge::GetSizeByDataType(ge::DT_COMPLEX128) == 16);
  CHECK(ge::GetSizeByDataType(ge::DT_DUAL) == 5);
  CHECK(ge::GetSizeByDataType(ge::DT_RESOURCE) == 8);
  CHECK(ge::GetSizeByDataType(ge::DT_BF16) == 2);
  CHECK(ge::GetSizeByDataType(ge::DT_UNDEFINED) == -1);
  CHECK(ge::GetSizeByDataType(ge::DT_INT4) == 1004);
  CHECK(ge::GetSizeByDataType(ge::DT_UINT1) == 1001);
  CHECK(ge::GetSizeByDataType(ge::DT_INT2) == 1002);
  CHECK(ge::GetSizeByDataType(ge::DT_COMPLEX32) == 4);
  CHECK(ge::GetSizeByDataType(ge::DT_FLOAT8_E4M3FN) == 1);
  CHECK(ge::GetSizeByDataType(ge::DT_FLOAT6_E2M3) == 1006);
  CHECK(ge::GetSizeByDataType(ge::DT_HIFLOAT4) == 1004);
  CHECK(ge::GetSizeByDataType(ge::DT_MAX) == -1);
  CHECK(ge::GetSizeByDataType(static_cast<ge::DataType>(-3)) == -1);
}

TEST_CASE("sdk_graph: GetSizeInBytes cases", "[dtype]") {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  CHECK(ge::GetSizeInBytes(10, ge::DT_FLOAT) == 40);
  CHECK(ge::GetSizeInBytes(0, ge::DT_FLOAT) == 0);
  CHECK(ge::GetSizeInBytes(3, ge::DT_STRING) == 48);
  CHECK(ge::GetSizeInBytes(1, ge::DT_STRING_REF) == 16);
  CHECK(ge::GetSizeInBytes(3, ge::DT_INT4) == 2);        // 12 bits -> 2 bytes
  CHECK(ge::GetSizeInBytes(9, ge::DT_UINT1) == 2);       // 9 bits -> 2 bytes
  CHECK(ge::GetSizeInBytes(8, ge::DT_UINT1) == 1);
  CHECK(ge::GetSizeInBytes(5, ge::DT_FLOAT6_E3M2) == 4); // 30 bits -> 4 bytes
  CHECK(ge::GetSizeInBytes(2, ge::DT_DUAL) == 10);
  CHECK(ge::GetSizeInBytes(-1, ge::DT_FLOAT) == -1);
  CHECK(ge::GetSizeInBytes(1, ge::DT_UNDEFINED) == -1);
  CHECK(ge::GetSizeInBytes(1, ge::DT_MAX) == -1);
  CHECK(ge::GetSizeInBytes(kMax, ge::DT_INT64) == -1);
  CHECK(ge::GetSizeInBytes(kMax / 16 + 1, ge::DT_STRING) == -1);
  CHECK(ge::GetSizeInBytes(kMax / 8, ge::DT_INT64) == (kMax / 8) * 8);
  CHECK(ge::GetSizeInBytes(kMax, ge::DT_UINT1) == 0x1000000000000000LL);  // ceil(kMax / 8)
  CHECK(ge::GetSizeInBytes(kMax / 2, ge::DT_INT4) == -1);  // bit count overflows
}

TEST_CASE("sdk_graph: MulOverflow / AddOverflow", "[dtype]") {
  int64_t r = 0;
  CHECK(ge::MulOverflow(std::numeric_limits<int64_t>::max(), int64_t{2}, r));
  CHECK_FALSE(ge::MulOverflow(int64_t{6}, 7, r));
  CHECK(r == 42);
  CHECK_FALSE(ge::AddOverflow(1, 2, r));
  CHECK(r == 3);
  uint32_t u = 0;
  CHECK(ge::AddOverflow(0xFFFFFFFFu, 1u, u));
  size_t s = 0;
  CHECK(ge::MulOverflow(int64_t{-1}, 1, s));  // negative does not fit size_t
}
