// libFuzzer target of atc's command line: the input is split at NUL bytes into argv words (after
// argv[0] = "atc") and given to ParseAtcOptions, the parser atc's main uses, in-process and
// without running a compile. It must return checked Options or throw an openatc::Error with one
// of the codes of atc/cli/include/openatc/atc/options.h; never crash, throw anything else, or call
// exit() (libFuzzer reports a target that exits). Options that parse also go through
// GeOptionKeys, and --help through AtcHelpText, as the driver does.
// Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds: tests/tools/fuzz_seeds/atc_argv
// (one NUL-separated command line per file); dictionary tests/tools/atc_argv_fuzz.dict.
// Run: make fuzz-smoke FUZZERS=atc_argv_fuzz FUZZ_TIME=600 (see README).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "openatc/atc/options.h"
#include "openatc/common/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::string> words = {"atc"};
  std::string word;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word.push_back(static_cast<char>(data[i]));
    }
  }
  if (size > 0) words.push_back(word);  // "a\0b" is two words, "a\0" is "a" and ""
  std::vector<const char *> argv;
  for (const auto &w : words) argv.push_back(w.c_str());
  argv.push_back(nullptr);
  try {
    const openatc::atc::Options o = openatc::atc::ParseAtcOptions(static_cast<int>(words.size()), argv.data());
    if (o.help) {
      if (openatc::atc::AtcHelpText().empty()) std::abort();
      return 0;
    }
    // What the checks promise (options.h): a known mode and framework, a zstd level.
    const std::set<int> modes = {0, 1, 3, 5, 6};
    if (!modes.count(o.mode) || (o.framework != -1 && o.framework != 1 && o.framework != 5)) std::abort();
    if (o.compress < 0 || o.compress > 22) std::abort();
    const bool singleop = o.other_flags.count("singleop") != 0;  // needs --output and --soc_version, no --model
    if (singleop && (o.mode != 0 || !o.model.empty() || o.output.empty() || o.soc_version.empty())) std::abort();
    if (!singleop && (o.mode == 0 || o.mode == 3) && (o.model.empty() || o.soc_version.empty() || o.framework == -1))
      std::abort();
    const auto keys = openatc::atc::GeOptionKeys(o);
    if (!keys.count("ge.jit_compile") || !keys.count("log")) std::abort();
  } catch (const openatc::Error &e) {
    // options.h's codes, with the deployment flags' ATC codes (docs/atc-deploy-flags.md).
    static const std::set<std::string> kCodes = {"E10001", "E10003", "E10004", "E10005", "E10006", "E10007",
                                                 "E10009", "E10018", "E10019", "E10020", "E10023", "E10031",
                                                 "E10035", "E10037", "E10038", "E10039", "E10040", "E10052",
                                                 "E10054", "E10056", "OA0001", "OA0002"};
    if (!kCodes.count(e.code())) std::abort();
  }
  return 0;
}
