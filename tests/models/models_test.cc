// The shared real models (../shared/models, see its README.md) through atc and omrun: compile the
// canonical file (model_opsetN.onnx where present, else model.onnx; onnx-light's light_*.onnx),
// run every test_data_set_* with --expected_output, tolerances rtol 1e-3 / atol 1e-4 unless the
// model's SOURCE.md says "use atol X" / "use rtol X" (oneDNN results vary by ISA: never exact).
// A model whose output is a classification Softmax is decided in log-probability space, where
// its reference is well-conditioned (softmax_check.h says why and how).
// Models listed in expected_pass.txt must pass; OPENATC_MODELS_ALL=1 runs the others too and
// prints why each fails. Skipped with a message when ../shared/models is absent.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "openatc/tensor_io/tensor_io.h"
#include "run_command.h"
#include "softmax_check.h"
#include "subprocess.h"

using namespace openatc::testing;
using openatc::conformance::ProcessResult;
using openatc::conformance::RunWithTimeout;

namespace {

struct DataSet {
  std::vector<std::string> inputs, outputs;
};

struct ModelCase {
  std::string name, model;
  std::vector<DataSet> sets;
  double atol = 1e-4, rtol = 1e-3;
};

std::vector<std::string> ListDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

bool Exists(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

std::vector<std::string> Numbered(const std::string &dir, const std::string &prefix) {
  std::vector<std::string> out;
  for (int k = 0; Exists(dir + "/" + prefix + "_" + std::to_string(k) + ".pb"); ++k)
    out.push_back(dir + "/" + prefix + "_" + std::to_string(k) + ".pb");
  return out;
}

void ReadTolerances(const std::string &source_md, ModelCase *c) {
  std::ifstream in(source_md);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::smatch m;
  if (std::regex_search(text, m, std::regex("use atol ([0-9.eE+-]+)"))) c->atol = std::atof(m[1].str().c_str());
  if (std::regex_search(text, m, std::regex("use rtol ([0-9.eE+-]+)"))) c->rtol = std::atof(m[1].str().c_str());
}

std::vector<ModelCase> Discover(const std::string &root) {
  std::vector<ModelCase> cases;
  for (const auto &dir : ListDir(root)) {
    const std::string path = root + "/" + dir;
    if (dir == "onnx-light") {
      for (const auto &f : ListDir(path)) {
        if (f.size() < 5 || f.compare(f.size() - 5, 5, ".onnx") != 0) continue;
        ModelCase c;
        c.name = dir + "/" + f.substr(0, f.size() - 5);
        c.model = path + "/" + f;
        // Input-independent outputs (README): omrun's seeded random input is as good as zeros.
        c.sets.push_back({{}, {path + "/" + f.substr(0, f.size() - 5) + "_output_0.pb"}});
        ReadTolerances(path + "/SOURCE.md", &c);
        cases.push_back(c);
      }
      continue;
    }
    if (!Exists(path + "/model.onnx")) continue;
    ModelCase c;
    c.name = dir;
    c.model = path + "/model.onnx";
    for (const auto &f : ListDir(path))
      if (f.rfind("model_opset", 0) == 0 && f.size() > 5 && f.compare(f.size() - 5, 5, ".onnx") == 0) c.model = path + "/" + f;
    for (const auto &s : ListDir(path))
      if (s.rfind("test_data_set_", 0) == 0) c.sets.push_back({Numbered(path + "/" + s, "input"), Numbered(path + "/" + s, "output")});
    ReadTolerances(path + "/SOURCE.md", &c);
    cases.push_back(c);
  }
  return cases;
}

std::string Join(const std::vector<std::string> &v) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string Why(const ProcessResult &r, const std::string &tool) {
  if (r.timed_out) return tool + " timed out";
  if (r.signal) return tool + " killed by signal " + std::to_string(r.signal);
  std::string e = r.err.empty() ? r.out : r.err;
  size_t p = e.find("error: ");
  if (p != std::string::npos) e = e.substr(p);
  size_t fail = r.out.find("FAIL max_abs_err");  // omrun's comparison line (exit 1)
  if (r.exit_code == 1 && fail != std::string::npos) {
    size_t start = r.out.rfind('\n', fail);
    start = start == std::string::npos ? 0 : start + 1;
    e = r.out.substr(start, r.out.find('\n', fail) - start);
  }
  if (e.size() > 600) e = e.substr(0, 600) + "...";
  return tool + " exit " + std::to_string(r.exit_code) + ": " + e;
}

ProcessResult Compile(const std::string &model, const std::string &work) {
  return RunWithTimeout({BuildPath("bin/atc"), "--model", model, "--soc_version", "host", "--output", work + "/m",
                         "--log", "error"},
                        600, work + "/atc");
}

// A Softmax head (one data set, input-independent): outputs are [probabilities, logits].
std::string RunSoftmaxHead(const ModelCase &c, const SoftmaxHead &head, const std::string &work, std::string *note) {
  ProcessResult a = Compile(work + "/exposed.onnx", work);
  if (a.timed_out || a.signal || a.exit_code != 0) return Why(a, "atc");
  ProcessResult r = RunWithTimeout({BuildPath("bin/omrun"), work + "/m.om", "--output", work + "/out"}, 600,
                                   work + "/omrun");
  if (r.timed_out || r.signal || r.exit_code != 0) return Why(r, "omrun");
  namespace tio = openatc::tensor_io;
  try {
    return CompareSoftmaxHead(head, tio::ReadNpy(work + "/out/output_1.npy"), tio::ReadNpy(work + "/out/output_0.npy"),
                              tio::ReadOnnxTensorPb(c.sets.at(0).outputs.at(0)), SoftmaxTolerance{}, note);
  } catch (const std::exception &e) {
    return std::string("reading the outputs: ") + e.what();
  }
}

// "" when the model passes, else why not.
std::string RunModel(const ModelCase &c, const std::string &work, std::string *note) {
  SoftmaxHead head;
  if (c.sets.size() == 1 && c.sets[0].inputs.empty() && ExposeSoftmaxInput(c.model, work + "/exposed.onnx", &head))
    return RunSoftmaxHead(c, head, work, note);
  ProcessResult a = Compile(c.model, work);
  if (a.timed_out || a.signal || a.exit_code != 0) return Why(a, "atc");
  char atol[32], rtol[32];
  std::snprintf(atol, sizeof(atol), "%g", c.atol);
  std::snprintf(rtol, sizeof(rtol), "%g", c.rtol);
  for (size_t i = 0; i < c.sets.size(); ++i) {
    std::vector<std::string> argv = {BuildPath("bin/omrun"), work + "/m.om", "--output", work + "/out"};
    if (!c.sets[i].inputs.empty()) argv.insert(argv.end(), {"--input", Join(c.sets[i].inputs)});
    argv.insert(argv.end(), {"--expected_output", Join(c.sets[i].outputs), "--atol", atol, "--rtol", rtol});
    ProcessResult r = RunWithTimeout(argv, 600, work + "/omrun");
    if (r.timed_out || r.signal || r.exit_code != 0) return "data set " + std::to_string(i) + ": " + Why(r, "omrun");
  }
  return "";
}

std::set<std::string> ReadExpected() {
  std::set<std::string> names;
  std::ifstream in(SourcePath("tests/models/expected_pass.txt"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

}  // namespace

TEST_CASE("shared models compile and match their reference outputs") {
  const std::string root = SourcePath("../shared/models");
  if (!Exists(root)) {
    WARN("skipped: " << root << " is absent");
    return;
  }
  const std::set<std::string> expected = ReadExpected();
  const bool all = std::getenv("OPENATC_MODELS_ALL") != nullptr;
  std::vector<ModelCase> cases = Discover(root);
  CHECK(cases.size() >= 16);  // 7 models + 9 onnx-light topologies
  std::set<std::string> found;
  for (const auto &c : cases) {
    found.insert(c.name);
    const bool must_pass = expected.count(c.name) > 0;
    if (!must_pass && !all) continue;
    const std::string work = MakeTempDir();
    std::string note;
    const std::string why = RunModel(c, work, &note);
    RemoveTree(work);
    std::printf("models: %-40s %s%s%s\n", c.name.c_str(), why.empty() ? "pass" : "FAIL: ", why.c_str(),
                note.empty() ? "" : (" (" + note + ")").c_str());
    if (must_pass) {
      INFO(c.name << " (" << c.model << "): " << why);
      CHECK(why.empty());
    } else if (why.empty()) {
      WARN(c.name << " now passes: add it to tests/models/expected_pass.txt");
    }
  }
  for (const auto &name : expected) {
    INFO("tests/models/expected_pass.txt names a model that is not in " << root);
    CHECK(found.count(name) == 1);
  }
}
