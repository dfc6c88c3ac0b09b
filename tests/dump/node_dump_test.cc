// NodeDump (openatc/dump/node_dump.h) driven by hand on a two-node graph: the layer filter matches
// a node by its own name or by an original name fused into it (openatc_fused_nodes), and
// dump_data stats counts NaN and infinities; the expected values are worked out here.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "openatc/dump/node_dump.h"
#include "run_command.h"

using openatc::dump::NodeDump;
using openatc::dump::NodeDumpOptions;

namespace {

openatc::om::Model TwoNodes() {
  openatc::om::Model m;
  openatc::ir::Node conv;
  conv.name = "bn";  // a Conv that took over the BatchNormalization's name, with conv fused in
  conv.type = "Conv";
  openatc::ir::AttrValue fused;
  fused.kind = openatc::ir::AttrKind::kListString;
  fused.list_s = {"conv", "bn"};
  conv.attrs["openatc_fused_nodes"] = fused;
  openatc::ir::Node relu;
  relu.name = "relu";
  relu.type = "Relu";
  m.graph.nodes = {conv, relu};
  return m;
}

openatc::runtime::TensorView View(const std::vector<float> &v) {
  openatc::runtime::TensorView t;
  t.dtype = ge::DT_FLOAT;
  t.shape = {static_cast<int64_t>(v.size())};
  t.data = v.data();
  t.bytes = v.size() * sizeof(float);
  return t;
}

nlohmann::json Index(const std::string &dir) {
  std::ifstream in(dir + "/index.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("NodeDump: layer selects by a node's name or a name fused into it", "[dump]") {
  const std::string root = openatc::testing::MakeTempDir();
  const auto model = TwoNodes();
  const std::vector<float> a = {1, 2}, b = {3, 4};
  for (const char *layer : {"conv", "bn", "relu"}) {
    INFO(layer);
    NodeDumpOptions o;
    o.layers = {layer};
    const std::string dir = root + "/" + layer;
    NodeDump d(model, "m.om", dir, o);
    d.Finished(0, {}, {View(a)});
    d.Finished(1, {View(a)}, {View(b)});
    d.Commit();
    const auto index = Index(dir);
    REQUIRE(index["nodes"].size() == 1);
    CHECK(index["nodes"][0]["name"] == (std::string(layer) == "relu" ? "relu" : "bn"));
  }
  openatc::testing::RemoveTree(root);
}

TEST_CASE("NodeDump: stats count NaN and infinities and leave them out of max/min/mean", "[dump]") {
  const std::string root = openatc::testing::MakeTempDir();
  const auto model = TwoNodes();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> v = {1.0f, -2.0f, std::nanf(""), inf, -inf, -inf, 7.0f};
  const std::vector<float> all_nan = {std::nanf(""), std::nanf("")};
  NodeDumpOptions o;
  o.stats = true;
  o.inputs = true;
  NodeDump d(model, "m.om", root + "/s", o);
  d.Finished(1, {View(all_nan)}, {View(v)});
  d.Commit();
  const auto index = Index(root + "/s");
  CHECK(index["data"] == "stats");
  const auto &st = index["nodes"][0]["outputs"][0]["stats"];
  CHECK(st["count"] == 7);
  CHECK(st["max"] == 7.0);
  CHECK(st["min"] == -2.0);
  CHECK(st["mean"] == 2.0);  // (1 - 2 + 7) / 3
  CHECK(st["nan_count"] == 1);
  CHECK(st["pos_inf_count"] == 1);
  CHECK(st["neg_inf_count"] == 2);
  const auto &in = index["nodes"][0]["inputs"][0]["stats"];
  CHECK(in["nan_count"] == 2);
  CHECK(in["max"].is_null());
  CHECK(in["mean"].is_null());
  size_t files = 0;  // stats only: no tensor files beside index.json
  for (const auto &e : std::filesystem::directory_iterator(root + "/s")) files += e.path().filename() == "index.json" ? 0 : 1;
  CHECK(files == 0);
  openatc::testing::RemoveTree(root);
}
