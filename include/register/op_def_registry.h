/**
 * @file register/op_def_registry.h
 * Present so GE sample sources that include it compile (the ascendc sample includes it but uses
 * nothing from it, docs/custom-op-lifecycle.md §1). OpenATC has no Ascend C OpDef registry; this
 * header only pulls in the IMPL_OP registry.
 */
#ifndef OPENATC_REGISTER_OP_DEF_REGISTRY_H_
#define OPENATC_REGISTER_OP_DEF_REGISTRY_H_

#include "register/op_impl_registry.h"

#endif  // OPENATC_REGISTER_OP_DEF_REGISTRY_H_
