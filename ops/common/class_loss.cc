// Shape checks and the reduction attribute of the class-index losses (see class_loss.h).
#include "common/class_loss.h"

#include "common/movement.h"

namespace openatc_ops {

bool ParseLossReduction(const std::string &s, LossReduction *out) {
  if (s == "none")
    *out = LossReduction::kNone;
  else if (s == "sum")
    *out = LossReduction::kSum;
  else if (s == "mean")
    *out = LossReduction::kMean;
  else
    return false;
  return true;
}

namespace {
bool DimsMatch(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }
}  // namespace

std::string CheckLossShapes(const Dims &input, const Dims &target, const Dims *weight, LossLayout *layout) {
  if (input.size() < 2) return "input must have shape (N, C) or (N, C, d1, ..., dk), got " + DimsToString(input);
  Dims expect_target = {input[0]};
  expect_target.insert(expect_target.end(), input.begin() + 2, input.end());
  bool ok = target.size() == expect_target.size();
  for (size_t i = 0; ok && i < target.size(); ++i) ok = DimsMatch(target[i], expect_target[i]);
  if (!ok)
    return "target shape " + DimsToString(target) + " does not match input shape " + DimsToString(input) +
           " (expected " + DimsToString(expect_target) + ": the input's shape without the class axis 1)";
  if (weight != nullptr && (weight->size() != 1 || !DimsMatch((*weight)[0], input[1])))
    return "weight shape " + DimsToString(*weight) + " must be (C) = [" + std::to_string(input[1]) + "]";
  layout->n = input[0];
  layout->c = input[1];
  layout->d = 1;
  for (size_t i = 2; i < input.size(); ++i) layout->d *= input[i];
  layout->none_dims = expect_target;
  return "";
}

bool ReadFloatsAsDouble(const gert::Tensor *t, std::vector<double> *out) {
  if (t == nullptr || t->GetAddr() == nullptr) return false;
  const int64_t n = t->GetShapeSize();
  if (n < 0) return false;
  out->resize(static_cast<size_t>(n));
  switch (t->GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(const T *p = t->GetData<T>();
                            for (int64_t i = 0; i < n; ++i)(*out)[static_cast<size_t>(i)] = static_cast<double>(p[i]))
    default:
      return false;
  }
  return true;
}

std::string CheckLossDtypes(ge::DataType input, ge::DataType target, const ge::DataType *weight) {
  if (input != ge::DT_FLOAT && input != ge::DT_FLOAT16 && input != ge::DT_DOUBLE)
    return "input dtype must be float, float16 or double, got " + DtypeName(input);
  if (target != ge::DT_INT32 && target != ge::DT_INT64)
    return "target dtype must be int32 or int64, got " + DtypeName(target);
  if (weight != nullptr && *weight != input)
    return "weight dtype " + DtypeName(*weight) + " differs from the input dtype " + DtypeName(input);
  return "";
}

Dims LossOutputDims(const LossLayout &layout, LossReduction r) {
  return r == LossReduction::kNone ? layout.none_dims : Dims{};
}

}  // namespace openatc_ops
