// ge::AscendString semantics of docs/custom-op-lifecycle.md §8, and ge::TypeUtils names (§7).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <unordered_map>

#include "graph/ascend_string.h"
#include "graph/utils/type_utils.h"

using ge::AscendString;

TEST_CASE("sdk_graph: null AscendString reads as empty but differs from \"\"", "[ascend_string]") {
  const AscendString null_str;
  const AscendString from_nullptr(nullptr);
  const AscendString empty("");
  REQUIRE(null_str.GetString() != nullptr);
  CHECK(std::string(null_str.GetString()) == "");
  CHECK(null_str.GetLength() == 0U);
  CHECK(null_str == from_nullptr);
  CHECK(null_str != empty);
  CHECK_FALSE(null_str == empty);
  CHECK(null_str < empty);
  CHECK_FALSE(empty < null_str);
  CHECK(null_str <= empty);
  CHECK(empty > null_str);
  CHECK(empty >= null_str);
  CHECK(null_str == static_cast<const char *>(nullptr));
  CHECK_FALSE(null_str == "");
  CHECK(empty == "");
  CHECK(empty != static_cast<const char *>(nullptr));
  CHECK(AscendString(nullptr, 4).GetLength() == 0U);
  CHECK(AscendString(nullptr, 4) == null_str);
}

TEST_CASE("sdk_graph: AscendString ordering, Find, length form, hash", "[ascend_string]") {
  CHECK(AscendString("abc") < AscendString("abd"));
  CHECK(AscendString("abd") > AscendString("abc"));
  CHECK(AscendString("abc") <= AscendString("abc"));
  CHECK(AscendString("abc") >= AscendString("abc"));
  CHECK(AscendString("abc") == AscendString("abc"));
  CHECK(AscendString("abc") != "abd");
  CHECK(AscendString("hello").Find("ll") == 2U);
  CHECK(AscendString("hello").Find("zz") == std::string::npos);
  CHECK(AscendString().Find("a") == std::string::npos);
  CHECK(AscendString("a").Find(AscendString()) == std::string::npos);
  const AscendString with_nul("ab\0cd", 5);
  CHECK(with_nul.GetLength() == 5U);
  CHECK(AscendString("abcdef", 3) == "abc");
  CHECK(AscendString().Hash() == std::hash<std::string>()(""));
  CHECK(AscendString("").Hash() == std::hash<std::string>()(""));
  CHECK(AscendString("key").Hash() == std::hash<std::string>()("key"));
  std::unordered_map<AscendString, int> m;
  m["a"] = 1;
  m["b"] = 2;
  CHECK(m.at("b") == 2);
  // The samples' option maps rely on the implicit const char * constructor.
  std::map<AscendString, AscendString> options = {{"ge.exec.deviceId", "0"}};
  CHECK(std::string(options.at("ge.exec.deviceId").GetString()) == "0");
  // Copies share nothing observable: assignment replaces.
  AscendString s = "x";
  AscendString t = s;
  s = "y";
  CHECK(t == "x");
}

TEST_CASE("sdk_graph: TypeUtils serial names", "[type_utils]") {
  using ge::TypeUtils;
  CHECK(TypeUtils::DataTypeToSerialString(ge::DT_FLOAT) == "DT_FLOAT");
  CHECK(TypeUtils::DataTypeToSerialString(ge::DT_BF16) == "DT_BFLOAT16");
  CHECK(TypeUtils::DataTypeToSerialString(ge::DT_MAX) == "UNDEFINED");
  CHECK(TypeUtils::SerialStringToDataType("DT_INT64") == ge::DT_INT64);
  CHECK(TypeUtils::SerialStringToDataType("nope") == ge::DT_UNDEFINED);
  CHECK(TypeUtils::FormatToSerialString(ge::FORMAT_ND) == "ND");
  CHECK(TypeUtils::FormatToSerialString(ge::FORMAT_FRACTAL_ZZ) == "RESERVED");
  CHECK(TypeUtils::SerialStringToFormat("NCHW") == ge::FORMAT_NCHW);
  CHECK(TypeUtils::SerialStringToFormat("UNDEFINED") == ge::FORMAT_RESERVED);
  CHECK(TypeUtils::SerialStringToFormat("bogus") == ge::FORMAT_RESERVED);
}
