// GE's dump config on the host (docs/acl.md "Dump"): single_add.om (add1 = x + x, add2 = add1 + x
// on fp32 [4,4]) run through aclmdl* with a "dump" section in aclInit's file or set by
// aclmdlSetDump; every expected tensor is that formula evaluated here on the inputs.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"

using namespace openatc::testing;
namespace fs = std::filesystem;

namespace {

std::vector<float> Iota16(float start) {
  std::vector<float> v(16);
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  return v;
}

std::vector<float> Times(const std::vector<float> &v, float k) {
  std::vector<float> out;
  for (float x : v) out.push_back(k * x);
  return out;
}

std::vector<float> NpyFloats(const std::string &path) {
  const auto t = openatc::tensor_io::ReadNpy(path);
  REQUIRE(t.dtype == ge::DT_FLOAT);
  REQUIRE(t.shape == std::vector<int64_t>{4, 4});
  std::vector<float> v(t.data.size() / sizeof(float));
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

nlohmann::json ReadJson(const std::string &path) {
  std::ifstream in(path);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// A temp folder holding the dump folder "out" and config files; removed at the end.
struct Scratch {
  std::string root = MakeTempDir();
  std::string dump = root + "/out";
  Scratch() { fs::create_directories(dump); }
  ~Scratch() { RemoveTree(root); }
  std::string Config(const std::string &name, const std::string &text) const {
    const std::string p = root + "/" + name;
    WriteBytes(p, text);
    return p;
  }
  // {"dump": {"dump_path": <dump>, <extra>}}
  std::string DumpConfig(const std::string &extra) const {
    return Config("acl.json", "{\"dump\": {\"dump_path\": \"" + dump + "\", " + extra + "}}");
  }
};

// aclInit(config) for one test case; aclFinalize at its end when aclInit succeeded.
struct Acl {
  aclError rc;
  explicit Acl(const char *config) : rc(aclInit(config)) {}
  ~Acl() {
    if (rc == ACL_SUCCESS) aclFinalize();
  }
};

// A loaded model; executes on one input and returns the output; unloads at the end.
struct Model {
  uint32_t id = 0;
  explicit Model(const std::string &path) { REQUIRE(aclmdlLoadFromFile(path.c_str(), &id) == ACL_SUCCESS); }
  explicit Model(uint32_t loaded) : id(loaded) {}
  ~Model() { aclmdlUnload(id); }
  std::vector<float> Run(const std::vector<float> &x) const {
    FloatDataset in({x});
    FloatDataset out({std::vector<float>(16, 0.0f)});
    REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
    return out.Read(0);
  }
};

// <dump>/<time>/0/<model>/<id>: the one time folder there must be.
std::string ModelDir(const std::string &dump, const std::string &model, uint32_t id) {
  std::vector<fs::path> times;
  for (const auto &e : fs::directory_iterator(dump)) times.push_back(e.path());
  REQUIRE(times.size() == 1);
  const std::string name = times[0].filename().string();
  CHECK(name.size() == 14);  // YYYYMMDDhhmmss
  CHECK(name.find_first_not_of("0123456789") == std::string::npos);
  return (times[0] / "0" / model / std::to_string(id)).string();
}

std::set<std::string> Names(const std::string &dir) {
  std::set<std::string> s;
  if (!fs::exists(dir)) return s;
  for (const auto &e : fs::directory_iterator(dir)) s.insert(e.path().filename().string());
  return s;
}

bool Empty(const std::string &dir) { return fs::is_empty(dir); }

// <dump>/<any time>/0/<model>/<id>/<step>, or "" when no time folder has it.
std::string FindStep(const std::string &dump, const std::string &model, uint32_t id, int step) {
  for (const auto &t : fs::directory_iterator(dump)) {
    const fs::path p = t.path() / "0" / model / std::to_string(id) / std::to_string(step);
    if (fs::is_directory(p)) return p.string();
  }
  return "";
}

}  // namespace

TEST_CASE("dump: aclInit's dump section writes each step's outputs in the omrun layout", "[dump]") {
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_list\": [{\"model_name\": \"single_add\"}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  Model m(SingleAddOm());
  const std::vector<float> x = Iota16(-4.0f), ones(16, 1.0f);
  CHECK(m.Run(x) == Times(x, 3));
  CHECK(m.Run(ones) == Times(ones, 3));
  const std::string dir = ModelDir(s.dump, "single_add", m.id);
  REQUIRE(Names(dir) == std::set<std::string>{"0", "1"});
  CHECK(Names(dir + "/0") == std::set<std::string>{"add1.0.npy", "add2.0.npy", "index.json"});
  CHECK(NpyFloats(dir + "/0/add1.0.npy") == Times(x, 2));
  CHECK(NpyFloats(dir + "/0/add2.0.npy") == Times(x, 3));
  CHECK(NpyFloats(dir + "/1/add1.0.npy") == Times(ones, 2));
  CHECK(NpyFloats(dir + "/1/add2.0.npy") == Times(ones, 3));
  const auto index = ReadJson(dir + "/1/index.json");
  CHECK(index["format"] == "openatc-dump/1");
  CHECK(index["run"] == "step 1");
  CHECK(index["model"] == SingleAddOm());
  REQUIRE(index["nodes"].size() == 2);
  CHECK(index["nodes"][0]["name"] == "add1");
  CHECK(index["nodes"][0]["op_type"] == "AddCustom");
  CHECK(index["nodes"][0]["outputs"][0]["file"] == "add1.0.npy");
  CHECK(index["nodes"][0]["outputs"][0]["dtype"] == "float32");
  CHECK(index["nodes"][0]["outputs"][0]["shape"] == nlohmann::json::array({4, 4}));
  CHECK(index["nodes"][1]["name"] == "add2");
  CHECK_FALSE(index["nodes"][1].contains("inputs"));

  SECTION("each step folder is an omrun --compare dump folder") {
    const std::string xfile = s.root + "/x.npy";
    openatc::HostTensor t;
    t.dtype = ge::DT_FLOAT;
    t.shape = {4, 4};
    t.data.resize(64);
    std::memcpy(t.data.data(), x.data(), 64);
    openatc::tensor_io::WriteNpy(xfile, t);
    auto same = RunCommand({BuildPath("bin/omrun"), SingleAddOm(), "--input", xfile, "--compare", dir + "/0"});
    INFO(same.out << same.err);
    CHECK(same.exit_code == 0);
    CHECK(same.out.find("compare node add1:0 (AddCustom): PASS") != std::string::npos);
    CHECK(same.out.find("compare node add2:0 (AddCustom): PASS") != std::string::npos);
    CHECK(same.out.find("compared 2 node output(s); all within tolerance") != std::string::npos);
    // Step 1 ran on ones: x's run differs from it at add1 first.
    auto other = RunCommand({BuildPath("bin/omrun"), SingleAddOm(), "--input", xfile, "--compare", dir + "/1"});
    INFO(other.out << other.err);
    CHECK(other.exit_code == 1);
    CHECK(other.out.find("compare node add1:0 (AddCustom): FAIL") != std::string::npos);
    CHECK(other.out.find("first node beyond tolerance: add1:0") != std::string::npos);
  }
}

TEST_CASE("dump: dump_step selects the steps, layer the nodes", "[dump]") {
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_step\": \"1|3-4\", \"dump_list\": [{\"model_name\": \"single_add\", "
                       "\"layer\": [\"add2\"]}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  Model m(SingleAddOm());
  for (int step = 0; step < 6; ++step) m.Run(Iota16(static_cast<float>(step)));
  const std::string dir = ModelDir(s.dump, "single_add", m.id);
  CHECK(Names(dir) == std::set<std::string>{"1", "3", "4"});
  CHECK(Names(dir + "/3") == std::set<std::string>{"add2.0.npy", "index.json"});
  CHECK(NpyFloats(dir + "/3/add2.0.npy") == Times(Iota16(3.0f), 3));
  const auto index = ReadJson(dir + "/4/index.json");
  REQUIRE(index["nodes"].size() == 1);
  CHECK(index["nodes"][0]["name"] == "add2");
}

TEST_CASE("dump: dump_mode input and all", "[dump]") {
  Scratch s;
  const std::vector<float> x = Iota16(0.5f);
  SECTION("input") {
    Acl acl(s.DumpConfig("\"dump_mode\": \"input\", \"dump_list\": [{\"model_name\": \"single_add\"}]").c_str());
    REQUIRE(acl.rc == ACL_SUCCESS);
    Model m(SingleAddOm());
    m.Run(x);
    const std::string dir = ModelDir(s.dump, "single_add", m.id) + "/0";
    CHECK(Names(dir) == std::set<std::string>{"add1.input.0.npy", "add1.input.1.npy", "add2.input.0.npy",
                                              "add2.input.1.npy", "index.json"});
    CHECK(NpyFloats(dir + "/add1.input.0.npy") == x);
    CHECK(NpyFloats(dir + "/add1.input.1.npy") == x);
    CHECK(NpyFloats(dir + "/add2.input.0.npy") == Times(x, 2));
    CHECK(NpyFloats(dir + "/add2.input.1.npy") == x);
    const auto index = ReadJson(dir + "/index.json");
    CHECK(index["nodes"][1]["inputs"][0]["file"] == "add2.input.0.npy");
    CHECK(index["nodes"][1]["outputs"].empty());
  }
  SECTION("all") {
    Acl acl(s.DumpConfig("\"dump_mode\": \"all\", \"dump_list\": [{\"model_name\": \"single_add\"}]").c_str());
    REQUIRE(acl.rc == ACL_SUCCESS);
    Model m(SingleAddOm());
    m.Run(x);
    const std::string dir = ModelDir(s.dump, "single_add", m.id) + "/0";
    CHECK(Names(dir).size() == 7);
    CHECK(NpyFloats(dir + "/add2.input.0.npy") == Times(x, 2));
    CHECK(NpyFloats(dir + "/add2.0.npy") == Times(x, 3));
  }
}

TEST_CASE("dump: dump_data stats writes statistics instead of tensors", "[dump]") {
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_data\": \"stats\", \"dump_list\": [{\"model_name\": \"single_add\"}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  Model m(SingleAddOm());
  m.Run(Iota16(-4.0f));  // x = -4..11: add2 = 3x = -12..33, mean 3 * 3.5 = 10.5
  const std::string dir = ModelDir(s.dump, "single_add", m.id) + "/0";
  CHECK(Names(dir) == std::set<std::string>{"index.json"});
  const auto index = ReadJson(dir + "/index.json");
  CHECK(index["data"] == "stats");
  const auto &st = index["nodes"][1]["outputs"][0]["stats"];
  CHECK(st["count"] == 16);
  CHECK(st["max"] == 33.0);
  CHECK(st["min"] == -12.0);
  CHECK(st["mean"] == 10.5);
  CHECK(st["nan_count"] == 0);
  CHECK(st["pos_inf_count"] == 0);
  CHECK(st["neg_inf_count"] == 0);
  CHECK_FALSE(index["nodes"][1]["outputs"][0].contains("file"));
}

TEST_CASE("dump: a model the dump_list does not name writes nothing", "[dump]") {
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_list\": [{\"model_name\": \"resnet50\"}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  Model m(SingleAddOm());
  m.Run(Iota16(1.0f));
  CHECK(Empty(s.dump));
}

TEST_CASE("dump: a step folder that cannot be written fails the execute with ACL_ERROR_WRITE_FILE", "[dump]") {
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_list\": [{\"model_name\": \"single_add\"}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  Model m(SingleAddOm());
  fs::remove(s.dump);
  WriteBytes(s.dump, "a file where dump_path was");
  FloatDataset in({Iota16(0.0f)});
  FloatDataset out({std::vector<float>(16, 0.0f)});
  CHECK(aclmdlExecute(m.id, in.get(), out.get()) == ACL_ERROR_WRITE_FILE);
  CHECK(RecentErrorContains("cannot write the dump step folder"));
}

// single_add.json's graph is "GraphBuildGraph1" (examples/compilable_add_custom/single_add.json).
TEST_CASE("dump: a model loaded from memory is named by its graph name", "[dump]") {
  std::ifstream f(SingleAddOm(), std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Scratch s;
  Acl acl(s.DumpConfig("\"dump_list\": [{\"model_name\": \"GraphBuildGraph1\"}]").c_str());
  REQUIRE(acl.rc == ACL_SUCCESS);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id) == ACL_SUCCESS);
  Model m(id);
  m.Run(Iota16(2.0f));
  CHECK(NpyFloats(ModelDir(s.dump, "GraphBuildGraph1", id) + "/0/add2.0.npy") == Times(Iota16(2.0f), 3));
}

TEST_CASE("dump: aclInit's config file errors", "[dump]") {
  Scratch s;
  auto init_fails = [](const std::string &path, aclError code) {
    Acl acl(path.c_str());
    CHECK(acl.rc == code);
  };
  SECTION("no config: nullptr and \"\"") {
    { Acl a(nullptr); CHECK(a.rc == ACL_SUCCESS); }
    { Acl a(""); CHECK(a.rc == ACL_SUCCESS); }
  }
  SECTION("the file") {
    init_fails(s.root + "/absent.json", ACL_ERROR_INVALID_FILE);
    CHECK(RecentErrorContains("absent.json"));
    init_fails(s.root, ACL_ERROR_INVALID_FILE);  // a folder
    init_fails(s.Config("bad.json", "{\"dump\": {\n  \"dump_path\": ,\n}}"), ACL_ERROR_PARSE_FILE);
    CHECK(RecentErrorContains("bad.json"));
    CHECK(RecentErrorContains("line 2, column"));
    init_fails(s.Config("array.json", "[1, 2]"), ACL_ERROR_PARSE_FILE);
    CHECK(RecentErrorContains("not a JSON object"));
    // Other sections warn and are ignored; an empty file is no config (both as GE).
    { Acl a(s.Config("prof.json", "{\"profiler\": {\"switch\": \"on\"}, \"err_msg_mode\": \"1\"}").c_str());
      CHECK(a.rc == ACL_SUCCESS); }
    { Acl a(s.Config("empty.json", "").c_str()); CHECK(a.rc == ACL_SUCCESS); }
  }
  SECTION("the dump section: ACL_ERROR_INVALID_DUMP_CONFIG, naming the key") {
    const std::string list = "\"dump_list\": [{\"model_name\": \"m\"}]";
    init_fails(s.Config("a.json", "{\"dump\": {" + list + "}}"), ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("\"dump_path\" is missing"));
    init_fails(s.Config("b.json", "{\"dump\": {\"dump_path\": \"" + s.root + "/nope\", " + list + "}}"),
               ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("is not an existing folder"));
    init_fails(s.DumpConfig("\"dump_mode\": \"both\", " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("\"dump_mode\" is 'both'"));
    CHECK(RecentErrorContains("input, output, all"));
    init_fails(s.DumpConfig("\"dump_step\": \"1-\", " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.DumpConfig("\"dump_step\": \"5-2\", " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("ends before it starts"));
    init_fails(s.DumpConfig("\"dump_step\": 3, " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.DumpConfig("\"dump_data\": \"raw\", " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.DumpConfig("\"dump_stats\": [\"Max\"], " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.DumpConfig("\"dump_debug\": \"on\", " + list), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.DumpConfig("\"dump_list\": []"), ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("nothing to dump"));
    init_fails(s.DumpConfig("\"dump_list\": {\"model_name\": \"m\"}"), ACL_ERROR_INVALID_DUMP_CONFIG);
    init_fails(s.Config("c.json", "{\"dump\": {\"dump_path\": \"10.0.0.1:/tmp\", " + list + "}}"),
               ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(RecentErrorContains("remote host"));
  }
  // A failed aclInit leaves ACL uninitialized: the next aclInit succeeds.
  Acl after(nullptr);
  CHECK(after.rc == ACL_SUCCESS);
}

TEST_CASE("dump: aclmdlInitDump / SetDump / FinalizeDump state machine", "[dump]") {
  Scratch s;
  const std::string good = s.DumpConfig("\"dump_list\": [{\"model_name\": \"single_add\"}]");
  SECTION("without aclInit") {
    CHECK(aclmdlInitDump() == ACL_ERROR_UNINITIALIZE);
    CHECK(aclmdlSetDump(good.c_str()) == ACL_ERROR_UNINITIALIZE);
    CHECK(aclmdlFinalizeDump() == ACL_ERROR_UNINITIALIZE);
  }
  SECTION("after aclInit with a dump section: 100044") {
    Acl acl(good.c_str());
    REQUIRE(acl.rc == ACL_SUCCESS);
    CHECK(aclmdlInitDump() == ACL_ERROR_DUMP_ALREADY_RUN);
    CHECK(aclmdlSetDump(good.c_str()) == ACL_ERROR_DUMP_ALREADY_RUN);
    CHECK(aclmdlFinalizeDump() == ACL_ERROR_DUMP_ALREADY_RUN);
  }
  SECTION("a session") {
    Acl acl(nullptr);
    REQUIRE(acl.rc == ACL_SUCCESS);
    CHECK(aclmdlSetDump(good.c_str()) == ACL_ERROR_DUMP_NOT_RUN);
    CHECK(aclmdlFinalizeDump() == ACL_ERROR_DUMP_NOT_RUN);
    REQUIRE(aclmdlInitDump() == ACL_SUCCESS);
    CHECK(aclmdlInitDump() == ACL_ERROR_REPEAT_INITIALIZE);
    Model before(SingleAddOm());  // loaded before SetDump: never dumped
    CHECK(aclmdlSetDump(nullptr) == ACL_ERROR_INVALID_PARAM);
    CHECK(aclmdlSetDump(s.Config("nodump.json", "{\"profiler\": {}}").c_str()) == ACL_ERROR_INVALID_DUMP_CONFIG);
    CHECK(aclmdlSetDump((s.root + "/absent.json").c_str()) == ACL_ERROR_INVALID_FILE);
    REQUIRE(aclmdlSetDump(good.c_str()) == ACL_SUCCESS);
    before.Run(Iota16(0.0f));
    CHECK(Empty(s.dump));
    Model after(SingleAddOm());
    after.Run(Iota16(1.0f));
    const std::string dir = ModelDir(s.dump, "single_add", after.id);
    CHECK(NpyFloats(dir + "/0/add1.0.npy") == Times(Iota16(1.0f), 2));
    REQUIRE(aclmdlFinalizeDump() == ACL_SUCCESS);
    after.Run(Iota16(2.0f));  // the session is over: no step 1
    CHECK(Names(dir) == std::set<std::string>{"0"});
    CHECK(aclmdlSetDump(good.c_str()) == ACL_ERROR_DUMP_NOT_RUN);
    CHECK(aclmdlFinalizeDump() == ACL_ERROR_DUMP_NOT_RUN);
    // Repeatable: a new session dumps again.
    REQUIRE(aclmdlInitDump() == ACL_SUCCESS);
    REQUIRE(aclmdlSetDump(good.c_str()) == ACL_SUCCESS);
    Model again(SingleAddOm());
    again.Run(Iota16(3.0f));
    CHECK(FindStep(s.dump, "single_add", again.id, 0) != "");
    REQUIRE(aclmdlFinalizeDump() == ACL_SUCCESS);
  }
}
