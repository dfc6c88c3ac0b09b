// Every example graph: two compiles give byte-identical OMs, and atc --mode=1, --mode=6 and
// omrun --info work on each OM.
#include <catch2/catch.hpp>

#include "e2e_util.h"

using namespace openatc::testing;

TEST_CASE("every example compiles reproducibly and can be inspected", "[e2e]") {
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"compilable_add_custom/single_add.json", "compilable_add_custom"},
      {"data_dependent_shape_custom/where_like.json", "data_dependent_shape_custom"},
      {"args_refresh_add_custom/add_refresh.json", "args_refresh_add_custom"},
      {"args_refresh_add_custom/add_no_refresh.json", "args_refresh_add_custom"},
      {"annotated_args_refresh_add_custom/annotated_add.json", "annotated_args_refresh_add_custom"},
      {"triton_add_custom/add_custom.json", "triton_add_custom"},
      {"ascendc_add_custom/add_custom.json", "ascendc_add_custom"},
      {"ascendc_add_custom/add_custom_broadcast.json", "ascendc_add_custom"},
  };
  for (const auto &[graph, example] : examples) {
    INFO(graph);
    const std::string dir = MakeTempDir();
    const std::string opp = BuildPath("examples/" + example + "/opp");
    for (const char *name : {"a", "b"}) {
      auto r = RunAtc({"--model", SourcePath("examples/" + graph), "--soc_version", "host", "--output", dir + "/" + name},
                      opp);
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
    }
    CHECK(ReadText(dir + "/a.om") == ReadText(dir + "/b.om"));
    auto json = RunAtc({"--mode=1", "--om", dir + "/a.om", "--json", dir + "/a.json"}, "");
    CHECK(json.exit_code == 0);
    CHECK(ReadText(dir + "/a.json").find("\"graph\"") != std::string::npos);
    auto show = RunAtc({"--mode=6", "--om", dir + "/a.om"}, "");
    CHECK(show.exit_code == 0);
    CHECK(show.out.find("host") != std::string::npos);
    auto info = RunOmrun({dir + "/a.om", "--info"});
    CHECK(info.exit_code == 0);
    CHECK(info.out.find("arena: ") != std::string::npos);
    RemoveTree(dir);
  }
}
