// Private to the atc driver: the op descriptions of an `atc --singleop` JSON file
// (docs/atc-deploy-flags.md §5), parsed and checked before anything is built.
#ifndef OPENATC_ATC_DRIVER_SRC_SINGLEOP_DESC_H_
#define OPENATC_ATC_DRIVER_SRC_SINGLEOP_DESC_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "openatc/ir/graph.h"

namespace openatc::atc {

/// One tensor of an op description. `desc.valid` is false for an absent optional input
/// ("type": "UNDEFINED", "format": "RESERVED").
struct SingleOpTensor {
  ir::TensorDesc desc;
  /// One [lo, hi] per -1 dim of desc.shape (hi -1: unbounded); empty when none is given.
  std::vector<std::pair<int64_t, int64_t>> shape_range;
  std::string dynamic_input;  ///< the dynamic input group, "" when none
  bool is_const = false;
  ir::Bytes const_value;      ///< little-endian elements of desc.dtype (is_const only)
};

/// One op of the file, as the JSON gives it.
struct SingleOpDesc {
  size_t entry = 0;     ///< index of the element in the JSON array
  size_t op_index = 0;  ///< index among the ops (compile_flag elements not counted)
  std::string type;
  std::string name;     ///< "" when the element has none
  std::vector<SingleOpTensor> inputs, outputs;
  std::vector<std::pair<std::string, ir::AttrValue>> attrs;  ///< in file order
  int compile_flag = 0;  ///< 1 after a {"compile_flag": 1} element (fuzzy compile)

  /// "entry 3 (op 'Add')" or "entry 3" when the op type is not known yet.
  std::string Where() const;
};

/// Reads and checks every description of `path`. The first problem is thrown as openatc::Error
/// (kUsage) naming the file, the entry (index and op) and the field, with GE's code: E10025 JSON
/// syntax, E10026 empty op, E10027 bad type/format, E10029 empty attr name, E10030 unknown attr
/// type, E10032 a missing key or a value of the wrong JSON type, E13014 a shape / range / const
/// value mismatch.
std::vector<SingleOpDesc> ReadSingleOpFile(const std::string &path);
/// The same for the file's text (`path_for_errors` names it in the errors): what
/// tests/tools/singleop_json_fuzz.cc drives with arbitrary bytes.
std::vector<SingleOpDesc> ParseSingleOpText(const std::string &text, const std::string &path_for_errors);

/// The OM file name (without folder) ATC gives `op`: its `name` (truncated to 128 characters)
/// when that is made of [A-Za-z0-9._-] and is not "." or "..", else
/// "<op_index>_<type>" + "_<dtype>_<format>{_<dim>}" per input then output (GE enum numbers),
/// truncated to 128; then ".om".
std::string SingleOpFileName(const SingleOpDesc &op);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_SRC_SINGLEOP_DESC_H_
