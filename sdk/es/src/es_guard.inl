// Guarded: the one place C entry points of libeager_style_graph_builder_base catch exceptions.
#include <exception>
#include <new>

namespace openatc::es {

template <typename T>
T Guarded(T failed, const std::function<T()> &body) {
  try {
    SetLastError("");
    return body();
  } catch (const std::bad_alloc &) {
    SetLastError("out of memory");
  } catch (const std::exception &e) {
    SetLastError(e.what());
  } catch (...) {
    SetLastError("unexpected failure (non-standard exception)");
  }
  return failed;
}

}  // namespace openatc::es
