// omrun --compare's run side (dump_compare.h does the comparing): a scratch folder for the dumps,
// the check that OTHER exists, and OTHER run on this run's inputs when it is an OM.
#ifndef OPENATC_OMRUN_SRC_COMPARE_RUN_H_
#define OPENATC_OMRUN_SRC_COMPARE_RUN_H_

#include <string>
#include <vector>

#include "openatc/omrun/options.h"
#include "openatc/runtime/model.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::omrun {

/// A private folder under $TMPDIR (else /tmp) for --compare's dumps, removed with its contents.
class ScratchDir {
 public:
  ScratchDir();  ///< OA2304 when it cannot be made
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

/// E10001 (usage) when `other` names neither a file nor a folder; checked before any run.
void CheckCompareTarget(const std::string &other);

/// Gets OTHER's dump (o.compare as a --dump folder, or that OM run here on `inputs` and dumped in
/// `scratch`), prints the node-by-node report and returns whether all is within tolerance.
bool CompareWithOther(const Options &o, runtime::LoadedModel &mine, const std::vector<tensor_io::HostTensor> &inputs,
                      const std::string &my_dump, const ScratchDir &scratch);

}  // namespace openatc::omrun

#endif  // OPENATC_OMRUN_SRC_COMPARE_RUN_H_
