// The "dump" section parser (openatc/dump/dump_config.h): defaults, dump_step groups, and the
// warning line per key OpenATC reads but does not act on.
#include <catch2/catch.hpp>

#include <string>

#include "openatc/common/error.h"
#include "openatc/dump/dump_config.h"
#include "run_command.h"

using openatc::dump::DumpConfig;
using openatc::dump::DumpMode;
using openatc::dump::ParseDumpConfig;
using openatc::dump::ParseDumpStep;

namespace {

bool HasWarning(const DumpConfig &c, const std::string &text) {
  for (const auto &w : c.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("dump config: defaults and the fields read", "[dump]") {
  const std::string dir = openatc::testing::MakeTempDir();
  const auto c = ParseDumpConfig(nlohmann::json::parse("{\"dump_path\": \"" + dir +
                                                       "\", \"dump_list\": [{\"model_name\": \"m\", \"layer\": "
                                                       "[\"a\", \"b\"]}, {\"model_name\": \"n\"}]}"),
                                 "acl.json");
  CHECK(c.path == dir);
  CHECK(c.mode == DumpMode::kOutput);
  CHECK_FALSE(c.stats);
  CHECK(c.steps.empty());
  CHECK(c.warnings.empty());
  REQUIRE(c.models.size() == 2);
  CHECK(c.Find("m")->layers == std::vector<std::string>{"a", "b"});
  CHECK(c.Find("n")->layers.empty());
  CHECK(c.Find("o") == nullptr);
  CHECK(c.StepSelected(0));
  CHECK(c.StepSelected(123456));
  openatc::testing::RemoveTree(dir);
}

TEST_CASE("dump config: dump_step", "[dump]") {
  using Steps = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(ParseDumpStep("0|5-10", "f") == Steps{{0, 0}, {5, 10}});
  CHECK(ParseDumpStep("7", "f") == Steps{{7, 7}});
  CHECK(ParseDumpStep("3-3|1", "f") == Steps{{3, 3}, {1, 1}});
  for (const char *bad : {"", "|", "1|", "a", "1-2-3", "-1", "1 ", "10-2", "1.5"}) {
    INFO(bad);
    CHECK_THROWS_AS(ParseDumpStep(bad, "f"), openatc::Error);
  }
  std::string many = "0";
  for (int i = 1; i <= 100; ++i) many += "|" + std::to_string(i);  // 101 groups
  CHECK_THROWS_WITH(ParseDumpStep(many, "f"), Catch::Contains("more than 100 groups"));
  DumpConfig c;
  c.steps = ParseDumpStep("0|5-10", "f");
  CHECK(c.StepSelected(0));
  CHECK_FALSE(c.StepSelected(1));
  CHECK_FALSE(c.StepSelected(4));
  CHECK(c.StepSelected(5));
  CHECK(c.StepSelected(10));
  CHECK_FALSE(c.StepSelected(11));
}

TEST_CASE("dump config: keys with no host meaning warn once, naming the key", "[dump]") {
  const std::string dir = openatc::testing::MakeTempDir();
  const auto c = ParseDumpConfig(
      nlohmann::json::parse("{\"dump_path\": \"" + dir + "\", \"dump_level\": \"kernel\", \"dump_op_switch\": \"on\", "
                            "\"dump_extra\": 1, \"dump_data\": \"stats\", \"dump_stats\": [\"Max\"], "
                            "\"dump_list\": [{\"model_name\": \"m\", \"opname_blacklist\": []}, {\"layer\": [\"x\"]}, "
                            "{\"model_name\": \"e\", \"layer\": []}]}"),
      "acl.json");
  CHECK(c.warnings.size() == 7);
  CHECK(HasWarning(c, "\"dump_level\" kernel is not acted on"));
  CHECK(HasWarning(c, "\"dump_op_switch\" on is not acted on"));
  CHECK(HasWarning(c, "\"dump_extra\" is not a dump key GE knows"));
  CHECK(HasWarning(c, "\"dump_stats\" is not acted on"));
  CHECK(HasWarning(c, "dump_list[0].opname_blacklist is not acted on"));
  CHECK(HasWarning(c, "dump_list[1] has no model_name: the entry is skipped"));
  CHECK(HasWarning(c, "dump_list[2].layer is empty: the entry is skipped"));
  CHECK(c.stats);
  REQUIRE(c.models.size() == 1);
  CHECK(c.models[0].model_name == "m");
  openatc::testing::RemoveTree(dir);
}
