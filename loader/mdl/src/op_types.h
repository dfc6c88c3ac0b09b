// The aclTensorDesc and aclopAttr objects of the single-op API (acl/acl_op.h), shared by
// tensor_desc.cc, op_attr.cc and op_execute.cc. Attr values are held as ir::AttrValue, the form
// the op node of a single-op OM keeps them in, so matching compares like with like.
#ifndef OPENATC_MDL_SRC_OP_TYPES_H_
#define OPENATC_MDL_SRC_OP_TYPES_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl_op.h"
#include "openatc/ir/graph.h"

struct aclTensorDesc {
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;                        ///< -1 unknown; {-2} unknown rank
  std::vector<std::pair<int64_t, int64_t>> ranges;  ///< per dim, when set
  std::string name;
};

struct aclopAttr {
  std::map<std::string, openatc::ir::AttrValue> values;
};

namespace openatc {
namespace mdl {

/** `desc` itself; null -> ACL_ERROR_INVALID_PARAM naming `what`. */
const aclTensorDesc &CheckTensorDesc(const aclTensorDesc *desc, const std::string &what);
/** True when both hold the same kind and value (floats equal within 1e-6 relative). */
bool SameAttrValue(const ir::AttrValue &a, const ir::AttrValue &b);
/** "name=value" text of an attr for messages. */
std::string AttrText(const std::string &name, const ir::AttrValue &v);

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_OP_TYPES_H_
