/**
 * @file register/op_def_registry.h
 * Present so GE sample sources that include it compile (the ascendc sample includes it but uses
 * nothing from it, docs/custom-op-lifecycle.md §1). OpenATC has no Ascend C OpDef registry; this
 * header only pulls in the IMPL_OP registry, and REG_OP (graph/operator_reg.h), which sources
 * that include only this header and register/op_impl_registry.h use (the ascendc sample's
 * custom_op.cpp declares its prototype with REG_OP that way).
 */
#ifndef OPENATC_REGISTER_OP_DEF_REGISTRY_H_
#define OPENATC_REGISTER_OP_DEF_REGISTRY_H_

#include "graph/operator_reg.h"
#include "register/op_impl_registry.h"

#endif  // OPENATC_REGISTER_OP_DEF_REGISTRY_H_
