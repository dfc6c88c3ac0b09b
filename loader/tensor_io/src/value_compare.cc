// Summaries and comparison of sequence and optional values (openatc/tensor_io/value_io.h).
#include <string>
#include <vector>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/value_io.h"

namespace openatc {
namespace tensor_io {

std::vector<std::string> ValueSummaryLines(const std::string &name, const HostValue &v) {
  const bool optional = v.kind == ir::ValueKind::kOptionalTensor || v.kind == ir::ValueKind::kOptionalSequence;
  if (!v.present) return {name + ": " + ValueKindName(v.kind) + ", None"};
  if (!IsSequenceKind(v.kind)) {
    const std::string line = SummaryLine(name, v.tensor);
    return {optional ? line.substr(0, name.size() + 2) + "optional, " + line.substr(name.size() + 2) : line};
  }
  std::vector<std::string> lines = {name + ": " + (optional ? std::string("optional ") : std::string()) + "sequence of " +
                                    std::to_string(v.seq.size()) + " tensors"};
  for (size_t j = 0; j < v.seq.size(); ++j) lines.push_back(SummaryLine(name + "[" + std::to_string(j) + "]", v.seq[j]));
  return lines;
}

ValueComparison CompareValues(const HostValue &actual, const HostValue &expected, double atol, double rtol) {
  ValueComparison r;
  auto fail = [&](const std::string &why) {
    r.ok = false;
    r.problem = why;
    return r;
  };
  if (actual.present != expected.present)
    return fail(actual.present ? "the output holds a value but the expected optional is None"
                               : "the output is None but the expected optional holds a value");
  if (!actual.present) return r;
  if (IsSequenceKind(actual.kind) != IsSequenceKind(expected.kind))
    return fail(std::string("the output is a ") + (IsSequenceKind(actual.kind) ? "sequence" : "tensor") +
                " but the expected value is not");
  std::vector<const HostTensor *> a, e;
  if (IsSequenceKind(actual.kind)) {
    if (actual.seq.size() != expected.seq.size())
      return fail("the output sequence has " + std::to_string(actual.seq.size()) + " tensors but the expected one has " +
                  std::to_string(expected.seq.size()));
    for (size_t j = 0; j < actual.seq.size(); ++j) {
      a.push_back(&actual.seq[j]);
      e.push_back(&expected.seq[j]);
    }
  } else {
    a.push_back(&actual.tensor);
    e.push_back(&expected.tensor);
  }
  for (size_t j = 0; j < a.size(); ++j) {
    const std::string which = IsSequenceKind(actual.kind) ? "element " + std::to_string(j) + ": " : "";
    if (a[j]->dtype != e[j]->dtype || a[j]->shape != e[j]->shape)
      return fail(which + "the output is " + DataTypeShortName(a[j]->dtype) + " " + ShapeToString(a[j]->shape) +
                  " but the expected tensor is " + DataTypeShortName(e[j]->dtype) + " " + ShapeToString(e[j]->shape));
    r.elements.push_back(Compare(*a[j], *e[j], atol, rtol));
    r.ok = r.ok && r.elements.back().ok;
  }
  return r;
}

}  // namespace tensor_io
}  // namespace openatc
