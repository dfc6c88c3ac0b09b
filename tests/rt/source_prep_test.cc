// The Ascend C source preparation (device/rtc/src/source_prep.h): kernel scan and <<<>>> rewrite.
#include <catch2/catch.hpp>

#include <string>

#include "openatc/common/error.h"
#include "source_prep.h"

using openatc::rtc::FindKernels;
using openatc::rtc::PrepareAscendC;
using openatc::rtc::RewriteLaunches;

TEST_CASE("kernel scan: definitions only, comments and strings skipped, templates marked", "[rtc][prep]") {
  const std::string src =
      "// __global__ void in_comment(int x) {}\n"
      "const char *s = \"__global__ void in_string() {}\";\n"
      "#define Q __global__\n"
      "extern \"C\" __global__ __aicore__ void declared(GM_ADDR x);\n"
      "extern \"C\" __global__ __aicore__ void a(GM_ADDR x) { }\n"
      "/* block\n __global__ void in_block() {} */\n"
      "template <typename T, uint32_t N>\n"
      "__global__ __vector__ void t(GM_ADDR x, T v)\n{ }\n"
      "__global__ __aicore__ __vector__ void cxx(GM_ADDR x, uint32_t n) { (void)x; }\n"
      "__global__ __mix__(1, 2) void mixed(GM_ADDR x) {}\n"
      "extern \"C\" __global__ __aicore__ void declared(GM_ADDR x) {}\n";
  auto k = FindKernels(src);
  REQUIRE(k.size() == 5);
  CHECK(k[0].name == "a");
  CHECK(k[0].line == 5);
  CHECK_FALSE(k[0].is_template);
  CHECK(k[1].name == "t");
  CHECK(k[1].is_template);
  CHECK(k[1].line == 9);
  CHECK(k[2].name == "cxx");
  CHECK(k[3].name == "mixed");
  CHECK(k[4].name == "declared");
  CHECK(k[4].line == 13);
}

TEST_CASE("kernel scan: a template header before kernel qualifiers still marks a template", "[rtc][prep]") {
  // The devkit's add example: `template <uint32_t blockLength> __vector__ __global__ void ...`.
  const std::string src =
      "template <uint32_t N>\n"
      "__vector__ __global__ void add_n(__gm__ float *x) { (void)x; }\n"
      "template <typename T> __aicore__ __vector__ __global__ void t2(GM_ADDR x) {}\n"
      "struct S {};\n"
      "__vector__ __global__ void plain(GM_ADDR x) {}\n";
  auto k = FindKernels(src);
  REQUIRE(k.size() == 3);
  CHECK(k[0].name == "add_n");
  CHECK(k[0].is_template);
  CHECK(k[1].name == "t2");
  CHECK(k[1].is_template);
  CHECK(k[2].name == "plain");
  CHECK_FALSE(k[2].is_template);
  // No host entries for templates: their instances come from the launches.
  const std::string out = PrepareAscendC(src, "k.asc", {});
  CHECK(out.find("openatc_ascendc_entry_add_n") == std::string::npos);
  CHECK(out.find("openatc_ascendc_entry_t2") == std::string::npos);
  CHECK(out.find("openatc_ascendc_entry_plain(") != std::string::npos);
}

TEST_CASE("<<<>>> rewrite keeps every line in place", "[rtc][prep]") {
  const std::string src =
      "void f(void *s) {\n"
      "  k<<<8, nullptr, s>>>(a, b);\n"
      "  ns::t<float, 2><<<n / 2,\n"
      "     0, s>>>(c);  // k<<<1, 0, s>>>() in a comment\n"
      "  const char *text = \"x<<<1>>>()\";\n"
      "}\n";
  const std::string want =
      "void f(void *s) {\n"
      "  ::openatc_ascendc::Launch<&k>(\"k\", 8, nullptr, s)(a, b);\n"
      "  ::openatc_ascendc::Launch<&ns::t<float,2>>(\"ns::t<float,2>\", n / 2,\n"
      "     0, s)(c);  // k<<<1, 0, s>>>() in a comment\n"
      "  const char *text = \"x<<<1>>>()\";\n"
      "}\n";
  REQUIRE(RewriteLaunches(src, "f.asc") == want);
}

TEST_CASE("malformed launches are compile errors naming file and line", "[rtc][prep]") {
  try {
    RewriteLaunches("void f() {\n  k<<<1, nullptr, s>>;\n}\n", "bad.asc");
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.code() == "ACL176003");
    CHECK(e.message() == "bad.asc:2: '<<<' without a matching '>>>'");
  }
  try {
    RewriteLaunches("void f() {\n\n  k<<<1, nullptr, s>>>;\n}\n", "bad.asc");
    FAIL("no error");
  } catch (const openatc::Error &e) {
    CHECK(e.message() == "bad.asc:3: the launch of 'k' has no argument list after '>>>'");
  }
}

TEST_CASE("preparation: #line prologue, launch header only when needed, entries appended", "[rtc][prep]") {
  const std::string plain = PrepareAscendC("int x;", "p", {});
  REQUIRE(plain == "#line 1 \"p\"\nint x;\n");
  const std::string k = PrepareAscendC("extern \"C\" __global__ void k(GM_ADDR x) {}\nvoid g() { k<<<1, 0, nullptr>>>(0); }\n",
                                       "k.asc", {{"t<int>", "t__openatc_expr_0"}});
  REQUIRE(k.rfind("#include \"openatc/ascendc_launch.h\"\n#line 1 \"k.asc\"\n", 0) == 0);
  CHECK(k.find("void openatc_ascendc_entry_k(const void *args, size_t size) { (void)::openatc_host_kernel_detail::Invoke(&k, "
               "args, size); }") != std::string::npos);
  CHECK(k.find("size_t openatc_ascendc_args_size_t__openatc_expr_0(void) { return "
               "::openatc_host_kernel_detail::ArgsSizeOf(&t<int>); }") != std::string::npos);
}
