// atc --mode=3: the pre-check report (check_result.json) lists every node's resolution,
// capabilities and problems with fixes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "e2e_util.h"

using namespace openatc::testing;

TEST_CASE("pre-check of a good graph succeeds and describes each node", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", AxpyGraphJson("DT_FLOAT", {2}, 1.0f));
  auto r = RunAtc({"--mode=3", "--model", dir + "/g.json", "--soc_version", "host", "--check_report",
                   dir + "/report.json"},
                  AxpyOpp());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto report = nlohmann::json::parse(ReadText(dir + "/report.json"));
  CHECK(report["result"] == "success");
  bool found = false;
  for (const auto &n : report["nodes"]) {
    if (n["name"] != "axpy") continue;
    found = true;
    CHECK(n["resolution"] == "registered");
    CHECK(n["capabilities"] == "PortableOp+CompilableOp+EagerExecuteOp+ShapeInferOp");
    CHECK(n["prototype"] == "REG_OP prototype found");
    CHECK(n["problems"].empty());
  }
  CHECK(found);
  RemoveTree(dir);
}

TEST_CASE("pre-check reports a mistyped op type with the closest registered name", "[e2e]") {
  const std::string dir = MakeTempDir();
  std::string json = AxpyGraphJson("DT_FLOAT", {2}, 1.0f);
  json.replace(json.find("\"AxpyCustom\""), 12, "\"AxpyCustm\"");
  WriteBytes(dir + "/g.json", json);
  auto r = RunAtc({"--mode=3", "--model", dir + "/g.json", "--soc_version", "host", "--check_report",
                   dir + "/report.json"},
                  AxpyOpp());
  CHECK(r.exit_code == 255);
  CHECK(r.err.find("OA1603") != std::string::npos);
  auto report = nlohmann::json::parse(ReadText(dir + "/report.json"));
  CHECK(report["result"] == "failed");
  for (const auto &n : report["nodes"]) {
    if (n["name"] != "axpy") continue;
    REQUIRE(n["problems"].size() == 1);
    CHECK(n["problems"][0]["code"] == "OA1104");
    CHECK(n["problems"][0]["fix"].get<std::string>().find("closest registered: AxpyCustom") != std::string::npos);
  }
  RemoveTree(dir);
}
