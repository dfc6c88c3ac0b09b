// aclrtCreateStream/DestroyStream/SynchronizeStream and launch observers. Streams are in order
// and every operation completes before its call returns, so synchronizing only validates.
#include "stream.h"

#include <mutex>
#include <sstream>
#include <unordered_set>

#include "openatc/rt/error_state.h"

namespace openatc {
namespace rt {

struct Stream {
  LaunchObserver observer;
};

namespace {

std::mutex g_mutex;
std::unordered_set<Stream *> &Live() {
  static std::unordered_set<Stream *> live;
  return live;
}
Stream &DefaultStream() {
  static Stream s;
  return s;
}

std::string Describe(const void *p) {
  std::ostringstream o;
  o << p;
  return o.str();
}

Stream *ResolveLocked(aclrtStream handle) {
  if (handle == nullptr) return &DefaultStream();
  Stream *s = static_cast<Stream *>(handle);
  if (Live().count(s) == 0) {
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "stream " + Describe(handle) + " is not a live stream",
             "Pass a stream from aclrtCreateStream that was not destroyed, or nullptr for the default stream");
  }
  return s;
}

}  // namespace

Stream *ResolveStream(aclrtStream handle) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return ResolveLocked(handle);
}

LaunchObserver ObserverOf(Stream *stream) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return stream->observer;
}

aclError SetLaunchObserver(aclrtStream stream, LaunchObserver observer) {
  return Guard("SetLaunchObserver", [&] {
    std::lock_guard<std::mutex> lock(g_mutex);
    ResolveLocked(stream)->observer = std::move(observer);
  });
}

aclError ClearLaunchObserver(aclrtStream stream) {
  return Guard("ClearLaunchObserver", [&] {
    std::lock_guard<std::mutex> lock(g_mutex);
    ResolveLocked(stream)->observer = nullptr;
  });
}

}  // namespace rt
}  // namespace openatc

using namespace openatc::rt;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream) {
  return Guard("aclrtCreateStream", [&] {
    if (stream == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "stream is a null pointer");
    auto *s = new Stream();
    std::lock_guard<std::mutex> lock(g_mutex);
    Live().insert(s);
    *stream = s;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream) {
  return Guard("aclrtDestroyStream", [&] {
    if (stream == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "stream is null; the default stream cannot be destroyed");
    std::lock_guard<std::mutex> lock(g_mutex);
    Stream *s = ResolveLocked(stream);
    Live().erase(s);
    delete s;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Guard("aclrtSynchronizeStream", [&] { ResolveStream(stream); });
}

}  // extern "C"
