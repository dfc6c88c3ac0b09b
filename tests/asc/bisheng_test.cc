// The host bisheng driver (device/rtc/bisheng/): `bisheng -c x.asc -o x.o` gives a host object whose
// allocated .aicore_binary section holds the kernel shared object; llvm-objcopy extracts it and
// the runtime loads and launches it. Options and errors as the README lists them.
#include <catch2/catch.hpp>
#include <elf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

std::string Env(const char *name) {
  const char *v = std::getenv(name);
  REQUIRE(v != nullptr);
  return v;
}

std::string Kernels() { return Env("OPENATC_SOURCE_DIR") + "/tests/asc/kernels"; }

/** A fresh temporary folder, removed at exit. */
std::string WorkDir() {
  static std::string dir;
  if (dir.empty()) {
    char templ[] = "/tmp/bisheng_test_XXXXXX";
    REQUIRE(mkdtemp(templ) != nullptr);
    dir = templ;
    std::atexit([] { (void)std::system(("rm -rf '" + dir + "'").c_str()); });
  }
  return dir;
}

struct Run {
  int rc = -1;
  std::string output;  // stdout + stderr
};

Run Shell(const std::string &command) {
  Run r;
  FILE *p = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Run Bisheng(const std::string &args) { return Shell(Env("OPENATC_BISHENG") + " " + args); }

std::vector<uint8_t> ReadBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/** The bytes and flags of section `name` of a 64-bit ELF file. */
bool Section(const std::vector<uint8_t> &elf, const std::string &name, std::vector<uint8_t> *bytes, uint64_t *flags,
             uint16_t *type) {
  REQUIRE(elf.size() >= sizeof(Elf64_Ehdr));
  Elf64_Ehdr h;
  std::memcpy(&h, elf.data(), sizeof h);
  *type = h.e_type;
  std::vector<Elf64_Shdr> sh(h.e_shnum);
  std::memcpy(sh.data(), elf.data() + h.e_shoff, h.e_shnum * sizeof(Elf64_Shdr));
  const char *names = reinterpret_cast<const char *>(elf.data() + sh[h.e_shstrndx].sh_offset);
  for (const Elf64_Shdr &s : sh) {
    if (name == names + s.sh_name) {
      bytes->assign(elf.begin() + static_cast<long>(s.sh_offset), elf.begin() + static_cast<long>(s.sh_offset + s.sh_size));
      *flags = s.sh_flags;
      return true;
    }
  }
  return false;
}

struct __attribute__((packed)) Args3 {
  const void *x __attribute__((aligned(8)));
  const void *y __attribute__((aligned(8)));
  void *z __attribute__((aligned(8)));
};

/** Launches add_custom of `bin` on 3 blocks (48 floats) and checks z = 2x + y exactly. */
void LaunchVadd(aclrtBinHandle bin) {
  aclrtFuncHandle f = nullptr;
  REQUIRE(aclrtBinaryGetFunction(bin, "add_custom", &f) == ACL_SUCCESS);
  std::vector<float> x(48), y(48), z(48, -1.0f);
  for (int i = 0; i < 48; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.25f * static_cast<float>(i);
  }
  Args3 args{x.data(), y.data(), z.data()};
  REQUIRE(aclrtLaunchKernelWithHostArgs(f, 3, nullptr, nullptr, &args, sizeof args, nullptr, 0) == ACL_SUCCESS);
  for (int i = 0; i < 48; ++i) REQUIRE(z[i] == 2.25f * static_cast<float>(i));
}

}  // namespace

TEST_CASE("bisheng -c: the object's .aicore_binary, extracted by llvm-objcopy, loads and launches", "[asc][bisheng]") {
  const std::string obj = WorkDir() + "/vadd.host.o", bin = WorkDir() + "/vadd.aicore.o";
  Run c = Bisheng("-c " + Kernels() + "/vadd.asc -o " + obj + " --npu-arch=dav-2201 -I" + Kernels() +
                  " -DUNUSED=1 -O2 -g -std=c++17 -fPIC -x asc -Wall");
  INFO(c.output);
  REQUIRE(c.rc == 0);
  REQUIRE(c.output.empty());
  std::vector<uint8_t> section;
  uint64_t flags = 0;
  uint16_t type = 0;
  REQUIRE(Section(ReadBytes(obj), ".aicore_binary", &section, &flags, &type));
  REQUIRE(type == ET_REL);
  REQUIRE((flags & SHF_ALLOC) != 0);
  REQUIRE(Shell("llvm-objcopy -O binary --only-section=.aicore_binary " + obj + " " + bin).rc == 0);
  const std::vector<uint8_t> bytes = ReadBytes(bin);
  REQUIRE(bytes == section);
  REQUIRE(bytes.size() > 4);
  REQUIRE(std::memcmp(bytes.data(), ELFMAG, SELFMAG) == 0);

  aclrtBinaryLoadOption option;
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  aclrtBinaryLoadOptions options{&option, 1};
  aclrtBinHandle h = nullptr;
  REQUIRE(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), &options, &h) == ACL_SUCCESS);
  LaunchVadd(h);
  REQUIRE(aclrtBinaryUnLoad(h) == ACL_SUCCESS);

  // The same command gives the same object (reproducible output).
  Run again = Bisheng("-c " + Kernels() + "/vadd.asc -o " + obj + ".2 --npu-arch=dav-2201 -I" + Kernels() +
                      " -DUNUSED=1 -O2 -g -std=c++17 -fPIC -x asc -Wall");
  REQUIRE(again.rc == 0);
  REQUIRE(ReadBytes(obj + ".2") == ReadBytes(obj));
}

TEST_CASE("bisheng -shared gives a shared object the runtime loads from its file", "[asc][bisheng]") {
  const std::string so = WorkDir() + "/libvadd.so";
  Run s = Bisheng("-shared " + Kernels() + "/vadd.asc -o " + so + " --npu-soc=Ascend910B1");
  INFO(s.output);
  REQUIRE(s.rc == 0);
  aclrtBinHandle h = nullptr;
  REQUIRE(aclrtBinaryLoadFromFile(so.c_str(), nullptr, &h) == ACL_SUCCESS);
  LaunchVadd(h);
  REQUIRE(aclrtBinaryUnLoad(h) == ACL_SUCCESS);
}

TEST_CASE("bisheng refuses unknown options and chips and reports compile errors at the user's line", "[asc][bisheng]") {
  const std::string src = Kernels() + "/vadd.asc";
  Run opt = Bisheng("-c " + src + " --frobnicate");
  REQUIRE(opt.rc == 2);
  REQUIRE(opt.output.rfind("bisheng: error: OA3101: option '--frobnicate' is not supported by the host bisheng driver. "
                           "Run 'bisheng --help'",
                           0) == 0);
  Run arch = Bisheng("-c " + src + " -o " + WorkDir() + "/x.o --npu-arch=dav-1234");
  REQUIRE(arch.rc == 2);
  REQUIRE(arch.output.rfind("bisheng: error: OA3101: '" + src + "': --npu-arch=dav-1234 is not an NPU architecture this "
                            "host toolchain emulates. Pass --npu-arch=dav-<n> with one of: dav-2201 (Ascend910B1)",
                            0) == 0);
  Run mode = Bisheng(src);
  REQUIRE(mode.rc == 2);
  REQUIRE(mode.output == "bisheng: error: OA3101: neither -c nor -shared given. Pass -c for an object or -shared -o <lib.so>.\n");
  Run missing = Bisheng("-c " + WorkDir() + "/none.asc");
  REQUIRE(missing.rc == 1);
  REQUIRE(missing.output.rfind("bisheng: error: OA3102: '" + WorkDir() + "/none.asc': cannot open the source file.", 0) == 0);
  const std::string broken = Kernels() + "/broken.asc";
  Run bad = Bisheng("-c " + broken + " -o " + WorkDir() + "/broken.o --npu-arch=dav-2201");
  REQUIRE(bad.rc == 1);
  REQUIRE(bad.output.find(broken + ":5:3: error: use of undeclared identifier 'undeclared_name'") != std::string::npos);
  REQUIRE(bad.output.find("bisheng: error: OA3103: '" + broken + "': compiling the kernel shared object failed. Fix the "
                          "errors reported above.") != std::string::npos);
  REQUIRE(access((WorkDir() + "/broken.o").c_str(), F_OK) != 0);
}
