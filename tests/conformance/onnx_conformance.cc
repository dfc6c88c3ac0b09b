// onnx_conformance: runs libonnx-testdata's ONNX backend cases through atc and omrun, writes the
// markdown report (docs/conformance.md), rewrites or checks the expected-pass list.
//
//   onnx_conformance --atc A --omrun O --data DIR [--folders node,simple,...] [--jobs 2]
//                    [--timeout 60] [--report FILE] [--update-expected FILE] [--tier1 TSV]
//                    [--intro FILE]     the report's title and text before its totals
//   onnx_conformance ... --cases FILE     run only the cases listed (one "<folder>/<case>" a
//                                         line, '#' comments); exit 1 if any does not pass
// Exit codes: 0 ok, 1 a listed case no longer passes, 2 usage, 77 data folder absent (skip).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "report.h"
#include "runner.h"

using namespace openatc::conformance;

namespace {

int Usage(const std::string &why) {
  std::fprintf(stderr,
               "onnx_conformance: %s\nusage: onnx_conformance --atc PATH --omrun PATH --data DIR [--folders a,b] "
               "[--jobs N] [--timeout S] [--cases FILE] [--report FILE] [--update-expected FILE] [--tier1 TSV] "
               "[--intro FILE]\n",
               why.c_str());
  return 2;
}

std::vector<std::string> Split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> ReadList(const std::string &path, bool *ok) {
  std::ifstream in(path);
  *ok = static_cast<bool>(in);
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
    size_t tab = line.find('\t');
    if (tab != std::string::npos) line.resize(tab);
    if (!line.empty()) ids.push_back(line);
  }
  return ids;
}

bool IsDir(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

int main(int argc, char **argv) {
  RunConfig cfg;
  std::string cases_file, report, update_expected, tier1, intro_file;
  std::vector<std::string> folders = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  int jobs = 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) return Usage("missing value for " + a);
    std::string v = argv[++i];
    if (a == "--atc") cfg.atc = v;
    else if (a == "--omrun") cfg.omrun = v;
    else if (a == "--data") cfg.data_root = v;
    else if (a == "--folders") folders = Split(v, ',');
    else if (a == "--jobs") jobs = std::atoi(v.c_str());
    else if (a == "--timeout") cfg.timeout_s = std::atof(v.c_str());
    else if (a == "--cases") cases_file = v;
    else if (a == "--report") report = v;
    else if (a == "--update-expected") update_expected = v;
    else if (a == "--tier1") tier1 = v;
    else if (a == "--intro") intro_file = v;
    else return Usage("unknown option " + a);
  }
  if (cfg.atc.empty() || cfg.omrun.empty() || cfg.data_root.empty()) return Usage("--atc, --omrun and --data are required");
  if (!IsDir(cfg.data_root)) {
    std::printf("onnx_conformance: SKIPPED: the data folder '%s' is absent (apt-get install libonnx-testdata)\n",
                cfg.data_root.c_str());
    return 77;
  }
  std::vector<std::string> ids;
  if (!cases_file.empty()) {
    bool ok = false;
    ids = ReadList(cases_file, &ok);
    if (!ok) return Usage("cannot read --cases file '" + cases_file + "'");
  } else {
    ids = ListCases(cfg.data_root, folders);
  }
  char tmpl[] = "/tmp/onnx-conformance-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) return Usage("cannot create a scratch folder under /tmp");
  cfg.work_dir = tmpl;
  std::vector<CaseResult> results = RunAll(cfg, ids, jobs);
  ::rmdir(cfg.work_dir.c_str());

  std::map<Outcome, int> totals;
  for (const auto &r : results) ++totals[r.outcome];
  std::printf("onnx_conformance: %zu cases: %d pass, %d mismatch, %d unsupported, %d error, %d crash\n", results.size(),
              totals[Outcome::kPass], totals[Outcome::kMismatch], totals[Outcome::kUnsupported],
              totals[Outcome::kError], totals[Outcome::kCrash]);
  if (!report.empty()) {
    std::vector<std::string> tier1_ids;
    if (!tier1.empty()) {
      bool ok = false;
      tier1_ids = ReadList(tier1, &ok);
    }
    std::string intro;
    if (!intro_file.empty()) {
      std::ifstream in(intro_file);
      if (!in) return Usage("cannot read --intro file '" + intro_file + "'");
      std::stringstream ss;
      ss << in.rdbuf();
      intro = ss.str();
    }
    WriteReport(report, results, tier1_ids, intro);
    std::printf("onnx_conformance: wrote %s\n", report.c_str());
  }
  if (!update_expected.empty()) {
    std::ofstream out(update_expected);
    out << "# ONNX backend cases (libonnx-testdata) expected to pass; generated by onnx_conformance\n"
           "# --update-expected. ctest's onnx_conformance_expected runs each and fails if one no longer passes.\n";
    for (const auto &r : results)
      if (r.outcome == Outcome::kPass) out << r.id << "\n";
    std::printf("onnx_conformance: wrote %s\n", update_expected.c_str());
  }
  if (!cases_file.empty()) {
    int failed = 0;
    for (const auto &r : results) {
      if (r.outcome == Outcome::kPass) continue;
      ++failed;
      std::printf("REGRESSION %s: %s: %s\n", r.id.c_str(), OutcomeName(r.outcome), r.detail.c_str());
    }
    if (failed) {
      std::printf("onnx_conformance: %d of %zu expected-pass cases no longer pass\n", failed, results.size());
      return 1;
    }
  }
  return 0;
}
