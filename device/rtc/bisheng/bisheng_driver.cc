// The host bisheng driver's command line and compile steps (bisheng_driver.h).
#include "bisheng_driver.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "compiler.h"
#include "openatc/common/error.h"
#include "source_prep.h"

namespace openatc {
namespace bisheng {
namespace {

[[noreturn]] void Usage(const std::string &what, const std::string &hint) {
  throw openatc::Error(ErrorCategory::kUsage, "OA3101", what, hint);
}

bool StartsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

const char kHint[] =
    "Run 'bisheng --help' for the options of the host driver (-c, -shared, -o, -x asc, -fPIC, -W*, -U, -isystem, "
    "and the compile options -D -I -O -g -std --npu-arch --npu-soc)";

std::string ReadSource(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw openatc::Error(ErrorCategory::kIo, "OA3102", "cannot open the source file", "Check the path").WithFile(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw openatc::Error(ErrorCategory::kIo, "OA3102", "cannot read the source file").WithFile(path);
  return text;
}

void WriteOutput(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    throw openatc::Error(ErrorCategory::kIo, "OA3104", "cannot write the output file", "Check that its folder exists and is writable")
        .WithFile(path);
  }
}

/** Compiles or throws OA3103 with the compiler's messages already on stderr. */
std::vector<uint8_t> CompileOrFail(const rtc::CompileRequest &request, const std::string &input, const char *what) {
  rtc::CompileResult r = rtc::Compile(request);
  if (!r.log.empty()) std::fputs(r.log.c_str(), stderr);
  if (!r.ok) {
    throw openatc::Error(ErrorCategory::kInvalidInput, "OA3103", std::string("compiling the ") + what + " failed",
                         "Fix the errors reported above")
        .WithFile(input);
  }
  return r.binary;
}

/** `bytes` as an array in the allocated section .aicore_binary (its only content). */
std::string AicoreSection(const std::vector<uint8_t> &bytes) {
  std::ostringstream o;
  o << "#line 1 \"<openatc-aicore-binary>\"\n"
    << "__attribute__((section(\".aicore_binary\"), used, aligned(1))) static const unsigned char "
       "openatc_aicore_binary_["
    << bytes.size() << "] = {";
  for (size_t i = 0; i < bytes.size(); ++i) o << (i % 32 == 0 ? "\n" : "") << static_cast<unsigned>(bytes[i]) << ',';
  o << "\n};\n";
  return o.str();
}

std::string Folder(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

std::string Usage() {
  return "usage: bisheng -c <file.asc> [-o <file.o>] [options]   (a host relocatable object)\n"
         "       bisheng -shared <file.asc> -o <lib.so> [options] (a host shared object)\n"
         "Ascend C compiled for this CPU: the kernels and the host code of the file go into the output, and the\n"
         "kernel shared object (what aclrtBinaryLoadFromData loads) into its allocated section .aicore_binary.\n"
         "options: --npu-arch=dav-<n> | --npu-soc=<SoC> (chip facts; --npu-arch wins), -D<x>[=v], -I<dir>,\n"
         "         -isystem <dir>, -U<x>, -O0|1|2|3|s|z, -g, -std=<std>, -W<warning>, -w, -fPIC, -fpic, -x asc\n";
}

Job ParseCommandLine(const std::vector<std::string> &args) {
  Job job;
  auto next = [&](size_t &i, const std::string &flag) -> std::string {
    if (i + 1 >= args.size()) Usage("option '" + flag + "' needs a value", kHint);
    return args[++i];
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-c" || a == "-shared") {
      Job::Mode m = a == "-c" ? Job::Mode::kObject : Job::Mode::kShared;
      if (job.mode_given && job.mode != m) Usage("-c and -shared cannot be combined", kHint);
      job.mode = m;
      job.mode_given = true;
    } else if (a == "-o") {
      job.output = next(i, a);
    } else if (StartsWith(a, "-o") && a.size() > 2) {
      job.output = a.substr(2);
    } else if (a == "-x" || a == "-xasc") {
      std::string lang = a == "-x" ? next(i, a) : "asc";
      if (lang != "asc") Usage("language '" + lang + "' of -x is not supported", "Pass -x asc (Ascend C)");
    } else if (a == "-I" || a == "-D") {
      job.options.flags.push_back(a + next(i, a));
    } else if (a == "--npu-arch" || a == "--npu-soc") {
      rtc::ReadCompileOption(a + "=" + next(i, a), job.options);
    } else if (a == "-isystem") {
      job.passthrough.push_back(a);
      job.passthrough.push_back(next(i, a));
    } else if (a == "-fPIC" || a == "-fpic" || a == "-w" || (StartsWith(a, "-W") && a.size() > 2 && !StartsWith(a, "-Wl,")) ||
               (StartsWith(a, "-U") && a.size() > 2)) {
      job.passthrough.push_back(a);
    } else if (a == "--help" || a == "-h") {
      job.help = true;
    } else if (a == "--version") {
      job.version = true;
    } else if (rtc::ReadCompileOption(a, job.options)) {
    } else if (!a.empty() && a[0] == '-') {
      Usage("option '" + a + "' is not supported by the host bisheng driver", kHint);
    } else {
      if (!job.input.empty()) Usage("more than one source file ('" + job.input + "', '" + a + "')", "Compile one file per call");
      job.input = a;
    }
  }
  if (job.help || job.version) return job;
  if (job.input.empty()) Usage("no source file given", kHint);
  if (!job.mode_given) Usage("neither -c nor -shared given", "Pass -c for an object or -shared -o <lib.so>");
  if (job.output.empty()) {
    if (job.mode == Job::Mode::kShared) Usage("-shared needs -o <lib.so>", kHint);
    size_t slash = job.input.rfind('/');
    std::string base = slash == std::string::npos ? job.input : job.input.substr(slash + 1);
    job.output = base.substr(0, base.rfind('.')) + ".o";
  }
  return job;
}

void Run(const Job &job) {
  const std::string text = ReadSource(job.input);
  rtc::CompileRequest request;
  try {
    request.user_flags = rtc::FinishOptions(job.options, false);
    request.source = rtc::PrepareAscendC(text, job.input, {});
  } catch (const openatc::Error &e) {
    throw openatc::Error(ErrorCategory::kUsage, "OA3101", e.message(), e.hint()).WithFile(job.input);
  }
  request.user_flags.insert(request.user_flags.end(), job.passthrough.begin(), job.passthrough.end());
  request.user_flags.push_back("-iquote");
  request.user_flags.push_back(Folder(job.input));
  const std::vector<uint8_t> kernel = CompileOrFail(request, job.input, "kernel shared object");

  rtc::CompileRequest host = request;
  host.source += AicoreSection(kernel);
  host.object = job.mode == Job::Mode::kObject;
  rtc::CompileResult r = rtc::Compile(host);
  if (!r.ok) {
    std::fputs(r.log.c_str(), stderr);
    throw openatc::Error(ErrorCategory::kInvalidInput, "OA3103", "compiling the host object failed", "Fix the errors reported above")
        .WithFile(job.input);
  }
  WriteOutput(job.output, r.binary);
}

}  // namespace bisheng
}  // namespace openatc
