// OPP root resolution (GE's order), the first-registration-wins registry, each deliverable's own
// pull list, and the diagnostics for a wrong ASCEND_CUSTOM_OPP_PATH.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "openatc/common/error.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/opp/capabilities.h"
#include "openatc/opp/deliverable.h"
#include "openatc/opp/opp_paths.h"
#include "run_command.h"

using namespace openatc;

namespace {
std::string Root(const std::string &name) { return testing::BuildPath("tests/opp/" + name); }
std::string LibDir(const std::string &name) {
  return Root(name) + "/op_graph/lib/linux/" + opp::HostArch();
}
}  // namespace

TEST_CASE("ASCEND_CUSTOM_OPP_PATH is split on ':' with empty entries skipped", "[opp]") {
  ::setenv("ASCEND_CUSTOM_OPP_PATH", ":/a::/b/c:", 1);
  CHECK(opp::CustomOppRootsFromEnv() == std::vector<std::string>{"/a", "/b/c"});
  ::unsetenv("ASCEND_CUSTOM_OPP_PATH");
  CHECK(opp::CustomOppRootsFromEnv().empty());
}

TEST_CASE("a root lists libcust_opapi.so first, then op_graph/lib/<os>/<arch>/*.so by name", "[opp]") {
  std::vector<std::string> searched;
  CHECK(opp::DeliverablesInRoot(Root("regroot1"), &searched) ==
        std::vector<std::string>{LibDir("regroot1") + "/libreg_a.so", LibDir("regroot1") + "/libreg_b.so"});
  CHECK(searched == std::vector<std::string>{Root("regroot1") + "/libcust_opapi.so", LibDir("regroot1") + "/*.so"});
  CHECK(opp::DeliverablesInRoot(Root("regroot2"), nullptr) ==
        std::vector<std::string>{Root("regroot2") + "/libcust_opapi.so"});
  CHECK(opp::DeliverablesInRoot("/nonexistent/root", nullptr).empty());
}

TEST_CASE("the first registration of an op type wins; each .so keeps its own list", "[opp]") {
  opp::CompileOppSet set;
  set.Load({Root("regroot2"), Root("regroot1")}, "");
  REQUIRE(set.deliverables().size() == 3);
  CHECK(set.deliverables()[0].file_name == "libcust_opapi.so");
  CHECK(set.deliverables()[0].op_types == std::vector<std::string>{"DupOp", "OnlyVariant3"});
  CHECK(set.deliverables()[1].op_types == std::vector<std::string>{"DupOp", "OnlyVariant1"});
  CHECK(set.deliverables()[2].op_types == std::vector<std::string>{"DupOp", "OnlyVariant2"});
  CHECK(set.deliverables()[1].sdk_version == opp::SdkVersion());
  CHECK(set.Provider("DupOp") == 0);
  CHECK(set.Provider("OnlyVariant2") == 2);
  CHECK(set.Provider("Nope") == -1);
  auto &global = gert_impl::CustomOpRegistry::Global();
  auto dup = global.GetOrCreate("DupOp");
  REQUIRE(dup != nullptr);
  // Variant 3 (regroot2's root-level .so) registered first: EagerExecuteOp + ShapeInferOp + ArgsUpdater.
  CHECK(opp::DetectCapabilities(dup.get()) == (opp::kEagerExecute | opp::kShapeInfer | opp::kArgsUpdater));
  CHECK(global.GetOrCreate("DupOp") == dup);  // one object per op type
  CHECK(global.Origin("OnlyVariant1") == LibDir("regroot1") + "/libreg_a.so");
}

TEST_CASE("an embedded deliverable registers only into its model's registry", "[opp]") {
  auto bytes = opp::ReadFileBytes(LibDir("regroot1") + "/libreg_b.so");
  gert_impl::CustomOpRegistry per_model;
  auto d = opp::LoadEmbedded(ir::Bytes::FromVector(bytes), "model.om:libreg_b.so", per_model);
  CHECK(d.op_types == std::vector<std::string>{"DupOp", "OnlyVariant2"});
  auto op = per_model.GetOrCreate("DupOp");
  REQUIRE(op != nullptr);
  CHECK(opp::DetectCapabilities(op.get()) == (opp::kEagerExecute | opp::kShapeInfer));
  // A second model loading the same bytes gets its own objects from the same loaded library.
  gert_impl::CustomOpRegistry other;
  auto d2 = opp::LoadEmbedded(ir::Bytes::FromVector(bytes), "other.om:libreg_b.so", other);
  CHECK(other.GetOrCreate("DupOp") != op);
  CHECK(d2.handle == d.handle);
  CHECK(d2.path == "other.om:libreg_b.so");
  CHECK(d2.op_types == d.op_types);
  // Other bytes (another deliverable) are another library.
  gert_impl::CustomOpRegistry third;
  auto d3 = opp::LoadEmbedded(ir::Bytes::FromVector(opp::ReadFileBytes(LibDir("regroot1") + "/libreg_a.so")),
                              "third.om:libreg_a.so", third);
  CHECK(d3.handle != d.handle);
  CHECK(third.GetOrCreate("OnlyVariant1") != nullptr);
  CHECK(third.GetOrCreate("OnlyVariant2") == nullptr);
}

TEST_CASE("bytes that are not a deliverable are refused with the name", "[opp]") {
  gert_impl::CustomOpRegistry reg;
  std::vector<uint8_t> junk(100, 7);
  try {
    opp::LoadEmbedded(ir::Bytes::FromVector(junk), "m.om:libjunk.so", reg);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(e.category() == ErrorCategory::kCorruptOm);
    CHECK(std::string(e.what()).rfind("OA1203: 'm.om:libjunk.so': the embedded deliverable does not load", 0) == 0);
  }
}

TEST_CASE("a wrong OPP directory level is diagnosed", "[opp]") {
  CHECK(opp::DiagnoseRoot(Root("regroot1")).empty());
  CHECK(opp::DiagnoseRoot(LibDir("regroot1")) ==
        "'" + LibDir("regroot1") + "' is inside an OPP root; set ASCEND_CUSTOM_OPP_PATH to '" + Root("regroot1") +
            "' instead");
  CHECK(opp::DiagnoseRoot(testing::BuildPath("tests/opp")).find("is the parent of an OPP root") != std::string::npos);
  CHECK(opp::DiagnoseRoot("/nonexistent/x") == "'/nonexistent/x' does not exist or is not a directory");
}

TEST_CASE("SDK versions: same major, and for 0.x the same minor", "[opp]") {
  CHECK(opp::SdkVersionCompatible(opp::SdkVersion()));
  CHECK_FALSE(opp::SdkVersionCompatible("9.0.0"));
  CHECK_FALSE(opp::SdkVersionCompatible("garbage"));
}

TEST_CASE("ElfMismatch says in words why an ELF header does not fit this process", "[opp]") {
  // This process's own executable fits.
  std::string self = testing::ReadText("/proc/self/exe").substr(0, 64);
  CHECK(opp::ElfMismatch(reinterpret_cast<const uint8_t *>(self.data()), self.size()) == "");
  auto check = [](std::string h) { return opp::ElfMismatch(reinterpret_cast<const uint8_t *>(h.data()), h.size()); };
  std::string h = self;
  h[5] = 2;  // big-endian: e_machine now reads byte-swapped, so the machine differs first
  CHECK(check(h).rfind("it is built for machine ", 0) == 0);
  h = self;
  h[16] = 1;  // ET_REL
  h[17] = 0;
  CHECK(check(h) == "it is an ELF file but a relocatable object (.o), not a shared library (e_type 1)");
  CHECK(check(self.substr(0, 10)) == "it is a truncated ELF file (10 bytes)");
  h = self;
  h[4] = 7;
  CHECK(check(h) == "it is an unknown ELF class (7), but this process is ELF class 64 (64-bit)");
  CHECK(check(std::string("\x7f" "ELF", 4)) == "it is a truncated ELF file (4 bytes)");
  CHECK(check(std::string("ab")) == "it is not an ELF file: it looks like text (it starts with \"ab\")");
  CHECK(opp::HostElfText().find(", 64-bit") != std::string::npos);
}
