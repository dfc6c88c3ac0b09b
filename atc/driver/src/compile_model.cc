// Mode 0: read the graph, load the deliverables, compile, write the OM atomically.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "aipp_insert.h"
#include "check_portable.h"
#include "input_ranges.h"
#include "kernel_cache_options.h"
#include "modes.h"
#include "openatc/atc/driver.h"
#include "openatc/atc/flag_effects.h"
#include "openatc/atc/gear_spec.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/target.h"
#include "openatc/compiler/compiler.h"
#include "openatc/compiler/gears.h"
#include "openatc/compiler/target_facts.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/frontend/onnx_custom_map.h"
#include "openatc/frontend/onnx_reader.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/python_host/python_host.h"

namespace openatc::atc {
namespace {

void RequireNonEmpty(const std::string &value, const std::string &flag, const std::string &hint) {
  if (value.empty())
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --" + flag + " is empty", hint);
}

ir::Graph ReadGraph(const Options &options) {
  switch (options.framework) {
    case 1:
      return frontend::ReadGeIrFile(options.model);
    case 5: {
      // Called after the OPP set is loaded: every op type without a built-in or custom
      // implementation is listed with the model's other unsupported features in one error.
      frontend::OnnxOptions onnx;
      onnx.is_supported_op = [](const std::string &type) { return gert_impl::CustomOpRegistry::Global().Has(type); };
      frontend::LoadOnnxParserPlugins();
      onnx.map_custom_op = frontend::RegisteredOnnxCustomMapper();
      return frontend::ReadOnnxFile(options.model, onnx);
    }
    default:
      throw Error(ErrorCategory::kUsage, "E10007",
                  "--framework is required for '" + options.model + "': 1 (GE IR: .air, .json, .txt) or 5 (ONNX)",
                  "Pass --framework 1 or 5");
  }
}

// --out_nodes "node:idx;..." replaces the graph outputs (and NetOutput's inputs).
void ApplyOutNodes(ir::Graph &graph, const std::vector<OutNode> &out_nodes) {
  if (out_nodes.empty()) return;
  std::vector<ir::Endpoint> outs;
  for (const auto &o : out_nodes) {
    int32_t idx = graph.FindNode(o.node);
    if (idx < 0) {
      throw Error(ErrorCategory::kUsage, "E10001", "--out_nodes names node '" + o.node + "', which is not in the graph",
                  "Use node names from the model (atc --mode=1 --om <model> --json <file> lists them)");
    }
    const ir::Node &node = graph.nodes[static_cast<size_t>(idx)];
    const size_t count = node.output_descs.size();
    if (o.index < 0 || static_cast<size_t>(o.index) >= count) {
      throw Error(ErrorCategory::kUsage, "E10001",
                  "--out_nodes asks for output " + std::to_string(o.index) + " of the node, which has " +
                      std::to_string(count) + " output(s)",
                  count == 0 ? std::string("Pick a node that has outputs")
                             : "Pass an output index in 0.." + std::to_string(count - 1) + ", e.g. \"" + o.node +
                                   ":0\"")
          .WithNode(node.name, node.type);
    }
    outs.push_back({idx, o.index});
  }
  graph.outputs = outs;
  for (auto &node : graph.nodes) {
    if (node.type != ir::kNetOutput) continue;
    node.inputs = outs;
    node.input_descs.assign(outs.size(), ir::TensorDesc{});
  }
}

std::map<std::string, std::string> BuildRecord(const Options &o) {
  // Only what shapes the build: not --output, so the same inputs give the same bytes anywhere.
  std::map<std::string, std::string> r = o.other_flags;
  r["mode"] = std::to_string(o.mode);
  r["model"] = o.model;
  r["framework"] = std::to_string(o.framework);
  r["soc_version"] = o.soc_version;
  if (!o.input_shape.empty()) r["input_shape"] = o.input_shape;
  if (!o.out_nodes_text.empty()) r["out_nodes"] = o.out_nodes_text;
  r["compress"] = std::to_string(o.compress);
  if (o.compress_weights) r["compress_weights"] = "true";
  return r;
}

bool FlagIs(const Options &o, const std::string &flag, const std::string &value) {
  auto it = o.other_flags.find(flag);
  return it != o.other_flags.end() && it->second == value;
}

bool IsDirectory(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

[[noreturn]] void BadOutput(const std::string &output, const std::string &why, const std::string &hint) {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid value '" + output + "' for --output: " + why, hint);
}

void MakeParents(const std::string &path) {
  for (size_t pos = path.find('/', 1); pos != std::string::npos; pos = path.find('/', pos + 1)) {
    std::string dir = path.substr(0, pos);
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
      throw Error(ErrorCategory::kIo, "E13001", "cannot create the output folder '" + dir + "'",
                  "Check --output and the folder's permissions");
    }
  }
}

}  // namespace

std::string OmPathForOutput(const std::string &output) {
  const std::string example = "Pass a file path prefix such as --output out/model (atc writes out/model.om)";
  if (output.back() == '/')
    BadOutput(output, "it ends with '/', so it names a folder, but --output is the path of the OM file",
              "Pass a file name inside the folder, e.g. --output " + output + "model (atc writes " + output +
                  "model.om)");
  if (IsDirectory(output))
    BadOutput(output, "it is an existing folder, but --output is the path of the OM file",
              "Pass a file name inside the folder, e.g. --output " + output + "/model (atc writes " + output +
                  "/model.om)");
  const bool has_ext = output.size() >= 3 && output.compare(output.size() - 3, 3, ".om") == 0;
  const std::string path = has_ext ? output : output + ".om";
  const size_t slash = path.find_last_of('/');
  if (path.substr(slash == std::string::npos ? 0 : slash + 1) == ".om")
    BadOutput(output, "it has no file name before '.om' (the OM would be the hidden file '" + path + "')", example);
  if (IsDirectory(path)) BadOutput(output, "the OM path '" + path + "' is an existing folder", example);
  return path;
}

std::string BuiltinOppRoot() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  return opp::BuiltinOppRootBeside(std::string(buf, static_cast<size_t>(n)));  // as libge_runner finds it
}

compiler::CompileOptions CompileOptionsFor(const Options &options) {
  compiler::CompileOptions copts;
  copts.target = ResolveTarget(options.soc_version, options.emulation);  // fails at once for a bad target
  copts.model_path = options.model;
  copts.ge_options = GeOptionKeys(options);
  compiler::ApplyTargetOptionDefaults(copts.target, options.other_flags, copts.ge_options);  // per chip
  copts.build_record = BuildRecord(options);
  for (const auto &s : options.input_shapes) copts.input_shapes.push_back({s.name, s.dims});
  copts.kernel_cache = KernelCacheConfigFor(options);

  // One warning per flag the target ignores; the table is atc/cli/src/flag_effects.cc.
  for (const std::string &line : FlagEffectWarnings(options, &copts.target)) LogWarning(line);
  return copts;
}

void LoadCompileOppSet(opp::CompileOppSet &opp_set, const std::string &builtin_root) {
  const auto roots = opp::CustomOppRootsFromEnv();
  const char *env = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  const python_host::PluginScan plugins = python_host::ScanPluginEntries(env != nullptr ? env : "");
  for (const auto &root : roots) {
    if (std::find(plugins.plugins.begin(), plugins.plugins.end(), root) != plugins.plugins.end()) continue;
    std::string note = opp::DiagnoseRoot(root);
    if (!note.empty()) LogWarning("ASCEND_CUSTOM_OPP_PATH: " + note);
  }
  opp_set.Load(roots, builtin_root);
  // C++ deliverables first, then the Python plugins (GE's order); Python is loaded only if named.
  python_host::LoadPythonCustomOpsFromEnv();
}

om::Model CompileIrGraph(ir::Graph graph, const Options &options, const compiler::CompileOptions &copts,
                         const opp::CompileOppSet &opp_set, std::optional<om::Model> *original) {
  try {
    ApplyOutNodes(graph, options.out_nodes);
    ApplyInputShapeRanges(graph, options.input_shapes);
  } catch (Error &e) {
    e.WithFile(options.model);
    throw;
  }
  // --insert_op_conf: Aipp nodes behind the inputs it names; an --input_shape entry of such an
  // input is rewritten to the image's shape (aipp_insert.h).
  compiler::CompileOptions used = copts;
  auto aipp = options.other_flags.find("insert_op_conf");
  if (aipp != options.other_flags.end())
    InsertAippNodes(graph, ReadAippConfigFile(aipp->second), used.input_shapes, aipp->second);
  const GearSpec gears = GearSpecOf(options);
  const om::GearKind kind = gears.flag == "dynamic_batch_size"   ? om::GearKind::kBatch
                            : gears.flag == "dynamic_image_size" ? om::GearKind::kImageSize
                                                                 : om::GearKind::kDims;
  auto compile = [&](ir::Graph g, const compiler::CompileOptions &o) {
    return gears.flag.empty() ? compiler::CompileGraph(std::move(g), o, opp_set)
                              : compiler::CompileGears(g, o, opp_set, kind, gears.gears);
  };
  if (original != nullptr) {
    // GE's original model: the same graph without the optimising passes; a failure only warns.
    compiler::CompileOptions plain = used;
    plain.optimise = false;
    ir::Graph g = graph;
    g.name = (g.name.empty() ? std::string("graph") : g.name) + "_original";
    try {
      original->emplace(compile(std::move(g), plain));
    } catch (const Error &e) {
      LogWarning("--save_original_model: the original model was not built: " + std::string(e.what()));
    }
  }
  om::Model model = compile(std::move(graph), used);
  if (options.check_portable) {
    try {
      CheckPortable(model, options.model);
    } catch (Error &e) {
      e.WithFile(options.model);
      throw;
    }
  }
  return model;
}

om::WriteOptions OmWriteOptions(const Options &options) {
  om::WriteOptions wopts;
  wopts.compress_level = options.compress;
  wopts.compress_weights = options.compress_weights;
  // --external_weight (values checked by the CLI: 0, 1, 2): Const weights beside the OM in
  // <om dir>/weight/, mode 2's file named <om basename>_weight_combined as ATC does.
  auto external = options.other_flags.find("external_weight");
  if (external != options.other_flags.end() && (external->second == "1" || external->second == "2")) {
    wopts.external_weights = external->second == "1" ? om::ExternalWeights::kPerWeight : om::ExternalWeights::kCombined;
    if (!options.output.empty()) {  // else the writer falls back to <graph name>_weight_combined
      const std::string om_path = OmPathForOutput(options.output);
      const size_t slash = om_path.rfind('/');
      std::string base = slash == std::string::npos ? om_path : om_path.substr(slash + 1);
      base.resize(base.size() - 3);  // OmPathForOutput ends in ".om"
      wopts.combined_weight_file = base + "_weight_combined";
    }
  }
  return wopts;
}

std::string CompileModel(const Options &options) {
  RequireNonEmpty(options.model, "model", "Pass --model with the graph file to compile");
  RequireNonEmpty(options.output, "output", "Pass --output with the path prefix of the OM to write");
  const std::string out_path = OmPathForOutput(options.output);  // refused before any work
  const compiler::CompileOptions copts = CompileOptionsFor(options);
  opp::CompileOppSet opp_set;
  LoadCompileOppSet(opp_set, BuiltinOppRoot());
  ir::Graph graph = ReadGraph(options);  // after Load: the ONNX reader asks the op registry
  std::optional<om::Model> original;
  const bool save_original = FlagIs(options, "save_original_model", "true");
  om::Model model = CompileIrGraph(std::move(graph), options, copts, opp_set, save_original ? &original : nullptr);
  MakeParents(out_path);
  om::WriteFile(out_path, model, OmWriteOptions(options));
  if (original) {
    const std::string original_path = out_path.substr(0, out_path.size() - 3) + "_original.om";
    try {
      om::WriteFile(original_path, *original, OmWriteOptions(options));
    } catch (const Error &e) {
      LogWarning("--save_original_model: '" + original_path + "' was not written: " + std::string(e.what()));
    }
  }
  if (FlagIs(options, "display_model_info", "1"))
    std::cout << ModelInfoBlock(model, om::InspectFile(out_path), options.command_line);
  return out_path;
}

}  // namespace openatc::atc
