// The ONNX conformance runner's model: one case = one folder of libonnx-testdata's backend tests
// (`model.onnx` + `test_data_set_N/{input,output}_K.pb`), run through atc then omrun.
#ifndef OPENATC_TESTS_CONFORMANCE_RUNNER_H_
#define OPENATC_TESTS_CONFORMANCE_RUNNER_H_

#include <string>
#include <vector>

namespace openatc::conformance {

enum class Outcome { kPass, kMismatch, kUnsupported, kError, kCrash };
const char *OutcomeName(Outcome o);

struct CaseResult {
  std::string id;      ///< "<folder>/<case>", e.g. "node/test_add"
  Outcome outcome = Outcome::kError;
  std::string detail;  ///< one line: why it did not pass
  double seconds = 0;
};

struct RunConfig {
  std::string atc, omrun;    ///< tool paths
  std::string data_root;     ///< .../libonnx-testdata/data
  std::string work_dir;      ///< scratch folder (one sub-folder per case, removed after)
  double timeout_s = 60;
  double atol = 1e-7, rtol = 1e-3;  ///< ONNX backend-test defaults
};

/// Every "<folder>/<case>" under data_root for the given folders, sorted.
std::vector<std::string> ListCases(const std::string &data_root, const std::vector<std::string> &folders);

/// Runs one case: atc (unsupported = OA1503/OA1104 refusal, crash = signal or timeout, error =
/// any other failure), then omrun on every test_data_set_* with --expected_output (exit 1 =
/// mismatch).
CaseResult RunCase(const RunConfig &config, const std::string &id);

/// Runs `ids` over `jobs` worker threads; results in the order of `ids`. Prints progress to stderr.
std::vector<CaseResult> RunAll(const RunConfig &config, const std::vector<std::string> &ids, int jobs);

}  // namespace openatc::conformance

#endif  // OPENATC_TESTS_CONFORMANCE_RUNNER_H_
