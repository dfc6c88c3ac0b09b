/**
 * @file openatc/om/single_op.h
 * What marks an OM built by `atc --singleop` (docs/atc-deploy-flags.md §5) and what aclopExecuteV2
 * matches on: the graph is Data/Const -> one op node -> NetOutput, and the op node carries
 * kSingleOpAttrNames, the names of the attrs the op description gave (ListString, file order).
 * Those attrs, the op type and the op node's input/output descriptions are the model's key.
 */
#ifndef OPENATC_OM_SINGLE_OP_H_
#define OPENATC_OM_SINGLE_OP_H_

namespace openatc::om {

inline constexpr const char *kSingleOpAttrNames = "_singleop_attr_names";

}  // namespace openatc::om

#endif  // OPENATC_OM_SINGLE_OP_H_
