// The aclrtc* C API of the host RTC (docs/acl.md §2 "RTC"): program objects,
// compile through compiler.cc, binary and log retrieval. Failures return ACL_ERROR_RTC_* codes
// and are reported through aclGetRecentErrMsg (libascendcl); compile problems also land in
// the program's compile log.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_set>

#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "compiler.h"
#include "kernel_cache.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/rt/runtime.h"
#include "options.h"
#include "source_prep.h"

namespace openatc {
namespace rtc {
namespace {

struct Program {
  std::string source;
  std::string name;
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<NameExpr> exprs;  // aclrtcAddNameExpr, in order
  std::vector<uint8_t> binary;
  std::string log;
  bool compiled = false;
  std::mutex mutex;  // one compile at a time per program
};

std::mutex g_mutex;
std::unordered_set<Program *> &Live() {
  static auto *live = new std::unordered_set<Program *>();
  return *live;
}

[[noreturn]] void Throw(int code, const std::string &message, const std::string &hint = {}) {
  throw openatc::Error(ErrorCategory::kUsage, "ACL" + std::to_string(code), message, hint);
}

int CodeOf(const openatc::Error &e) {
  const std::string &c = e.code();
  if (c.rfind("ACL", 0) == 0) return std::atoi(c.c_str() + 3);
  return ACL_ERROR_RTC_FAILURE;
}

std::string Text(const openatc::Error &e) {
  std::string s = e.message();
  if (!s.empty() && s.back() != '.') s += '.';
  if (!e.hint().empty()) s += " " + e.hint() + (e.hint().back() == '.' ? "" : ".");
  return s;
}

aclError Record(const char *api, int code, const std::string &text) {
  std::string full = std::string(api) + ": " + text;
  openatc::rt::SetRecentError(full.c_str());
  LogDebug(full + " (error " + std::to_string(code) + ")");
  return code;
}

template <typename F>
aclError Guard(const char *api, F &&body) {
  try {
    body();
    return 0;
  } catch (const openatc::Error &e) {
    return Record(api, CodeOf(e), Text(e));
  } catch (const std::bad_alloc &) {
    return Record(api, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception &e) {
    return Record(api, ACL_ERROR_RTC_FAILURE, std::string("internal error: ") + e.what());
  }
}

Program *Resolve(aclrtcProg prog) {
  if (prog == nullptr) Throw(ACL_ERROR_RTC_INVALID_INPUT, "prog is null", "Pass a program from aclrtcCreateProg");
  auto *p = static_cast<Program *>(prog);
  std::lock_guard<std::mutex> lock(g_mutex);
  if (Live().count(p) == 0) {
    Throw(ACL_ERROR_RTC_INVALID_PROG, "prog is not a live program (never created, or destroyed)",
          "Pass a program from aclrtcCreateProg");
  }
  return p;
}

Program *Compiled(aclrtcProg prog) {
  Program *p = Resolve(prog);
  if (!p->compiled) {
    Throw(ACL_ERROR_RTC_INVALID_PROG, "program '" + p->name + "' has no binary: it was not compiled successfully",
          "Call aclrtcCompileProg and check its result first");
  }
  return p;
}

/** The first line of a compiler log that carries "error", else its first line. */
std::string FirstErrorLine(const std::string &log) {
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    std::string line = log.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.find("error") != std::string::npos) return line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return log.substr(0, log.find('\n'));
}

void CheckOut(const void *p, const char *name) {
  if (p == nullptr) Throw(ACL_ERROR_RTC_INVALID_INPUT, std::string(name) + " is a null pointer");
}

}  // namespace
}  // namespace rtc
}  // namespace openatc

using namespace openatc::rtc;

extern "C" {

ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                                              const char **headers, const char **includeNames) {
  return Guard("aclrtcCreateProg", [&] {
    CheckOut(prog, "prog");
    CheckOut(src, "src");
    CheckOut(name, "name");
    if (numHeaders < 0) Throw(ACL_ERROR_RTC_INVALID_INPUT, "numHeaders is negative (" + std::to_string(numHeaders) + ")");
    if (numHeaders > 0 && (headers == nullptr || includeNames == nullptr)) {
      Throw(ACL_ERROR_RTC_INVALID_INPUT, "numHeaders is " + std::to_string(numHeaders) + " but headers or includeNames is null");
    }
    auto p = std::make_unique<Program>();
    p->source = src;
    p->name = name;
    for (int i = 0; i < numHeaders; ++i) {
      if (headers[i] == nullptr || includeNames[i] == nullptr) {
        Throw(ACL_ERROR_RTC_INVALID_INPUT, "header " + std::to_string(i) + " or its include name is null");
      }
      std::string inc = includeNames[i];
      if (inc.empty() || inc.find('/') != std::string::npos || inc == "." || inc == "..") {
        Throw(ACL_ERROR_RTC_INVALID_INPUT, "include name '" + inc + "' of header " + std::to_string(i) + " is not a plain file name",
              "Name in-memory headers like \"my_kernel.h\" (no folders)");
      }
      p->headers.emplace_back(inc, headers[i]);
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    Live().insert(p.get());
    *prog = p.release();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options) {
  return Guard("aclrtcCompileProg", [&] {
    Program *p = Resolve(prog);
    std::lock_guard<std::mutex> lock(p->mutex);
    p->compiled = false;
    p->binary.clear();
    p->log.clear();
    CompileRequest request;
    try {
      request.user_flags = TranslateOptions(numOptions, options);
    } catch (const openatc::Error &e) {
      p->log = Text(e) + "\n";
      throw;
    }
    request.source = PrepareAscendC(p->source, p->name, p->exprs);
    request.headers = p->headers;
    CompileResult r = CompileThroughCache(request, p->name, [&] { return Compile(request); });
    p->log = r.log;
    if (!r.ok) {
      std::string first_line = FirstErrorLine(r.log);
      Throw(ACL_ERROR_RTC_COMPILATION, "compiling program '" + p->name + "' with " + CompilerPath() + " failed: " + first_line,
            "See the compile log (aclrtcGetCompileLog) for every message");
    }
    p->binary = std::move(r.binary);
    p->compiled = true;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcAddNameExpr(aclrtcProg prog, const char *const nameExpression) {
  return Guard("aclrtcAddNameExpr", [&] {
    Program *p = Resolve(prog);
    CheckOut(nameExpression, "nameExpression");
    std::string e = nameExpression;
    if (e.empty() || !(std::isalpha(static_cast<unsigned char>(e[0])) || e[0] == '_' || e[0] == ':')) {
      Throw(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID, "name expression '" + e + "' does not start with a kernel name",
            "Pass a kernel name with its template arguments, e.g. \"my_kernel<float, 8>\"");
    }
    std::lock_guard<std::mutex> lock(p->mutex);
    if (p->compiled) {
      Throw(ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION, "program '" + p->name + "' is already compiled",
            "Add name expressions before aclrtcCompileProg");
    }
    for (const NameExpr &x : p->exprs) {
      if (x.expression == e) return;
    }
    p->exprs.push_back({e, LoweredName(e, p->exprs.size())});
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcGetLoweredName(aclrtcProg prog, const char *nameExpression, const char **loweredName) {
  return Guard("aclrtcGetLoweredName", [&] {
    Program *p = Resolve(prog);
    CheckOut(nameExpression, "nameExpression");
    CheckOut(loweredName, "loweredName");
    std::lock_guard<std::mutex> lock(p->mutex);
    if (!p->compiled) {
      Throw(ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION, "program '" + p->name + "' is not compiled yet",
            "Call aclrtcCompileProg first");
    }
    for (const NameExpr &x : p->exprs) {
      if (x.expression == nameExpression) {
        *loweredName = x.lowered.c_str();
        return;
      }
    }
    Throw(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
          "name expression '" + std::string(nameExpression) + "' was not added to program '" + p->name + "'",
          "Add it with aclrtcAddNameExpr before compiling");
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet) {
  return Guard("aclrtcGetBinDataSize", [&] {
    CheckOut(binDataSizeRet, "binDataSizeRet");
    *binDataSizeRet = Compiled(prog)->binary.size();
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcGetBinData(aclrtcProg prog, char *binData) {
  return Guard("aclrtcGetBinData", [&] {
    CheckOut(binData, "binData");
    Program *p = Compiled(prog);
    std::memcpy(binData, p->binary.data(), p->binary.size());
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet) {
  return Guard("aclrtcGetCompileLogSize", [&] {
    CheckOut(logSizeRet, "logSizeRet");
    *logSizeRet = Resolve(prog)->log.size() + 1;
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLog(aclrtcProg prog, char *log) {
  return Guard("aclrtcGetCompileLog", [&] {
    CheckOut(log, "log");
    Program *p = Resolve(prog);
    std::memcpy(log, p->log.c_str(), p->log.size() + 1);
  });
}

ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg *prog) {
  return Guard("aclrtcDestroyProg", [&] {
    CheckOut(prog, "prog");
    Program *p = Resolve(*prog);
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      Live().erase(p);
    }
    delete p;
    *prog = nullptr;
  });
}

}  // extern "C"
