// CheckGearFlags: --dynamic_batch_size, --dynamic_image_size, --dynamic_dims and their rules on
// --input_shape, with ATC's error codes (docs/atc-deploy-flags.md §4).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "flag_checks.h"
#include "openatc/atc/gear_spec.h"
#include "openatc/common/error.h"
#include "parse_util.h"

namespace openatc {
namespace atc {
namespace {

using Gear = std::vector<int64_t>;

[[noreturn]] void Fail(const char *code, const std::string &what, const std::string &hint) {
  throw Error(ErrorCategory::kUsage, code, what, hint);
}

std::vector<std::string> SplitOn(const std::string &text, char sep) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    const size_t pos = text.find(sep, begin);
    parts.push_back(text.substr(begin, pos == std::string::npos ? std::string::npos : pos - begin));
    if (pos == std::string::npos) return parts;
    begin = pos + 1;
  }
}

// "a,b;c,d" (or "a,b,c" for batch: one value per gear) -> gears. `chars_code`: code for a
// character outside digits and the separators.
std::vector<Gear> ParseGears(const std::string &flag, const std::string &text, bool batch, const char *chars_code) {
  const std::string allowed = batch ? "0123456789," : "0123456789,; ";
  const std::string example = batch ? "\"1,2,4\"" : (flag == "dynamic_image_size" ? "\"224,224;448,448\"" : "\"1,2;4,8\"");
  for (char c : text)
    if (allowed.find(c) == std::string::npos)
      Fail(chars_code, "invalid value '" + text + "' for --" + flag + ": only digits and '" +
                           (batch ? std::string(",") : std::string(",' and ';")) + "' are allowed",
           "Write the gears as " + example);
  std::string body = text;
  body.erase(std::remove(body.begin(), body.end(), ' '), body.end());
  while (!body.empty() && (body.back() == ',' || body.back() == ';')) body.pop_back();
  std::vector<Gear> gears;
  for (const std::string &group : SplitOn(body, batch ? ',' : ';')) {
    Gear g;
    for (const std::string &v : SplitOn(group, ',')) {
      int64_t n = 0;
      if (!ParseStrictInt64(v, &n))
        Fail("E10003", "invalid value '" + text + "' for --" + flag + ": '" + group + "' is not a list of integers",
             "Write the gears as " + example);
      if (n <= 0)
        Fail("E10038", "invalid value '" + text + "' for --" + flag + ": gear values must be positive integers",
             "Write the gears as " + example);
      g.push_back(n);
    }
    gears.push_back(g);
  }
  return gears;
}

void CheckGearSet(const std::string &flag, const std::vector<Gear> &gears) {
  if (gears.size() < 2)
    Fail("E10035", "--" + flag + " needs at least 2 gears", "List two or more gears, e.g. --" + flag + "=\"1,2\"");
  std::set<Gear> seen;
  for (const Gear &g : gears) {
    if (g.size() != gears[0].size())
      Fail("E10037", "--" + flag + ": every gear must have the same number of values", "Give each gear as many values");
    if (!seen.insert(g).second) {
      std::string text;
      for (int64_t v : g) text += (text.empty() ? "" : ",") + std::to_string(v);
      Fail("E10039", "--" + flag + " lists the gear " + text + " twice", "List each gear once");
    }
  }
}

void CheckBatchShapes(const std::vector<InputShape> &shapes) {
  bool any = false;
  for (const InputShape &s : shapes)
    for (size_t i = 0; i < s.dims.size(); ++i) {
      if (s.dims[i] != -1) continue;
      if (i != 0)
        Fail("E10018", "--dynamic_batch_size: input '" + s.name + "' has -1 at dim " + std::to_string(i) +
                           " of --input_shape; only the first (batch) dim may be -1",
             "Write the batch dim as -1 and the other dims fixed, e.g. \"" + s.name + ":-1,3,224,224\"");
      any = true;
    }
  if (!any)
    Fail("E10031", "--dynamic_batch_size needs an input whose first dim is -1 in --input_shape",
         "Write e.g. --input_shape \"x:-1,3,224,224\"");
}

void CheckImageShapes(const std::vector<InputShape> &shapes, const std::string &input_format) {
  const std::string fmt = input_format.empty() ? "NCHW" : input_format;
  if (fmt != "NCHW" && fmt != "NHWC")
    Fail("E10019", "--dynamic_image_size needs --input_format NCHW or NHWC, not " + fmt, "Pass --input_format NCHW or NHWC");
  const size_t h = fmt == "NCHW" ? 2 : 1;
  bool any = false;
  for (const InputShape &s : shapes) {
    size_t unknown = 0;
    for (int64_t d : s.dims) unknown += (d == -1);
    if (unknown == 0) continue;
    if (s.dims.size() != 4 || s.dims[h] != -1 || s.dims[h + 1] != -1 || unknown != 2)
      Fail("E10019", "--dynamic_image_size: input '" + s.name + "' must be 4-D with -1 exactly at H and W (" + fmt +
                         ") in --input_shape",
           std::string("Write e.g. \"") + s.name + (h == 2 ? ":1,3,-1,-1\"" : ":1,-1,-1,3\""));
    any = true;
  }
  if (!any)
    Fail("E10019", "--dynamic_image_size needs an input with -1 at H and W in --input_shape",
         "Write e.g. --input_shape \"x:1,3,-1,-1\"");
}

void CheckDimsShapes(const std::vector<InputShape> &shapes, const std::vector<Gear> &gears) {
  size_t unknown = 0;
  for (const InputShape &s : shapes)
    for (int64_t d : s.dims) unknown += (d == -1);
  if (unknown == 0)
    Fail("E10003", "--dynamic_dims needs at least one -1 in --input_shape", "Write e.g. --input_shape \"x:-1,3,-1\"");
  for (const Gear &g : gears)
    if (g.size() != unknown)
      Fail("E10003", "--dynamic_dims: a gear has " + std::to_string(g.size()) + " value(s) but --input_shape has " +
                         std::to_string(unknown) + " -1 dim(s)",
           "Give each gear one value per -1 of --input_shape, in order");
}

}  // namespace

GearSpec GearSpecOf(const Options &o) {
  CheckGearFlags(o);
  GearSpec spec;
  for (const char *f : {"dynamic_batch_size", "dynamic_image_size", "dynamic_dims"}) {
    if (!o.other_flags.count(f)) continue;
    spec.flag = f;
    const bool batch = spec.flag == "dynamic_batch_size";
    spec.gears = ParseGears(spec.flag, o.other_flags.at(f), batch, batch ? "E10003" : "E10001");
  }
  return spec;
}

void CheckGearFlags(const Options &o) {
  std::vector<std::string> given;
  for (const char *f : {"dynamic_batch_size", "dynamic_image_size", "dynamic_dims", "input_shape_range"})
    if (o.other_flags.count(f)) given.push_back(f);
  if (given.size() > 1)
    Fail("E10009", "--" + given[0] + " and --" + given[1] + " cannot be used together",
         "Use one of --dynamic_batch_size, --dynamic_image_size, --dynamic_dims");
  if (given.empty() || given[0] == "input_shape_range") return;
  const std::string flag = given[0];
  if (o.input_shape.empty())
    Fail("E10004", "--" + flag + " needs --input_shape with -1 for the dims the gears set",
         "Pass e.g. --input_shape \"x:-1,3,224,224\"");
  if (o.input_shape.find('~') != std::string::npos)
    Fail("E10040", "--input_shape may not hold a range (lo~hi) together with --" + flag,
         "Write -1 for the dims the gears set");
  const bool batch = flag == "dynamic_batch_size";
  const std::vector<Gear> gears =
      ParseGears(flag, o.other_flags.at(flag), batch, batch ? "E10003" : "E10001");
  if (flag == "dynamic_image_size") {
    for (const Gear &g : gears)
      if (g.size() != 2)
        Fail("E10020", "--dynamic_image_size: every gear is \"h,w\" (2 values)", "Write e.g. \"224,224;448,448\"");
  }
  CheckGearSet(flag, gears);
  if (batch) CheckBatchShapes(o.input_shapes);
  else if (flag == "dynamic_image_size") CheckImageShapes(o.input_shapes, FlagValue(o, "input_format"));
  else CheckDimsShapes(o.input_shapes, gears);
}

}  // namespace atc
}  // namespace openatc
