// GE's offline build API (ge/ge_ir_build.h): aclgrphBuildInitialize / aclgrphBuildModel /
// aclgrphSaveModel / aclgrphBuildFinalize. A graph is compiled exactly as atc compiles the AIR
// file Graph::SaveToFile writes for it: the same AIR bytes (in memory), the same GE IR front end,
// atc's own option checks, target resolution and compile steps (openatc/atc/driver.h).
//
// External weights (ge.externalWeight "1" / "2", atc --external_weight): aclgrphBuildModel makes
// the OM image and its weight files, as atc does, and keeps the files with the buffer (in the
// deleter of ModelBufferData::data, so copies of the buffer carry them); aclgrphSaveModel writes
// them to <dir of the OM>/weight/, then the OM, as atc does. As in GE, the build does not know
// the OM's name yet, so mode 2's file is <graph name>_weight_combined.
#include "ge/ge_ir_build.h"

#include <cstring>
#include <mutex>

#include "ir_options.h"
#include "ir_state.h"
#include "openatc/atc/driver.h"
#include "openatc/common/atomic_file.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/om/model.h"
#include "openatc/om/write_image.h"
#include "openatc/register/air_bytes.h"

namespace {
using openatc::Error;
using openatc::ErrorCategory;
using namespace openatc::ir_build;

OptionMap ToMap(const std::map<ge::AscendString, ge::AscendString> &options) {
  OptionMap out;
  for (const auto &kv : options) out[kv.first.GetString()] = kv.second.GetString();
  return out;
}

std::string GraphName(const ge::Graph &graph) {
  if (!graph.IsValid()) {
    throw Error(ErrorCategory::kUsage, kBadArgument, "the graph is default-constructed (it has no name)",
                "Construct it as ge::Graph(\"name\") and set its inputs and outputs");
  }
  ge::AscendString name;
  (void)graph.GetName(name);
  return name.GetString();
}

/// The deleter of a built ModelBufferData: it also holds the OM's external weight files.
struct OmBufferDeleter {
  std::shared_ptr<const std::vector<openatc::om::WeightFile>> weight_files;
  void operator()(uint8_t *p) const { delete[] p; }
};

struct BuiltOm {
  std::vector<uint8_t> image;
  std::vector<openatc::om::WeightFile> weight_files;
};

BuiltOm BuildOm(const ge::Graph &graph, const OptionMap &build_options) {
  // One build at a time: the op objects are shared (GE's lifecycle: Compile on one object is never
  // concurrent) and the compile target is set for the RTC per build.
  static std::mutex build_mu;
  std::lock_guard<std::mutex> lock(build_mu);
  const Session session = Current("aclgrphBuildModel");
  const std::string name = GraphName(graph);
  const openatc::atc::Options options = ToAtcOptions(session.global_options, build_options, name, session.emulation);
  openatc::LogLevel level = openatc::LogLevel::kError;
  if (build_options.count("log") != 0 && openatc::ParseLogLevel(options.log, &level)) openatc::SetLogLevel(level);
  const auto copts = openatc::atc::CompileOptionsFor(options);
  std::string air, why;
  if (!openatc::reg::GraphToAirBytes(graph, &air, &why)) {
    throw Error(ErrorCategory::kGraph, kBadArgument, "the graph cannot be taken: " + why,
                "Fix the graph (Graph::SaveToFile reports the same problem)")
        .WithFile(name);
  }
  openatc::ir::Graph ir = openatc::frontend::ReadGeIrString(air, openatc::frontend::GeIrEncoding::kBinary, name);
  openatc::om::Model model = openatc::atc::CompileIrGraph(std::move(ir), options, copts, *session.opp_set);
  openatc::om::WriteOptions wopts = openatc::atc::OmWriteOptions(options);
  wopts.combined_weight_file.clear();  // no OM name yet: <graph name>_weight_combined, as GE names it
  BuiltOm built;
  built.image = openatc::om::Serialize(model, wopts, &built.weight_files);
  return built;
}

void SaveOm(const char *output_file, const ge::ModelBufferData &model) {
  if (output_file == nullptr || *output_file == '\0') {
    throw Error(ErrorCategory::kUsage, kBadArgument, "the output file name is null or empty",
                "Pass the path prefix of the OM, e.g. \"out/model\" (writes out/model.om)");
  }
  if (model.data == nullptr || model.length < 4 || std::memcmp(model.data.get(), "OAOM", 4) != 0) {
    throw Error(ErrorCategory::kUsage, kBadArgument,
                model.data == nullptr || model.length == 0 ? "the model buffer is empty"
                                                           : "the model buffer does not hold an OM (no OAOM magic)",
                "Pass the ModelBufferData a successful aclgrphBuildModel filled");
  }
  const std::string path = std::string(output_file) + ".om";  // GE appends ".om" whatever the name ends with
  const auto *deleter = std::get_deleter<OmBufferDeleter>(model.data);
  if (deleter != nullptr && deleter->weight_files && !deleter->weight_files->empty()) {
    try {
      openatc::om::WriteImage(path, model.data.get(), static_cast<size_t>(model.length), *deleter->weight_files);
    } catch (const Error &e) {
      throw Error(ErrorCategory::kIo, kCannotWrite,
                  "cannot write the OM and its weight files (" + e.message() + "); nothing was written",
                  "Check that the folder exists and is writable")
          .WithFile(path);
    }
    return;
  }
  if (auto fail = openatc::WriteFileAtomic(path, model.data.get(), static_cast<size_t>(model.length))) {
    throw Error(ErrorCategory::kIo, kCannotWrite,
                "cannot write the OM (" + std::string(std::strerror(fail->err)) + "); nothing was written",
                "Check that the folder exists and is writable")
        .WithFile(path);
  }
}

}  // namespace

namespace ge {

graphStatus aclgrphBuildInitialize(std::map<AscendString, AscendString> &global_options) {
  return Guard("aclgrphBuildInitialize", [&] { Initialize(ToMap(global_options)); });
}

void aclgrphBuildFinalize() { Finalize(); }

graphStatus aclgrphBuildModel(const ge::Graph &graph, const std::map<AscendString, AscendString> &build_options,
                              ModelBufferData &model) {
  return Guard("aclgrphBuildModel", [&] {
    BuiltOm built = BuildOm(graph, ToMap(build_options));
    OmBufferDeleter deleter;
    deleter.weight_files = std::make_shared<const std::vector<openatc::om::WeightFile>>(std::move(built.weight_files));
    std::shared_ptr<uint8_t> data(new uint8_t[built.image.size()], std::move(deleter));
    std::memcpy(data.get(), built.image.data(), built.image.size());
    model.data = std::move(data);
    model.length = built.image.size();
  });
}

graphStatus aclgrphSaveModel(const char_t *output_file, const ModelBufferData &model) {
  return Guard("aclgrphSaveModel", [&] { SaveOm(output_file, model); });
}

graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version, int32_t *patch_version) {
  return Guard("aclgrphGetIRVersion", [&] {
    if (major_version == nullptr || minor_version == nullptr || patch_version == nullptr)
      throw Error(ErrorCategory::kUsage, kBadArgument, "a version pointer is null", "Pass three int32_t addresses");
    *major_version = IR_MAJOR_VERSION;
    *minor_version = IR_MINOR_VERSION;
    *patch_version = IR_PATCH_VERSION;
  });
}

}  // namespace ge
