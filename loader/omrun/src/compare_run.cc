// omrun --compare's run side (compare_run.h).
#include "compare_run.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "dump_compare.h"
#include "openatc/common/error.h"
#include "openatc/dump/node_dump.h"

namespace openatc::omrun {

ScratchDir::ScratchDir() {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/omrun-compare-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error(ErrorCategory::kIo, "OA2304",
                "cannot create a folder for --compare's dumps in '" + pattern + "': " + std::strerror(errno),
                "Set TMPDIR to a writable folder");
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void CheckCompareTarget(const std::string &other) {
  std::error_code ec;
  if (!std::filesystem::exists(other, ec))
    throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + other + "' for --compare: no such file or folder",
                "Pass an OM of the same model, or a folder written by omrun --dump");
}

// --compare: OTHER's dump (a --dump folder, or OTHER run here on the same inputs), then the report.
bool CompareWithOther(const Options &o, runtime::LoadedModel &mine, const std::vector<tensor_io::HostTensor> &inputs,
                      const std::string &my_dump, const ScratchDir &scratch) {
  std::string other_dump = o.compare;
  if (!std::filesystem::is_directory(o.compare)) {
    auto other = runtime::LoadModelFile(o.compare);
    if (other->inputs().size() != mine.inputs().size()) {
      throw Error(ErrorCategory::kUsage, "OA2305",
                  "--compare '" + o.compare + "' has " + std::to_string(other->inputs().size()) + " input(s), this model " +
                      std::to_string(mine.inputs().size()),
                  "Compare two builds of the same model");
    }
    other_dump = scratch.path() + "/other";
    dump::NodeDump dump(other->model(), o.compare, other_dump);
    other->set_node_observer(&dump);
    other->Run(inputs);
    other->set_node_observer(nullptr);
    dump.Commit();
  }
  std::cout << "compare with " << o.compare << " (node by node, atol " << o.atol << ", rtol " << o.rtol << "):\n";
  return CompareDumps(my_dump, other_dump, o.atol, o.rtol, std::cout);
}

}  // namespace openatc::omrun
