// Helpers shared by the tools tests: argv building, error capture, golden files, temp dirs.
#ifndef OPENATC_TESTS_TOOLS_TEST_UTIL_H_
#define OPENATC_TESTS_TOOLS_TEST_UTIL_H_

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "openatc/common/error.h"

namespace tools_test {

/// Runs `fn`, which must throw openatc::Error; returns it (FAILs when nothing is thrown).
inline openatc::Error Capture(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const openatc::Error &e) {
    return e;
  }
  FAIL("expected an openatc::Error");
  return openatc::Error(openatc::ErrorCategory::kInternal, "", "");
}

inline std::string ReadText(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<uint8_t> ReadBytes(const std::string &path) {
  std::string s = ReadText(path);
  return std::vector<uint8_t>(s.begin(), s.end());
}

inline void WriteBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

/// Compares `actual` with tests/tools/golden/<name>; OPENATC_UPDATE_GOLDEN=1 rewrites the file.
inline void CheckGolden(const std::string &name, const std::string &actual) {
  const char *src = std::getenv("OPENATC_SOURCE_DIR");
  REQUIRE(src != nullptr);
  std::string path = std::string(src) + "/tests/tools/golden/" + name;
  const char *update = std::getenv("OPENATC_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") WriteBytes(path, actual);
  CHECK(ReadText(path) == actual);
}

/// A fresh empty folder under the test's working directory.
inline std::string FreshDir(const std::string &name) {
  std::filesystem::path p = std::filesystem::current_path() / ("tools_tmp_" + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

}  // namespace tools_test

#endif  // OPENATC_TESTS_TOOLS_TEST_UTIL_H_
