// The online variant of annotated_args_refresh_add_custom (ge::Session, libge_runner) run as its
// README says, with few iterations: the sample's [Perf] lines and both precision checks are
// printed (timings are not asserted).
#include <catch2/catch.hpp>

#include <regex>

#include "e2e_util.h"

using namespace openatc::testing;

TEST_CASE("annotated_args_refresh_add_custom online: the session program prints the sample's lines", "[e2e]") {
  const std::string opp = BuildPath("examples/annotated_args_refresh_add_custom/online/opp");
  auto r = RunCommand({BuildPath("bin/annotated_args_refresh_add_custom_online"), "3"},
                      {{"ASCEND_CUSTOM_OPP_PATH", opp}});
  INFO(r.out + r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("[INFO] [Perf] input shape: [4096, 4096], float32, 64MB\n") != std::string::npos);
  CHECK(r.out.find("[INFO] [Perf] iters: 3\n") != std::string::npos);
  CHECK(r.out.find("[INFO] AnnotatedAddCustom: Precision check passed, max_error=0\n") != std::string::npos);
  CHECK(r.out.find("[INFO] NoRefreshAddCustom: Precision check passed, max_error=0\n") != std::string::npos);
  CHECK(std::regex_search(r.out, std::regex(R"(\[Perf\] AnnotatedAddCustom: [0-9.]+ us \(avg [0-9.]+ us/iter\))")));
  CHECK(std::regex_search(r.out, std::regex(R"(\[Perf\] NoRefreshAddCustom: [0-9.]+ us \(avg [0-9.]+ us/iter\))")));
  CHECK(std::regex_search(r.out, std::regex(R"(\[Perf\] Annotated speedup: [0-9.]+ x)")));
}

TEST_CASE("annotated_args_refresh_add_custom online: without the OPP root the program names the missing op",
          "[e2e]") {
  auto r = RunCommand({BuildPath("bin/annotated_args_refresh_add_custom_online"), "1"}, {},
                      {"ASCEND_CUSTOM_OPP_PATH"});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("[ERROR] setting up graph 0 failed: OA1104: 'graph 0 (annotated_graph)': node 'annotated_add' "
                   "(AnnotatedAddCustom): op type 'AnnotatedAddCustom' (node 'annotated_add') is not registered by "
                   "any deliverable. OPP roots searched: none from ASCEND_CUSTOM_OPP_PATH (unset or empty)") !=
        std::string::npos);
}
