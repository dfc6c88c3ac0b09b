// One dumped aclmdlExecute step (step_dump.h).
#include "step_dump.h"

#include <filesystem>

#include "acl/acl_rt.h"
#include "openatc/common/log.h"
#include "openatc/rt/error_state.h"

namespace openatc {
namespace mdl {
namespace {

// A folder name from a model name: '/' and '\' (and a leading '.') become '_'.
std::string FolderName(std::string s) {
  for (char &c : s)
    if (c == '/' || c == '\\') c = '_';
  if (s.empty() || s[0] == '.') s.insert(s.begin(), '_');
  return s;
}

}  // namespace

StepDump::StepDump(ModelEntry &entry) : entry_(entry) {
  ModelDump *b = entry.dump.get();
  if (b == nullptr) return;
  const uint64_t step = b->next_step++;
  const DumpSession &s = *b->session;
  if (!s.active || !s.config.StepSelected(step)) return;
  if (entry.model->gear_count() > 0) {  // its runs go to per-gear graphs the observer does not see
    if (!b->warned_gears)
      LogWarning("aclmdlExecute: model " + std::to_string(entry.id) + " ('" + b->model_name +
                 "') has dynamic gears, which the dump does not cover yet: nothing is dumped for it");
    b->warned_gears = true;
    return;
  }
  int32_t device = 0;
  (void)aclrtGetDevice(&device);
  const std::filesystem::path dir = std::filesystem::path(s.config.path) / s.time_dir / std::to_string(device) /
                                    FolderName(b->model_name) / std::to_string(entry.id) / std::to_string(step);
  dump::NodeDumpOptions o;
  o.outputs = s.config.mode != dump::DumpMode::kInput;
  o.inputs = s.config.mode != dump::DumpMode::kOutput;
  o.layers.insert(b->entry->layers.begin(), b->entry->layers.end());
  o.stats = s.config.stats;
  o.run = "step " + std::to_string(step);
  o.folder_label = "dump step folder";
  o.folder_hint = "Check that dump_path ('" + s.config.path + "') can be written";
  try {
    dump_ = std::make_unique<dump::NodeDump>(entry.model->model(), entry.label, dir.string(), std::move(o));
  } catch (const openatc::Error &e) {
    rt::ThrowAcl(ACL_ERROR_WRITE_FILE, e.message(), e.hint());
  }
  entry.model->set_node_observer(dump_.get());
}

StepDump::~StepDump() {
  if (dump_) entry_.model->set_node_observer(nullptr);
}

void StepDump::Commit() {
  if (!dump_) return;
  entry_.model->set_node_observer(nullptr);
  try {
    dump_->Commit();
  } catch (const openatc::Error &e) {
    rt::ThrowAcl(ACL_ERROR_WRITE_FILE, e.message(), e.hint());
  }
}

}  // namespace mdl
}  // namespace openatc
