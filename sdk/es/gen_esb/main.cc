// gen_esb: writes the ES wrappers (C, C++, Python) of the REG_OP prototypes in the proto
// libraries named by ASCEND_OPP_PATH (README.md "Python graphs, sessions and ES wrappers").
//   ASCEND_OPP_PATH=<lib.so or dir>[:...] gen_esb --output_dir=DIR --module_name=NAME [--exclude_ops=A,B]
// A directory entry loads every *.so directly inside it, in name order.
#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "es_model.h"

namespace {

using openatc::es::EsOpModel;

[[noreturn]] void Fail(const std::string &code, const std::string &what, const std::string &fix) {
  std::cerr << "gen_esb: error: " << code << ": " << what << ". " << fix << "\n";
  std::exit(1);
}

struct Args {
  std::string output_dir, module;
  std::set<std::string> exclude;
};

std::vector<std::string> Split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

Args ParseArgs(int argc, char **argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "--output_dir" && !value.empty()) a.output_dir = value;
    else if (key == "--module_name" && !value.empty()) a.module = value;
    else if (key == "--exclude_ops") for (const auto &op : Split(value, ',')) a.exclude.insert(op);
    else Fail("OA1901", "unknown or empty option '" + arg + "'",
              "Use --output_dir=DIR --module_name=NAME [--exclude_ops=A,B]");
  }
  if (a.output_dir.empty() || a.module.empty())
    Fail("OA1901", "--output_dir and --module_name are required", "Pass both, e.g. --module_name=custom");
  for (char c : a.module)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      Fail("OA1901", "module name '" + a.module + "' is not an identifier", "Use letters, digits and '_'");
  return a;
}

std::vector<std::string> ProtoLibraries(const std::string &opp_path) {
  std::vector<std::string> libs;
  for (const auto &entry : Split(opp_path, ':')) {
    struct stat st{};
    if (::stat(entry.c_str(), &st) != 0)
      Fail("OA1902", "ASCEND_OPP_PATH entry '" + entry + "' does not exist", "Point it at the proto library");
    if (S_ISREG(st.st_mode)) {
      libs.push_back(entry);
      continue;
    }
    std::vector<std::string> found;
    if (DIR *d = ::opendir(entry.c_str())) {
      while (dirent *e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 3 && n.compare(n.size() - 3, 3, ".so") == 0) found.push_back(entry + "/" + n);
      }
      ::closedir(d);
    }
    std::sort(found.begin(), found.end());
    libs.insert(libs.end(), found.begin(), found.end());
  }
  if (libs.empty())
    Fail("OA1902", "ASCEND_OPP_PATH ('" + opp_path + "') names no proto library",
         "Set ASCEND_OPP_PATH to the REG_OP library (or its folder)");
  return libs;
}

void WriteFile(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.good()) Fail("OA1903", "cannot write '" + path + "'", "Check that the output folder is writable");
}

}  // namespace

int main(int argc, char **argv) {
  const Args args = ParseArgs(argc, argv);
  const char *opp = std::getenv("ASCEND_OPP_PATH");
  if (opp == nullptr || *opp == '\0')
    Fail("OA1902", "ASCEND_OPP_PATH is not set", "Set it to the REG_OP proto library (or its folder)");
  const auto before = openatc::reg::RegisteredPrototypeTypes();
  for (const auto &lib : ProtoLibraries(opp)) {
    if (::dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      const char *why = ::dlerror();
      Fail("OA1902", "'" + lib + "' does not load: " + (why ? why : "unknown error"),
           "Build it against this install's libgraph/libregister");
    }
  }
  const std::set<std::string> old(before.begin(), before.end());
  std::vector<EsOpModel> ops;
  for (const auto &type : openatc::reg::RegisteredPrototypeTypes()) {
    if (old.count(type) || args.exclude.count(type)) continue;
    EsOpModel model;
    std::string why;
    if (!openatc::es::BuildModel(*openatc::reg::FindOpPrototype(type), model, why)) {
      std::cerr << "gen_esb: warning: op '" << type << "' gets no ES wrapper: " << why << "\n";
      continue;
    }
    ops.push_back(std::move(model));
  }
  ::mkdir(args.output_dir.c_str(), 0755);
  const std::string stem = args.output_dir + "/" + openatc::es::FileStem(args.module);
  WriteFile(stem + "_c.h", openatc::es::WriteCHeader(args.module, ops));
  WriteFile(stem + ".h", openatc::es::WriteCppHeader(args.module, ops));
  WriteFile(stem + ".cc", openatc::es::WriteCSource(args.module, ops));
  WriteFile(stem + ".py", openatc::es::WritePython(args.module, ops));
  std::cout << "gen_esb: module '" << args.module << "': " << ops.size() << " op(s) written to " << args.output_dir
            << "\n";
  return 0;
}
