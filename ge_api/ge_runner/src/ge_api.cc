// GEInitialize / GEFinalize / GEGetErrorMsgV2 / GEGetWarningMsgV2 (ge/ge_api.h).
#include "ge/ge_api.h"
#include "ge_state.h"

namespace ge {

Status GEInitialize(const std::map<AscendString, AscendString> &options) {
  openatc::ge_runner::ClearLastError();
  return openatc::ge_runner::Guard([&] { openatc::ge_runner::Initialize(openatc::ge_runner::ToOptions(options)); });
}

Status GEFinalize() {
  openatc::ge_runner::ClearLastError();
  openatc::ge_runner::Finalize();
  return SUCCESS;
}

AscendString GEGetErrorMsgV2() {
  const std::string &msg = openatc::ge_runner::LastError();
  return AscendString(msg.c_str(), msg.size());
}

AscendString GEGetWarningMsgV2() {
  const std::string w = openatc::ge_runner::TakeWarnings();
  return AscendString(w.c_str(), w.size());
}

}  // namespace ge
