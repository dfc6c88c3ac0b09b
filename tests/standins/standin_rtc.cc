// STAND-IN for CANN's libacl_rtc.so, built only for tests. It is NOT CANN and compiles nothing:
// CANN is proprietary and cannot be installed here, so OpenATC's forwarding of aclrtc* to CANN's
// RTC (device/rtc/src/cann_rtc.cc) is tested against this library, installed by
// tests/standins/CMakeLists.txt as <build>/tests/standins/ascend_home/lib64/libacl_rtc.so.
//
// Recognisable behaviour: aclrtcCompileProg "compiles" any source into a fixed ELF-looking blob
//   "\x7f" "ELF" "OPENATC-STANDIN-CANN-RTC\n" "name=<prog name>\n" "source-fnv1a64=<16 hex>\n"
//   "options=<each option, space-separated>\n"
// and writes "stand-in CANN RTC: compiled <name>\n" as the compile log. A program whose source
// contains the marker STANDIN_COMPILE_ERROR fails with ACL_ERROR_RTC_COMPILATION (176003) and
// its log says so.
// Only the entry points OpenATC forwards are implemented.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

extern "C" {
typedef int aclError;
typedef void *aclrtcProg;
}

namespace {

constexpr aclError kInvalidInput = 176001;
constexpr aclError kCompilation = 176003;

struct Prog {
  std::string source, name, binary, log;
};

uint64_t Fnv1a64(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

#define STANDIN_EXPORT extern "C" __attribute__((visibility("default")))

STANDIN_EXPORT aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                                         const char **headers, const char **includeNames) {
  (void)numHeaders;
  (void)headers;
  (void)includeNames;
  if (prog == nullptr || src == nullptr || name == nullptr) return kInvalidInput;
  *prog = new Prog{src, name, "", ""};
  return 0;
}

STANDIN_EXPORT aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options) {
  if (prog == nullptr || numOptions < 0) return kInvalidInput;
  auto *p = static_cast<Prog *>(prog);
  if (p->source.find("STANDIN_COMPILE_ERROR") != std::string::npos) {
    p->log = "stand-in CANN RTC: " + p->name + ": STANDIN_COMPILE_ERROR in source\n";
    return kCompilation;
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(Fnv1a64(p->source)));
  std::string opts;
  for (int i = 0; i < numOptions; ++i) opts += (i ? " " : "") + std::string(options[i] ? options[i] : "(null)");
  p->binary = std::string("\x7f" "ELF") + "OPENATC-STANDIN-CANN-RTC\nname=" + p->name + "\nsource-fnv1a64=" + hash +
              "\noptions=" + opts + "\n";
  p->log = "stand-in CANN RTC: compiled " + p->name + "\n";
  return 0;
}

STANDIN_EXPORT aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *size) {
  if (prog == nullptr || size == nullptr) return kInvalidInput;
  *size = static_cast<Prog *>(prog)->binary.size();
  return 0;
}

STANDIN_EXPORT aclError aclrtcGetBinData(aclrtcProg prog, char *data) {
  if (prog == nullptr || data == nullptr) return kInvalidInput;
  const std::string &b = static_cast<Prog *>(prog)->binary;
  std::memcpy(data, b.data(), b.size());
  return 0;
}

STANDIN_EXPORT aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *size) {
  if (prog == nullptr || size == nullptr) return kInvalidInput;
  *size = static_cast<Prog *>(prog)->log.size() + 1;
  return 0;
}

STANDIN_EXPORT aclError aclrtcGetCompileLog(aclrtcProg prog, char *log) {
  if (prog == nullptr || log == nullptr) return kInvalidInput;
  const std::string &l = static_cast<Prog *>(prog)->log;
  std::memcpy(log, l.c_str(), l.size() + 1);
  return 0;
}

STANDIN_EXPORT aclError aclrtcDestroyProg(aclrtcProg *prog) {
  if (prog == nullptr || *prog == nullptr) return kInvalidInput;
  delete static_cast<Prog *>(*prog);
  *prog = nullptr;
  return 0;
}
