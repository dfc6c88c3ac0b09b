// Loads the -D_GLIBCXX_USE_CXX11_ABI=0 library (abi0_lib.cc) into a normal-ABI process: its
// REG_OP registers through libregister.so's static initialisers, and its inline std::string code
// works against the ABI-neutral exports.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <string>

#include "openatc/register/op_prototype.h"
#include "openatc/register/platform.h"
#include "platform/platform_infos_def.h"

namespace {
using RunFn = int (*)(char *, size_t);
using ReadFn = int (*)(fe::PlatFormInfos *, fe::OptionalInfos *, char *, size_t);

void *Lib() {
  static void *handle = dlopen(SDK_GRAPH_ABI0_LIB, RTLD_NOW | RTLD_LOCAL);
  return handle;
}
}  // namespace

TEST_CASE("sdk_graph: an old-ABI deliverable loads and registers its REG_OP", "[abi0]") {
  CHECK(openatc::reg::FindOpPrototype("Abi0Op") == nullptr);  // not linked into this test
  void *h = Lib();
  INFO("dlopen: " << (h == nullptr ? dlerror() : "ok"));
  REQUIRE(h != nullptr);
  const auto *p = openatc::reg::FindOpPrototype("Abi0Op");
  REQUIRE(p != nullptr);
  REQUIRE(p->attrs.size() == 2U);
  CHECK(p->attrs[0].name == "mode");
  CHECK(p->attrs[0].default_text == "\"hello\"");
  CHECK(std::get<std::string>(p->attrs[0].default_value) == "hello");
  CHECK(p->attrs[1].default_text == "[\"t1\", \"t2\"]");
  CHECK(p->inputs.size() == 1U);
}

TEST_CASE("sdk_graph: old-ABI code uses AscendString, REG_OP attrs and PlatFormInfos", "[abi0]") {
  void *h = Lib();
  REQUIRE(h != nullptr);
  auto run = reinterpret_cast<RunFn>(dlsym(h, "sdk_graph_abi0_run"));
  REQUIRE(run != nullptr);
  char buf[512] = {};
  REQUIRE(run(buf, sizeof(buf)) > 0);
  CHECK(std::string(buf) ==
        "ascend=abc;null_vs_empty=ne;mode=hello;mode2=world;tags=2:t2;in_name=x;arch=abi0arch;soc=socX;");
}

TEST_CASE("sdk_graph: old-ABI code reads platform infos filled by the compiler", "[abi0]") {
  void *h = Lib();
  REQUIRE(h != nullptr);
  auto read = reinterpret_cast<ReadFn>(dlsym(h, "sdk_graph_abi0_read_platform"));
  REQUIRE(read != nullptr);
  openatc::reg::PlatformDescription desc;
  desc.npu_arch = "host";
  desc.soc_version = "host";
  desc.core_num = 6;
  fe::PlatFormInfos pi;
  fe::OptionalInfos oi;
  openatc::reg::FillPlatformInfos(desc, pi, oi);
  char buf[256] = {};
  REQUIRE(read(&pi, &oi, buf, sizeof(buf)) > 0);
  CHECK(std::string(buf) == "arch=host;cores=6;soc=host;aicore=6;");
}
