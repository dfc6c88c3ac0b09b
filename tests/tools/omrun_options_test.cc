// omrun's command line: defaults, every flag, spellings, errors with exact text, help golden.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/omrun/options.h"
#include "test_util.h"

using openatc::ErrorCategory;
using openatc::omrun::Options;
using tools_test::Capture;

namespace {
Options Parse(std::vector<const char *> args) {
  args.insert(args.begin(), "omrun");
  return openatc::omrun::ParseOmrunOptions(static_cast<int>(args.size()), args.data());
}
std::string ErrorOf(std::vector<const char *> args) {
  openatc::Error e = Capture([&] { Parse(args); });
  CHECK(e.category() == ErrorCategory::kUsage);
  CHECK(openatc::OmrunExitCode(e.category()) == 2);
  return e.what();
}
}  // namespace

TEST_CASE("tools_omrun: defaults") {
  Options o = Parse({"m.om"});
  CHECK(o.model == "m.om");
  CHECK(o.inputs.empty());
  CHECK(o.output_dir.empty());
  CHECK(o.outfmt == "NPY");
  CHECK(o.expected_outputs.empty());
  CHECK(o.atol == 1e-7);
  CHECK(o.rtol == 1e-3);
  CHECK(o.loop == 1);
  CHECK(o.warmup == 0);
  CHECK(o.threads == 0);
  CHECK(o.random_seed == 0u);
  CHECK_FALSE(o.info);
  CHECK(o.log == "error");
  CHECK_FALSE(o.help);
}

TEST_CASE("tools_omrun: every flag") {
  Options o = Parse({"--input", "a.npy,b.bin,c.pb", "--output=res/dir", "--outfmt", "txt", "m.om",
                     "--expected_output=e0.npy,e1.npy", "--atol", "1e-5", "--rtol=0", "--loop", "10", "--warmup=2",
                     "--threads", "4", "--random-seed", "18446744073709551615", "--info", "--log=Warning"});
  CHECK(o.model == "m.om");
  CHECK(o.inputs == std::vector<std::string>{"a.npy", "b.bin", "c.pb"});
  CHECK(o.output_dir == "res/dir");
  CHECK(o.outfmt == "TXT");
  CHECK(o.expected_outputs == std::vector<std::string>{"e0.npy", "e1.npy"});
  CHECK(o.atol == 1e-5);
  CHECK(o.rtol == 0.0);
  CHECK(o.loop == 10);
  CHECK(o.warmup == 2);
  CHECK(o.threads == 4);
  CHECK(o.random_seed == 18446744073709551615ull);
  CHECK(o.info);
  CHECK(o.log == "warning");
  CHECK(Parse({"--info=false", "m.om"}).info == false);
  CHECK(Parse({"--outfmt=Bin", "--", "-odd-name.om"}).model == "-odd-name.om");
  CHECK(Parse({"m.om", "--loop=1", "--loop=3"}).loop == 3);
}

TEST_CASE("tools_omrun: help") {
  CHECK(Parse({"-h"}).help);
  CHECK(Parse({"--help"}).help);
  tools_test::CheckGolden("omrun_help.txt", openatc::omrun::OmrunHelpText());
}

TEST_CASE("tools_omrun: errors") {
  CHECK(ErrorOf({}) == "E10054: the required parameter MODEL.om is missing. Run omrun <model.om> [flags]; build the OM with atc.");
  CHECK(ErrorOf({"a.om", "b.om"}) ==
        "OA0002: unexpected argument 'b.om': omrun takes one model file. Give the inputs with --input a.npy,b.npy.");
  CHECK(ErrorOf({"m.om", "--inputs=a.npy"}) ==
        "OA0001: unknown command line flag '--inputs'. Try 'omrun --help' for the list of flags.");
  CHECK(ErrorOf({"m.om", "-input", "a.npy"}) ==
        "OA0001: unknown command line flag '-input'. Try 'omrun --help' for the list of flags.");
  CHECK(ErrorOf({"m.om", "--input"}) == "E10001: the flag --input is missing its value. Write --input <LIST>.");
  CHECK(ErrorOf({"m.om", "--input=a.npy,,b.npy"}) ==
        "E10001: invalid value 'a.npy,,b.npy' for --input: element 1 of the list is empty. Separate files with "
        "single commas, e.g. --input a.npy,b.npy.");
  CHECK(ErrorOf({"m.om", "--outfmt=json"}) ==
        "E10001: invalid value 'json' for --outfmt: allowed values are NPY, BIN, TXT. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--atol", "-1"}) ==
        "E10001: invalid value '-1' for --atol: a tolerance cannot be negative. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--rtol=abc"}) ==
        "E10001: invalid value 'abc' for --rtol: expected a number such as 1e-5. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--rtol=nan"}) ==
        "E10001: invalid value 'nan' for --rtol: expected a number such as 1e-5. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--loop=0"}) ==
        "E10001: invalid value '0' for --loop: expected an integer in 1..1000000000. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--warmup=-1"}) ==
        "E10001: invalid value '-1' for --warmup: expected an integer in 0..1000000000. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--threads=two"}) ==
        "E10001: invalid value 'two' for --threads: expected an integer. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--random_seed=-5"}) ==
        "E10001: invalid value '-5' for --random_seed: expected an integer >= 0. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--random_seed=18446744073709551616"}) ==
        "E10001: invalid value '18446744073709551616' for --random_seed: expected an integer in "
        "0..18446744073709551615. See 'omrun --help'.");
  CHECK(ErrorOf({"m.om", "--log=loud"}) ==
        "E10001: invalid value 'loud' for --log: allowed values are debug, info, warning, error, null. See 'omrun "
        "--help'.");
  CHECK(ErrorOf({"m.om", "--output="}) ==
        "E10001: invalid value '' for --output: the folder name is empty. See 'omrun --help'.");
}
