// openatc::WriteFileAtomic (common/): content, the temp file's name and removal, each failing
// step with its errno, the target untouched on failure.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <catch2/catch.hpp>

#include "openatc/common/atomic_file.h"

using namespace openatc;

namespace {
std::string TempDir() {
  char tmpl[] = "/tmp/openatc_atomic_XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}
std::string Read(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
bool Exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}
}  // namespace

TEST_CASE("atomic file: the temp file sits beside the target, hidden, named by pid") {
  const std::string pid = std::to_string(::getpid());
  CHECK(AtomicTempPath("out/m.om") == "out/.m.om.tmp." + pid);
  CHECK(AtomicTempPath("m.om") == ".m.om.tmp." + pid);
  CHECK(AtomicTempPath("/m.om") == "/.m.om.tmp." + pid);
}

TEST_CASE("atomic file: writes the bytes, replaces an old file, leaves no temp file") {
  const std::string dir = TempDir();
  const std::string path = dir + "/a.bin";
  { std::ofstream(path) << "old contents"; }
  const std::string text = std::string("new\0bytes", 9);
  CHECK_FALSE(WriteFileAtomic(path, text.data(), text.size()).has_value());
  CHECK(Read(path) == text);
  CHECK_FALSE(Exists(AtomicTempPath(path)));
  CHECK_FALSE(WriteFileAtomic(path, nullptr, 0).has_value());  // an empty file is fine
  CHECK(Read(path).empty());
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("atomic file: not durable (no fsync) writes the same way, and fails the same way") {
  const std::string dir = TempDir();
  const std::string path = dir + "/c.bin";
  { std::ofstream(path) << "old"; }
  CHECK_FALSE(WriteFileAtomic(path, "cache entry", 11, /*durable=*/false).has_value());
  CHECK(Read(path) == "cache entry");
  CHECK_FALSE(Exists(AtomicTempPath(path)));
  const auto failure = WriteFileAtomic(dir + "/no/x.bin", "x", 1, false);
  REQUIRE(failure.has_value());
  CHECK(failure->step == AtomicWriteStep::kCreate);
  ::unlink(path.c_str());
  ::rmdir(dir.c_str());
}

TEST_CASE("atomic file: a missing folder fails at kCreate with ENOENT") {
  const auto failure = WriteFileAtomic("/no/such/folder/x.bin", "x", 1);
  REQUIRE(failure.has_value());
  CHECK(failure->step == AtomicWriteStep::kCreate);
  CHECK(failure->err == ENOENT);
  CHECK(failure->tmp == "/no/such/folder/.x.bin.tmp." + std::to_string(::getpid()));
}

TEST_CASE("atomic file: a folder in the target's place fails at kRename; the temp file is removed") {
  const std::string dir = TempDir();
  const std::string target = dir + "/sub";
  REQUIRE(::mkdir(target.c_str(), 0755) == 0);
  { std::ofstream(target + "/keep") << "k"; }  // a non-empty folder cannot be replaced
  const auto failure = WriteFileAtomic(target, "abc", 3);
  REQUIRE(failure.has_value());
  CHECK(failure->step == AtomicWriteStep::kRename);
  CHECK(failure->err == EISDIR);
  CHECK_FALSE(Exists(failure->tmp));
  CHECK(Read(target + "/keep") == "k");
  ::unlink((target + "/keep").c_str());
  ::rmdir(target.c_str());
  ::rmdir(dir.c_str());
}
