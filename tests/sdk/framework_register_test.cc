// REGISTER_CUSTOM_OP's registry (register/register.h, sdk/register/src/framework_register.cc):
// lookups by framework and origin key, every OriginOpType form, first registration wins, and
// AutoMappingByOpFn copying attributes by name.
#include <catch2/catch.hpp>

#include "openatc/register/framework_registry.h"
#include "register/register.h"

namespace {
domi::Status SetTen(const ge::Operator &, ge::Operator &dst) {
  dst.SetAttr("n", static_cast<int64_t>(10));
  return domi::SUCCESS;
}
domi::Status SetTwenty(const ge::Operator &, ge::Operator &dst) {
  dst.SetAttr("n", static_cast<int64_t>(20));
  return domi::SUCCESS;
}
}  // namespace

namespace domi {
REGISTER_CUSTOM_OP("FirstOp").FrameworkType(ONNX).OriginOpType("t.dom::1::Dup").ParseParamsByOperatorFn(SetTen);
REGISTER_CUSTOM_OP("SecondOp").FrameworkType(ONNX).OriginOpType("t.dom::1::Dup").ParseParamsByOperatorFn(SetTwenty);
REGISTER_CUSTOM_OP("ListOp")
    .FrameworkType(ONNX)
    .OriginOpType(std::vector<ge::AscendString>{"t.dom::1::A", "t.dom::2::A"})
    .OriginOpType({"t.dom::3::A"})
    .ParseParamsByOperatorFn(AutoMappingByOpFn);
REGISTER_CUSTOM_OP("TfOnly").FrameworkType(TENSORFLOW).OriginOpType("t.dom::1::Tf");
}  // namespace domi

TEST_CASE("first ONNX registration of an origin key wins", "[unit]") {
  openatc::reg::FrameworkMapping m;
  REQUIRE(openatc::reg::FindFrameworkMapping(domi::ONNX, "t.dom::1::Dup", &m));
  CHECK(m.om_type == "FirstOp");
  ge::Operator src("n", "Dup"), dst("n", "FirstOp");
  REQUIRE(m.parse(src, dst) == domi::SUCCESS);
  int64_t n = 0;
  CHECK(dst.GetAttr("n", n) == ge::GRAPH_SUCCESS);
  CHECK(n == 10);
}

TEST_CASE("every OriginOpType form registers its keys; other frameworks are not ONNX's", "[unit]") {
  openatc::reg::FrameworkMapping m;
  for (const char *key : {"t.dom::1::A", "t.dom::2::A", "t.dom::3::A"}) {
    REQUIRE(openatc::reg::FindFrameworkMapping(domi::ONNX, key, &m));
    CHECK(m.om_type == "ListOp");
    CHECK(m.origin_type == key);
  }
  CHECK_FALSE(openatc::reg::FindFrameworkMapping(domi::ONNX, "t.dom::4::A", &m));
  CHECK_FALSE(openatc::reg::FindFrameworkMapping(domi::ONNX, "t.dom::1::Tf", &m));
  REQUIRE(openatc::reg::FindFrameworkMapping(domi::TENSORFLOW, "t.dom::1::Tf", &m));
  CHECK_FALSE(m.parse);
}

TEST_CASE("AutoMappingByOpFn copies every attribute by name", "[unit]") {
  ge::Operator src("n", "A"), dst("n", "ListOp");
  src.SetAttr("alpha", 0.25f);
  src.SetAttr("axes", std::vector<int64_t>{1, -1});
  src.SetAttr("mode", "edge");
  REQUIRE(domi::AutoMappingByOpFn(src, dst) == domi::SUCCESS);
  const auto attrs = openatc::reg::OperatorAttrs(dst);
  REQUIRE(attrs.size() == 3);
  CHECK(attrs[0].first == "alpha");
  CHECK(std::get<float>(attrs[0].second) == 0.25f);
  CHECK(attrs[1].first == "axes");
  CHECK(std::get<std::vector<int64_t>>(attrs[1].second) == std::vector<int64_t>{1, -1});
  CHECK(attrs[2].first == "mode");
  CHECK(std::get<std::string>(attrs[2].second) == "edge");
  ge::Operator empty;
  CHECK(domi::AutoMappingByOpFn(empty, dst) == domi::FAILED);
}
