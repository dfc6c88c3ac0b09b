/**
 * @file graph/utils/type_utils.h
 * ge::TypeUtils: serial names of DataType and Format (metadef `graph/utils/type_utils.h`;
 * spellings per docs/custom-op-lifecycle.md §7: enum names, DT_BF16 -> "DT_BFLOAT16", unknown
 * dtype -> "UNDEFINED", unknown format -> "RESERVED", sub-format appended as ":<n>").
 * Exported functions return AscendString; the std::string forms are inline conversions.
 */
#ifndef OPENATC_GRAPH_UTILS_TYPE_UTILS_H_
#define OPENATC_GRAPH_UTILS_TYPE_UTILS_H_

#include <string>

#include "graph/ascend_string.h"
#include "graph/types.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace ge {

class OPENATC_SDK_API TypeUtils {
 public:
  static AscendString DataTypeToAscendString(DataType data_type);
  /// DT_UNDEFINED for an unknown name.
  static DataType AscendStringToDataType(const AscendString &str);
  static AscendString FormatToAscendString(Format format);
  /// FORMAT_RESERVED for an unknown name ("RESERVED" and "UNDEFINED" also parse to it).
  static Format AscendStringToFormat(const AscendString &str);

  static std::string DataTypeToSerialString(DataType data_type) {
    const AscendString s = DataTypeToAscendString(data_type);
    return std::string(s.GetString(), s.GetLength());
  }
  static DataType SerialStringToDataType(const std::string &str) {
    return AscendStringToDataType(AscendString(str.c_str(), str.size()));
  }
  static std::string FormatToSerialString(Format format) {
    const AscendString s = FormatToAscendString(format);
    return std::string(s.GetString(), s.GetLength());
  }
  static Format SerialStringToFormat(const std::string &str) {
    return AscendStringToFormat(AscendString(str.c_str(), str.size()));
  }
};

}  // namespace ge

#endif  // OPENATC_GRAPH_UTILS_TYPE_UTILS_H_
