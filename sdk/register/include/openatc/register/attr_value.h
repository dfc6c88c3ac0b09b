/**
 * @file openatc/register/attr_value.h
 * INTERNAL (not part of the public SDK): the typed value of one operator attribute as stored by
 * ge::Operator inside libregister.so, and its text form. One alternative per REG_OP attr type
 * token (docs/custom-op-lifecycle.md §4): Int -> int64_t, Float -> float, String/AscendString ->
 * std::string, Bool -> bool, Tensor -> ge::Tensor, Type -> ge::DataType, NamedAttrs, ListInt ->
 * vector<int64_t>, ListFloat, ListString/ListAscendString -> vector<string>, ListBool, ListTensor,
 * Bytes -> vector<uint8_t>, ListListInt, ListType, ListNamedAttrs. monostate = no value.
 */
#ifndef OPENATC_REGISTER_ATTR_VALUE_H_
#define OPENATC_REGISTER_ATTR_VALUE_H_

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "graph/operator.h"
#include "graph/tensor.h"
#include "graph/types.h"

#define OPENATC_REG_INTERNAL_API __attribute__((visibility("default")))

namespace openatc::reg {

using AttrValue =
    std::variant<std::monostate, int64_t, float, std::string, bool, ge::Tensor, ge::DataType,
                 std::vector<int64_t>, std::vector<float>, std::vector<std::string>, std::vector<bool>,
                 std::vector<ge::Tensor>, std::vector<uint8_t>, std::vector<std::vector<int64_t>>,
                 std::vector<ge::DataType>, ge::NamedAttrs, std::vector<ge::NamedAttrs>>;

/// Human-readable value: `0`, `1.5`, `"abc"`, `true`, `DT_FLOAT`, `[1, 2]`, `[[1], [2, 3]]`,
/// `tensor(DT_FLOAT, [2], 8 bytes)`, `bytes(3)`, `named_attrs("n")`, `<none>` for monostate.
OPENATC_REG_INTERNAL_API std::string AttrValueToText(const AttrValue &value);

/// The calling thread's last error message from an SDK call in libregister.so ("" if none).
/// SDK methods that fail (graphStatus != GRAPH_SUCCESS, empty Operator, ignored chained call)
/// set it and log it through openatc/common/log.h.
OPENATC_REG_INTERNAL_API const std::string &LastSdkError();
OPENATC_REG_INTERNAL_API void ClearLastSdkError();
/// Logs `message` as an error and makes it the calling thread's LastSdkError(): for the SDK
/// front doors built into other libraries (GE's offline build API, ge_api/ir_build).
OPENATC_REG_INTERNAL_API void SetSdkErrorText(const std::string &message);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_ATTR_VALUE_H_
