// RunOmrun: option handling, input loading, timed runs, output writing and comparison.
#include "openatc/omrun/driver.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/cann_lookup.h"
#include "openatc/common/log.h"
#include "openatc/common/target.h"
#include "openatc/dump/node_dump.h"
#include "openatc/ir/framework_ops.h"
#include "openatc/omrun/options.h"
#include "openatc/rt/runtime.h"
#include "openatc/runtime/model.h"
#include "openatc/tensor_io/tensor_io.h"
#include "openatc/tensor_io/value_io.h"
#include "compare_run.h"
#include "profile_trace.h"

namespace openatc::omrun {
namespace {
using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

const char *GearFlagOf(om::GearKind kind);
std::vector<tensor_io::HostTensor> LoadUserInputs(const Options &o, const std::vector<runtime::IoDesc> &want);

// "sequence of " for a non-tensor input or output (its dtype and shape are its elements').
std::string KindPrefix(const runtime::IoDesc &io) {
  return io.value_kind == ir::ValueKind::kTensor ? std::string() : ValueKindName(io.value_kind) + " of ";
}

void PrintInfo(const runtime::LoadedModel &m) {
  const om::Model &om = m.model();
  std::cout << "target: " << DescribeTarget(om.target)
            << "\nproducer: " << om.producer << "\nformat: " << om.format_major << "." << om.format_minor
            << " (minimum reader " << om.min_reader_major << "." << om.min_reader_minor << ")\n";
  // The memory plan's arena, and the sum of all static tensor bytes it replaces.
  uint64_t total = 0;
  size_t dynamic = 0;
  for (const auto &n : om.graph.nodes) {
    if (ir::IsFrameworkOp(n.type)) continue;
    for (const auto &d : n.output_descs) {
      const std::optional<uint64_t> bytes = TensorByteSize(d.dtype, d.shape);
      if (!bytes) {
        ++dynamic;
        continue;
      }
      total += *bytes;
    }
  }
  if (m.arena_bytes() > 0 || dynamic == 0) {
    std::cout << "arena: " << m.arena_bytes() << " bytes (static memory plan; graph outputs use the caller's "
              << "buffers; all op outputs together: " << total << " bytes";
  } else {
    std::cout << "arena: none (run-time shapes: " << dynamic << " tensor(s) allocated per run; static op outputs: "
              << total << " bytes";
  }
  std::cout << ")\n";
  if (m.gear_count() > 0) {
    std::cout << "gears (--" << GearFlagOf(om.gear_kind) << "):";
    for (size_t g = 0; g < om.gears.size(); ++g) {
      std::cout << (g == 0 ? " " : "; ");
      for (size_t k = 0; k < om.gears[g].values.size(); ++k) std::cout << (k ? "," : "") << om.gears[g].values[k];
    }
    std::cout << " (default: the largest, gear " << m.default_gear() << ")\n";
  }
  std::cout << "inputs:\n";
  for (size_t i = 0; i < m.inputs().size(); ++i) {
    const auto &io = m.inputs()[i];
    std::cout << "  [" << i << "] " << io.name << " " << KindPrefix(io) << DataTypeShortName(io.dtype) << " "
              << ShapeToString(io.shape) << " " << FormatName(io.format) << " (" << io.bytes << " bytes)\n";
  }
  std::cout << "outputs:\n";
  for (size_t i = 0; i < m.outputs().size(); ++i) {
    const auto &io = m.outputs()[i];
    std::cout << "  [" << i << "] " << io.name << " " << KindPrefix(io) << DataTypeShortName(io.dtype) << " "
              << ShapeToString(io.shape) << " " << FormatName(io.format) << " (" << io.bytes << " bytes)\n";
  }
}

const char *GearFlagOf(om::GearKind kind) {
  switch (kind) {
    case om::GearKind::kBatch: return "dynamic_batch";
    case om::GearKind::kImageSize: return "dynamic_hw";
    default: return "dynamic_dims";
  }
}

// The gear a geared model runs: the one --dynamic_batch / --dynamic_hw / --dynamic_dims names
// (OA2209 when it is not a gear), else the largest. nullopt for a model without gears.
std::optional<size_t> ChooseGear(const Options &o, const runtime::LoadedModel &m) {
  const om::Model &om = m.model();
  if (m.gear_count() == 0) {
    if (o.gear_flag.empty()) return std::nullopt;
    throw Error(ErrorCategory::kUsage, "E10001", "--" + o.gear_flag + " is given but '" + o.model + "' has no gears",
                "Build the model with atc --dynamic_batch_size, --dynamic_image_size or --dynamic_dims, or drop the flag");
  }
  if (o.gear_flag.empty()) return m.default_gear();
  if (o.gear_flag != GearFlagOf(om.gear_kind))
    throw Error(ErrorCategory::kUsage, "E10001",
                "--" + o.gear_flag + " does not fit '" + o.model + "', whose gears are chosen with --" +
                    GearFlagOf(om.gear_kind),
                "Pass --" + std::string(GearFlagOf(om.gear_kind)) + " with one of its gears (omrun --info lists them)");
  return m.FindGear(o.gear);
}

std::vector<tensor_io::HostTensor> LoadInputs(const Options &o, const runtime::LoadedModel &m, std::optional<size_t> gear) {
  const auto &want = gear ? m.gear_inputs(*gear) : m.inputs();
  std::vector<tensor_io::HostTensor> inputs = LoadUserInputs(o, want);
  if (gear) {  // the last input selects the gear (om::kGearShapeInput, int32)
    tensor_io::HostTensor shape;
    shape.dtype = ge::DT_INT32;
    const auto &values = m.model().gears[*gear].values;
    shape.shape = {static_cast<int64_t>(values.size())};
    for (int64_t v : values) {
      const int32_t x = static_cast<int32_t>(v);
      const auto *p = reinterpret_cast<const uint8_t *>(&x);
      shape.data.insert(shape.data.end(), p, p + sizeof x);
    }
    inputs.push_back(std::move(shape));
  }
  return inputs;
}

std::vector<tensor_io::HostTensor> LoadUserInputs(const Options &o, const std::vector<runtime::IoDesc> &want) {
  std::vector<tensor_io::HostTensor> inputs;
  if (o.inputs.empty()) {
    if (!want.empty())
      LogWarning("no --input given: feeding seeded random inputs (--random_seed " + std::to_string(o.random_seed) + ")");
    for (size_t i = 0; i < want.size(); ++i) {
      for (int64_t d : want[i].shape) {
        if (d < 0) {
          throw Error(ErrorCategory::kInvalidInput, "OA2302",
                      "input " + std::to_string(i) + " ('" + want[i].name + "') has a dynamic shape " +
                          ShapeToString(want[i].shape) + ", so no random input can be made",
                      "Pass --input files");
        }
      }
      inputs.push_back(tensor_io::RandomTensor(want[i].dtype, want[i].shape, o.random_seed, i));
    }
    return inputs;
  }
  if (o.inputs.size() != want.size()) {
    throw Error(ErrorCategory::kInvalidInput, "OA2301",
                "the model has " + std::to_string(want.size()) + " input(s) but --input lists " +
                    std::to_string(o.inputs.size()) + " file(s)",
                "Pass one file per model input, comma-separated, in model input order (see omrun --info)");
  }
  for (size_t i = 0; i < want.size(); ++i)
    inputs.push_back(tensor_io::LoadInput(o.inputs[i], i, want[i].name, want[i].dtype, want[i].shape));
  return inputs;
}

[[noreturn]] void BadOutputDir(const std::string &dir, const std::string &why) {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + dir + "' for --output: " + why,
              "Pass a folder omrun can create or write (it writes output_<i>.<ext> and outputs.json there)");
}

// --output is checked before the model is loaded or run: a file in the folder's place, or a
// folder that cannot be written, is a usage error (exit 2) now rather than after a long run.
// An absent folder is created by WriteOutputs after the run, as before; here its nearest
// existing parent must be a writable folder. Nothing is created or changed by this check.
void CheckOutputDir(const std::string &dir) {
  std::string probe = dir;
  while (true) {
    while (probe.size() > 1 && probe.back() == '/') probe.pop_back();
    struct stat st {};
    if (::stat(probe.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        BadOutputDir(dir, probe == dir || probe + "/" == dir
                              ? std::string("it exists and is not a folder")
                              : "'" + probe + "' on its path exists and is not a folder");
      }
      if (::access(probe.c_str(), W_OK | X_OK) != 0) {
        BadOutputDir(dir, (probe == dir || probe + "/" == dir ? std::string("the folder")
                                                               : "its nearest existing parent '" + probe + "'") +
                              " cannot be written: " + std::strerror(errno));
      }
      return;
    }
    if (errno != ENOENT && errno != ENOTDIR) BadOutputDir(dir, "'" + probe + "': " + std::strerror(errno));
    const size_t slash = probe.find_last_of('/');
    probe = slash == std::string::npos ? "." : slash == 0 ? "/" : probe.substr(0, slash);
  }
}

std::string RelText(const tensor_io::Comparison &c) {
  if (c.rel_count == 0) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", c.max_rel);
  return buf;
}

void PrintTimings(std::vector<double> runs, double load_ms) {
  std::sort(runs.begin(), runs.end());
  auto pct = [&](double p) { return runs[static_cast<size_t>(p * static_cast<double>(runs.size() - 1) + 0.5)]; };
  std::fprintf(stdout, "load: %.3f ms\n", load_ms);
  std::fprintf(stdout, "runs: %zu  min %.3f ms  median %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms\n", runs.size(),
               runs.front(), pct(0.5), pct(0.9), pct(0.99), runs.back());
}

// The first run, --warmup runs and --loop timed runs of `run(phase)`; prints the timings when
// there is more than the first run. Returns the last run's outputs.
template <typename Run>
auto TimedRuns(const Options &o, double load_ms, Run run) {
  const auto f0 = Clock::now();
  auto outputs = run("first");
  const double first_ms = Ms(Clock::now() - f0);
  for (int i = 0; i < o.warmup; ++i) outputs = run("warmup");
  if (o.loop > 1 || o.warmup > 0) {
    std::vector<double> runs;
    for (int i = 0; i < o.loop; ++i) {
      const auto s = Clock::now();
      outputs = run("timed");
      runs.push_back(Ms(Clock::now() - s));
    }
    std::fprintf(stdout, "first run: %.3f ms\n", first_ms);
    PrintTimings(runs, load_ms);
  }
  std::fflush(stdout);
  return outputs;
}

// --profile and --dump together: both see every node.
class Observers : public runtime::NodeObserver {
 public:
  std::vector<runtime::NodeObserver *> all;
  void Started(size_t i) override {
    for (auto *o : all) o->Started(i);
  }
  void Finished(size_t i, const std::vector<runtime::TensorView> &in,
                const std::vector<runtime::TensorView> &out) override {
    for (auto *o : all) o->Finished(i, in, out);
  }
  void Kernel(size_t i, const std::string &implementations) override {
    for (auto *o : all) o->Kernel(i, implementations);
  }
};

// The dump folder of this run: --dump's, or one in `scratch` when only --compare asks for it.
std::string DumpDirOf(const Options &o, const ScratchDir *scratch) {
  if (!o.dump_dir.empty()) return o.dump_dir;
  return scratch != nullptr ? scratch->path() + "/this" : std::string();
}

// The runs of one omrun call, watched by --profile / --dump when given.
class Runner {
 public:
  Runner(const Options &o, runtime::LoadedModel &m, const std::string &dump_dir) : model_(m) {
    if (!o.profile.empty()) trace_ = std::make_unique<ProfileTrace>(m.model());
    if (!dump_dir.empty()) dump_ = std::make_unique<dump::NodeDump>(m.model(), o.model, dump_dir);
    if (trace_) observers_.all.push_back(trace_.get());
    if (dump_) observers_.all.push_back(dump_.get());
    if (!observers_.all.empty()) model_.set_node_observer(&observers_);
  }
  ~Runner() { model_.set_node_observer(nullptr); }

  std::vector<tensor_io::HostTensor> RunOnce(const std::vector<tensor_io::HostTensor> &inputs, const char *label) {
    if (trace_) trace_->BeginRun(label);
    auto out = model_.Run(inputs);
    if (trace_) trace_->EndRun();
    if (dump_) {  // the first run only
      dump_->Commit();
      observers_.all.erase(std::find(observers_.all.begin(), observers_.all.end(), dump_.get()));
      if (observers_.all.empty()) model_.set_node_observer(nullptr);
    }
    dump_.reset();
    return out;
  }

  std::vector<HostValue> RunValuesOnce(const std::vector<HostValue> &inputs, const char *label) {
    if (trace_) trace_->BeginRun(label);
    auto out = model_.RunValues(inputs);
    if (trace_) trace_->EndRun();
    if (dump_) {
      dump_->Commit();
      observers_.all.erase(std::find(observers_.all.begin(), observers_.all.end(), dump_.get()));
      if (observers_.all.empty()) model_.set_node_observer(nullptr);
    }
    dump_.reset();
    return out;
  }

  void Finish(const Options &o) {
    if (!trace_) return;
    trace_->Write(o.profile);
    std::cout << trace_->Summary(10);
    if (model_.shape_nodes() != 0)
      std::cout << "shape arithmetic: " << model_.shape_nodes() << " node(s); " << model_.shape_node_reuses()
                << " node run(s) reused the outputs kept for the same shapes\n";
    std::cout << "profile written to " << o.profile << "\n";
  }

 private:
  runtime::LoadedModel &model_;
  std::unique_ptr<ProfileTrace> trace_;
  std::unique_ptr<dump::NodeDump> dump_;
  Observers observers_;
};

// A model with a sequence or optional input or output (README.md, omrun): the values are read
// and written in value_io.h's forms and compared element by element; --compare (an OM or dump
// of plain tensors to line up node by node) and random inputs do not apply and are refused.
int RunValueModel(const Options &o, runtime::LoadedModel &m, double load_ms) {
  const std::string why = "'" + o.model + "' has sequence or optional inputs or outputs";
  if (!o.compare.empty())
    throw Error(ErrorCategory::kUsage, "E10001", "--compare is not supported: " + why, "Drop --compare");
  if (!o.gear_flag.empty())
    throw Error(ErrorCategory::kUsage, "E10001", "--" + o.gear_flag + " is given but " + why + " and no gears",
                "Drop the flag");
  const auto &want = m.inputs();
  if (o.inputs.size() != want.size())
    throw Error(ErrorCategory::kInvalidInput, "OA2301",
                "the model has " + std::to_string(want.size()) + " input(s) but --input lists " +
                    std::to_string(o.inputs.size()) + " file(s); " + why + ", so no random inputs are made",
                "Pass one file per model input (a sequence: a SequenceProto .pb or a folder of 0.npy, 1.npy, ...; an "
                "optional: an OptionalProto .pb, 'none' or its value)");
  std::vector<HostValue> inputs;
  for (size_t i = 0; i < want.size(); ++i)
    inputs.push_back(tensor_io::LoadValueFile(o.inputs[i], "input " + std::to_string(i) + " '" + want[i].name + "'",
                                              want[i].value_kind, want[i].dtype, want[i].shape));
  Runner runner(o, m, o.dump_dir);
  std::vector<HostValue> outputs =
      TimedRuns(o, load_ms, [&](const char *phase) { return runner.RunValuesOnce(inputs, phase); });
  runner.Finish(o);
  std::vector<std::string> names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    names.push_back(m.outputs()[i].name);
    const auto lines = tensor_io::ValueSummaryLines(names.back(), outputs[i]);
    for (size_t l = 0; l < lines.size(); ++l) std::cout << (l ? "  " : "output " + std::to_string(i) + ": ") << lines[l] << "\n";
  }
  std::cout.flush();
  if (!o.output_dir.empty()) tensor_io::WriteValueOutputs(o.output_dir, names, outputs, o.outfmt);
  bool all_ok = true;
  for (size_t i = 0; i < o.expected_outputs.size() && i < outputs.size(); ++i) {
    const runtime::IoDesc &d = m.outputs()[i];
    const HostValue &got = outputs[i];
    // The expected file is read as the output's kind, with the dtype the run produced.
    ge::DataType dtype = d.dtype;
    if (got.present && !IsSequenceKind(got.kind)) dtype = got.tensor.dtype;
    if (got.present && IsSequenceKind(got.kind) && !got.seq.empty()) dtype = got.seq.front().dtype;
    const std::vector<int64_t> shape = got.present && !IsSequenceKind(got.kind) ? got.tensor.shape : std::vector<int64_t>{-2};
    const HostValue expected = tensor_io::LoadValueFile(
        o.expected_outputs[i], "expected output " + std::to_string(i) + " '" + names[i] + "'", d.value_kind, dtype, shape);
    const tensor_io::ValueComparison c = tensor_io::CompareValues(got, expected, o.atol, o.rtol);
    if (!c.problem.empty()) {
      std::fprintf(stdout, "compare output %zu (%s): FAIL %s\n", i, names[i].c_str(), c.problem.c_str());
      all_ok = false;
      continue;
    }
    double max_abs = 0, max_ratio = 0;
    for (const auto &e : c.elements) {
      max_abs = std::max(max_abs, e.max_abs);
      max_ratio = std::max(max_ratio, e.max_ratio);
    }
    std::fprintf(stdout, "compare output %zu (%s): %s %zu tensor(s) max_abs_err %.6g max_err_to_tol %.6g\n", i,
                 names[i].c_str(), c.ok ? "PASS" : "FAIL", c.elements.size(), max_abs, max_ratio);
    for (size_t j = 0; j < c.elements.size(); ++j) {
      if (c.elements[j].ok) continue;
      std::fprintf(stdout, "  element %zu: first mismatch at %zu: actual %.9g expected %.9g\n", j,
                   c.elements[j].first_bad_index, c.elements[j].first_bad_actual, c.elements[j].first_bad_expected);
    }
    all_ok = all_ok && c.ok;
  }
  return all_ok ? 0 : 1;
}

int Run(const Options &o) {
  if (!o.output_dir.empty()) CheckOutputDir(o.output_dir);
  if (o.threads > 0) rt::SetThreadCount(static_cast<unsigned>(o.threads));
  const auto t0 = Clock::now();
  auto model = runtime::LoadModelFile(o.model);
  const double load_ms = Ms(Clock::now() - t0);
  if (o.info) {
    PrintInfo(*model);
    return 0;
  }
  // --expected_output is checked before the run too: a wrong count or file kind is said at once.
  if (!o.expected_outputs.empty()) {
    if (o.expected_outputs.size() != model->outputs().size()) {
      throw Error(ErrorCategory::kUsage, "OA2303",
                  "the model has " + std::to_string(model->outputs().size()) + " output(s) but --expected_output "
                      "lists " + std::to_string(o.expected_outputs.size()) + " file(s)",
                  "Pass one expected file per model output");
    }
    for (const auto &file : o.expected_outputs) tensor_io::KindFromPath(file);
  }
  if (model->has_value_io()) return RunValueModel(o, *model, load_ms);
  auto inputs = LoadInputs(o, *model, ChooseGear(o, *model));
  std::unique_ptr<ScratchDir> scratch;
  if (!o.compare.empty()) {
    CheckCompareTarget(o.compare);
    scratch = std::make_unique<ScratchDir>();
  }
  const std::string dump_dir = DumpDirOf(o, scratch.get());
  Runner runner(o, *model, dump_dir);
  std::vector<tensor_io::HostTensor> outputs =
      TimedRuns(o, load_ms, [&](const char *phase) { return runner.RunOnce(inputs, phase); });
  runner.Finish(o);
  std::vector<std::string> names;
  for (size_t i = 0; i < outputs.size(); ++i) {
    names.push_back(model->outputs()[i].name);
    std::cout << "output " << i << ": " << tensor_io::SummaryLine(names.back(), outputs[i]) << "\n";
  }
  bool compared_ok = true;
  if (!o.compare.empty()) compared_ok = CompareWithOther(o, *model, inputs, dump_dir, *scratch);
  std::cout.flush();
  if (!o.output_dir.empty()) tensor_io::WriteOutputs(o.output_dir, names, outputs, o.outfmt);
  if (!o.expected_outputs.empty()) {
    bool all_ok = true;
    for (size_t i = 0; i < outputs.size(); ++i) {
      auto expected = tensor_io::LoadTensorFile(o.expected_outputs[i],
                                                "expected output " + std::to_string(i) + " '" + names[i] + "'",
                                                outputs[i].dtype, outputs[i].shape);
      auto c = tensor_io::Compare(outputs[i], expected, o.atol, o.rtol);
      // The rule (omrun --help): PASS exactly when max_err_to_tol <= 1.
      std::fprintf(stdout, "compare output %zu (%s): %s max_abs_err %.6g max_rel_err %s max_err_to_tol %.6g\n", i,
                   names[i].c_str(), c.ok ? "PASS" : "FAIL", c.max_abs, RelText(c).c_str(), c.max_ratio);
      if (!c.ok) {
        if (c.tolerant) {
          std::fprintf(stdout, "  first mismatch at element %zu: actual %.9g expected %.9g (|diff| > atol + rtol * "
                               "|expected| = %.6g)\n",
                       c.first_bad_index, c.first_bad_actual, c.first_bad_expected,
                       o.atol + o.rtol * std::fabs(c.first_bad_expected));
        } else {
          std::fprintf(stdout, "  first mismatch at element %zu\n", c.first_bad_index);
        }
        all_ok = false;
      }
    }
    if (!all_ok) return 1;
  }
  return compared_ok ? 0 : 1;
}
}  // namespace

int RunOmrun(int argc, const char *const *argv) {
  SetLogTool("omrun");
  try {
    Options o = ParseOmrunOptions(argc, argv);
    if (o.help) {
      std::cout << OmrunHelpText();
      return 0;
    }
    LogLevel level = LogLevel::kError;
    if (ParseLogLevel(o.log, &level)) SetLogLevel(level);
    // The emulation switch, read once here (a bad value is a usage error). An emulated OM runs on
    // the host with or without it; it names the device online code sees (aclrtGetDeviceInfo).
    const Emulation emulation = EmulationFromEnv();
    if (emulation.on()) LogWarning(EmulationWarning(emulation, cann::CannRoots()));
    return Run(o);
  } catch (const Error &e) {
    std::cerr << e.Format("omrun") << std::endl;
    return OmrunExitCode(e.category());
  } catch (const std::bad_alloc &) {
    std::cerr << Error(ErrorCategory::kInternal, "E19999", "out of memory").Format("omrun") << std::endl;
  } catch (const std::exception &e) {
    std::cerr << Error(ErrorCategory::kInternal, "E19999", std::string("internal error: ") + e.what(),
                       "Please report this with the command line")
                     .Format("omrun")
              << std::endl;
  }
  return 7;
}

}  // namespace openatc::omrun
