// Helpers shared by the model benchmarks (ort_bench, arena_bench): where the tools and the shared
// models are, the shared models' canonical files and reference inputs, compiling one with atc, and
// running a child process with its peak resident memory (wait4's rusage).
#ifndef OPENATC_TESTS_BENCH_BENCH_UTIL_H_
#define OPENATC_TESTS_BENCH_BENCH_UTIL_H_

#include <string>
#include <vector>

namespace openatc::bench {

/// <build>/relative and <source>/relative: $OPENATC_BUILD_DIR / $OPENATC_SOURCE_DIR when set,
/// else the folders this binary was configured with (so it runs outside ctest too).
std::string BuildDir(const std::string &relative);
std::string SourceDir(const std::string &relative);

/// True when `path` exists (file or folder).
bool Exists(const std::string &path);

/// One shared model (../shared/models/<name>, backend-test layout): the canonical .onnx
/// (model_opsetN.onnx where present, else model.onnx) and test_data_set_0/input_K.pb in order.
struct SharedModel {
  std::string name, onnx;
  std::vector<std::string> inputs;
};

/// The models of `names` found under `root`; a name with no model.onnx gets an empty `onnx`.
/// "onnx-light/light_X" names onnx-light's light_X.onnx (no inputs).
std::vector<SharedModel> FindSharedModels(const std::string &root, const std::vector<std::string> &names);

/// Every model folder under `root` with a model.onnx, plus onnx-light's light_*.onnx files (named
/// onnx-light/light_X, no inputs), sorted by name.
std::vector<SharedModel> AllSharedModels(const std::string &root);

/// A finished child process. `max_rss_kb` is its resident-set high-water mark (ru_maxrss, KiB).
struct Child {
  int exit_code = -1;  ///< exit status, or -1 when killed (then `signal` or `timed_out` says why)
  int signal = 0;
  bool timed_out = false;
  long max_rss_kb = 0;
  std::string out, err;  ///< captured stdout / stderr (first 1 MiB each)
};

/// Runs argv (argv[0] is looked up in PATH when it has no '/') with stdout/stderr captured in
/// `<log_prefix>.out/.err`; kills it after `timeout_s` seconds. ASCEND_CUSTOM_OPP_PATH is unset.
Child RunChild(const std::vector<std::string> &argv, double timeout_s, const std::string &log_prefix);

/// Compiles `onnx` with <build>/bin/atc into `<out_prefix>.om`. Returns "" on success, else the
/// first line of atc's error (or why it did not exit cleanly).
std::string CompileWithAtc(const std::string &onnx, const std::string &out_prefix);

/// Comma-separated list -> items (empty items dropped).
std::vector<std::string> SplitList(const std::string &s);
/// Items -> comma-separated list.
std::string JoinList(const std::vector<std::string> &items);

}  // namespace openatc::bench

#endif  // OPENATC_TESTS_BENCH_BENCH_UTIL_H_
