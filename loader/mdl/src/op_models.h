// The process-wide set of single-op models behind aclopSetModelDir / aclopLoad, and how
// aclopExecuteV2 picks one (docs/acl.md §7): same op type; per input the same dtype and format, a
// shape the model's shape admits (a -1 dim within its range, [-2] any) and, for an input the
// model holds as a constant, the same bytes; per output the same dtype and format (and shape when
// both are static); and the same attrs, names and values, as the op description gave them.
#ifndef OPENATC_MDL_SRC_OP_MODELS_H_
#define OPENATC_MDL_SRC_OP_MODELS_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "op_types.h"
#include "openatc/runtime/model.h"

namespace openatc {
namespace mdl {

struct OpModelInput {
  ir::TensorDesc desc;                         ///< desc.valid false: an absent optional input
  std::vector<std::vector<int64_t>> range;     ///< [lo, hi] per dim, empty when unbounded
  int model_input = -1;                        ///< index among the model's inputs; -1 for a constant
  ir::Bytes const_value;
};

struct OpModel {
  std::string label;  ///< file path or "<memory model>"
  std::unique_ptr<runtime::LoadedModel> model;
  std::string op_type;
  std::vector<OpModelInput> inputs;
  std::vector<ir::TensorDesc> outputs;
  std::map<std::string, ir::AttrValue> attrs;
  std::mutex run_mutex;  ///< one execution at a time per model
};

/** One input or output of an aclopExecute call. */
struct OpTensorArg {
  const aclTensorDesc *desc = nullptr;
  const aclDataBuffer *buffer = nullptr;
};

class OpModels {
 public:
  static OpModels &Instance();
  /** Loads every single-op OM under `dir` (3 levels); see aclopSetModelDir. */
  void LoadDir(const std::string &dir);
  /** Loads one OM image; throws (ACL codes) when it is not a single-op model. */
  void LoadBytes(const void *data, size_t size);
  /** The matching model; none -> ACL_ERROR_OP_NOT_FOUND after logging what was asked and why each
   *  model of that op type does not fit. */
  std::shared_ptr<OpModel> Find(const std::string &op_type, const std::vector<OpTensorArg> &inputs,
                                const std::vector<const aclTensorDesc *> &outputs, const aclopAttr *attr) const;

 private:
  void Add(std::unique_ptr<runtime::LoadedModel> model, const std::string &label);
  mutable std::mutex mutex_;
  bool dir_set_ = false;
  std::vector<std::shared_ptr<OpModel>> models_;
};

/** "float32 ND [2, 3]" for messages. */
std::string DescText(const aclTensorDesc *d);

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_OP_MODELS_H_
