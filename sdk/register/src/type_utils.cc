// ge::TypeUtils (graph/utils/type_utils.h) over the serial-name tables of openatc/common/dtype.h.
#include "sdk_visibility.h"

#include "graph/utils/type_utils.h"
#include "openatc/common/dtype.h"

namespace ge {

AscendString TypeUtils::DataTypeToAscendString(DataType data_type) {
  const std::string s = openatc::DataTypeName(data_type);
  return AscendString(s.c_str(), s.size());
}

DataType TypeUtils::AscendStringToDataType(const AscendString &str) {
  DataType dt = DT_UNDEFINED;
  if (!openatc::ParseDataTypeName(std::string(str.GetString(), str.GetLength()), &dt)) return DT_UNDEFINED;
  return dt;
}

AscendString TypeUtils::FormatToAscendString(Format format) {
  const std::string s = openatc::FormatName(format);
  return AscendString(s.c_str(), s.size());
}

Format TypeUtils::AscendStringToFormat(const AscendString &str) {
  const std::string s(str.GetString(), str.GetLength());
  if (s == "RESERVED" || s == "UNDEFINED") return FORMAT_RESERVED;
  Format f = FORMAT_RESERVED;
  if (!openatc::ParseFormatName(s, &f)) return FORMAT_RESERVED;
  return f;
}

}  // namespace ge
