// WriteFile: atomic replacement, no temp file left behind, old file kept on failure, errors
// naming the path.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "om_test_util.h"
#include "openatc/common/error.h"
#include "openatc/om/model.h"

using namespace openatc;

namespace {
std::vector<std::string> List(const std::string &dir) {
  std::vector<std::string> out;
  DIR *d = opendir(dir.c_str());
  REQUIRE(d != nullptr);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") out.push_back(n);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint8_t> Slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string WriteError(const std::string &path, const om::Model &m, ErrorCategory cat = ErrorCategory::kIo) {
  try {
    om::WriteFile(path, m);
  } catch (const Error &e) {
    CHECK(e.category() == cat);
    return e.what();
  }
  FAIL("WriteFile succeeded");
  return {};
}
}  // namespace

TEST_CASE("om write: writes the serialised bytes and leaves no temp file", "[om]") {
  const std::string dir = omtest::TempDir();
  const om::Model m = omtest::MakeSmallModel();
  om::WriteFile(dir + "/x.om", m);
  CHECK(List(dir) == std::vector<std::string>{"x.om"});
  CHECK(Slurp(dir + "/x.om") == om::Serialize(m));
  // Replacing an existing file.
  const om::Model big = omtest::MakeModel();
  om::WriteFile(dir + "/x.om", big);
  CHECK(List(dir) == std::vector<std::string>{"x.om"});
  CHECK(Slurp(dir + "/x.om") == om::Serialize(big));
  // A stale temp file of this pid is replaced and removed.
  const std::string stale = dir + "/.y.om.tmp." + std::to_string(getpid());
  std::ofstream(stale) << "junk";
  om::WriteFile(dir + "/y.om", m);
  CHECK(List(dir) == std::vector<std::string>{"x.om", "y.om"});
  // A relative path (no slash) lands in the working directory.
  const std::string cwd = std::getenv("PWD") ? std::getenv("PWD") : ".";
  REQUIRE(chdir(dir.c_str()) == 0);
  om::WriteFile("z.om", m);
  REQUIRE(chdir(cwd.c_str()) == 0);
  CHECK(List(dir) == std::vector<std::string>{"x.om", "y.om", "z.om"});
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("om write: failures keep the old file and leave no temp file", "[om]") {
  const std::string dir = omtest::TempDir();
  const om::Model m = omtest::MakeSmallModel();

  // Missing directory.
  CHECK(WriteError(dir + "/no/such/x.om", m) ==
        "OA2020: '" + dir + "/no/such/x.om': cannot write the OM: cannot create the temp file '" + dir +
            "/no/such/.x.om.tmp." + std::to_string(getpid()) +
            "': No such file or directory. Check that the directory exists and is writable, and that the disk has room.");
  // The target is a non-empty directory: rename fails after the temp file was written.
  REQUIRE(mkdir((dir + "/d.om").c_str(), 0755) == 0);
  std::ofstream(dir + "/d.om/keep") << "k";
  const std::string msg = WriteError(dir + "/d.om", m);
  CHECK(msg.rfind("OA2020: '" + dir + "/d.om': cannot write the OM: rename of the temp file failed: ", 0) == 0);
  CHECK(List(dir) == std::vector<std::string>{"d.om"});
  CHECK(List(dir + "/d.om") == std::vector<std::string>{"keep"});
  // A path naming a directory.
  CHECK(WriteError(dir + "/", m) == "OA2020: '" + dir + "/': cannot write the OM: the path names a directory, not a "
                                    "file: Is a directory. Check that the directory exists and is writable, and that "
                                    "the disk has room.");

  // An old file survives a model the writer refuses.
  om::WriteFile(dir + "/x.om", m);
  const auto old = Slurp(dir + "/x.om");
  om::Model bad = m;
  bad.graph.inputs = {99};
  WriteError(dir + "/x.om", bad, ErrorCategory::kInternal);
  CHECK(Slurp(dir + "/x.om") == old);
  CHECK(List(dir) == std::vector<std::string>{"d.om", "x.om"});

  // An unwritable directory (only meaningful when not root: root bypasses permissions).
  if (geteuid() != 0) {
    REQUIRE(chmod(dir.c_str(), 0555) == 0);
    const std::string e = WriteError(dir + "/x.om", omtest::MakeModel());
    CHECK(e.rfind("OA2020: '" + dir + "/x.om': cannot write the OM: cannot create the temp file", 0) == 0);
    REQUIRE(chmod(dir.c_str(), 0755) == 0);
    CHECK(Slurp(dir + "/x.om") == old);
    CHECK(List(dir) == std::vector<std::string>{"d.om", "x.om"});
  }
  std::system(("chmod -R u+w " + dir + "; rm -rf " + dir).c_str());
}
