// OmrunHelpText: omrun's --help, generated from the flag table (one line per flag).
#include <string>

#include "flag_table.h"
#include "openatc/omrun/options.h"

namespace openatc {
namespace omrun {

std::string OmrunHelpText() {
  std::string text =
      "Usage: omrun MODEL.om [--input a.npy,b.bin] [--output DIR] [--expected_output LIST] [flags]\n"
      "Loads an OM built by atc, runs it on this CPU and prints one summary line per output.\n"
      "Exit codes: 0 ok, 1 output mismatch, 2 usage, 3 bad input file, 4 not a usable OM,\n"
      "5 corrupt OM, 6 a custom op failed, 7 internal error.\n"
      "\nFlags:\n";
  const size_t kColumn = 32;
  for (const OmrunFlag &f : OmrunFlagTable()) {
    std::string left = std::string("  --") + f.name;
    if (std::string(f.name) == "help") left += ", -h";
    else if (!f.is_bool) left += std::string(" ") + f.placeholder;
    left += (left.size() + 2 <= kColumn) ? std::string(kColumn - left.size(), ' ') : std::string("  ");
    std::string line = left + f.help;
    if (f.default_text[0] != '\0') line += std::string(" (default: ") + f.default_text + ")";
    text += line + "\n";
  }
  text +=
      "\nComparison (--expected_output): an element passes when |actual - expected| <= atol + rtol * |expected|\n"
      "(NaN matches NaN, an infinity only the same infinity; integers and bools compare exactly). An output\n"
      "passes when every element does, that is when the printed max_err_to_tol, the largest\n"
      "|actual - expected| / (atol + rtol * |expected|), is at most 1. max_abs_err is the largest\n"
      "|actual - expected|; max_rel_err the largest |actual - expected| / |expected| over the elements\n"
      "with |expected| > atol (n/a when there are none).\n"
      "\nSequence and optional inputs and outputs (ONNX): a sequence is a SequenceProto .pb or a folder of\n"
      "0.npy, 1.npy, ...; an optional an OptionalProto .pb, 'none' or its value. A sequence output is\n"
      "written as DIR/output_<i>/<j>.<ext> and compared element by element.\n";
  return text;
}

}  // namespace omrun
}  // namespace openatc
