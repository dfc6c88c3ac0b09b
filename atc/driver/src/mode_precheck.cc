// atc --mode=3 (pre-check): parse the graph, load the OPP roots and check every node without
// compiling: op-type resolution (with the closest registered names), the capabilities found, the
// REG_OP prototype match, the portability rule, and shape inference. Writes --check_report
// (default check_result.json, under $ASCEND_WORK_PATH when set) with each problem and its fix,
// atomically; fails when there is any problem.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "openatc/atc/driver.h"
#include "openatc/atc/flag_effects.h"
#include "openatc/common/atomic_file.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/target.h"
#include "openatc/compiler/compiler.h"
#include "openatc/ir/control_flow.h"
#include "openatc/compiler/op_checks.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/frame.h"
#include "openatc/opp/capabilities.h"
#include "openatc/opp/deliverable.h"
#include "openatc/opp/opp_paths.h"

namespace openatc::atc {
namespace {
using nlohmann::json;

json Problem(const std::string &code, const std::string &what, const std::string &fix) {
  return json{{"code", code}, {"problem", what}, {"fix", fix}};
}

std::string ReportPath(const Options &o) {
  std::string path = o.check_report.empty() ? "check_result.json" : o.check_report;
  const char *work = std::getenv("ASCEND_WORK_PATH");
  if (work != nullptr && *work != '\0' && !path.empty() && path[0] != '/') path = std::string(work) + "/" + path;
  return path;
}

void WriteAtomically(const std::string &path, const std::string &text) {
  if (WriteFileAtomic(path, text.data(), text.size())) {
    throw Error(ErrorCategory::kIo, "E13001", "cannot write the check report", "Check --check_report and permissions")
        .WithFile(path);
  }
}

json CheckNode(const ir::Node &node, const opp::CompileOppSet &opp_set, size_t *problems) {
  json j{{"name", node.name}, {"type", node.type}};
  json issues = json::array();
  if (ir::IsNativeOp(node.type)) {
    j["resolution"] = "run by the runtime (ONNX control flow, sequences, optionals)";
  } else if (compiler::IsFrameworkOp(node.type)) {
    j["resolution"] = "built into the graph format";
  } else {
    auto &registry = gert_impl::CustomOpRegistry::Global();
    if (!registry.Has(node.type)) {
      j["resolution"] = "not registered";
      std::string fix = "Set ASCEND_CUSTOM_OPP_PATH to the OPP root of the deliverable that registers '" + node.type +
                        "' with REG_AUTO_MAPPING_OP";
      auto close = ClosestRegisteredNames(node.type);
      if (!close.empty()) {
        fix += ", or rename the node type (closest registered: ";
        for (size_t i = 0; i < close.size(); ++i) fix += (i ? ", " : "") + close[i];
        fix += ")";
      }
      issues.push_back(Problem("OA1104", "op type '" + node.type + "' is not registered by any deliverable", fix));
    } else {
      j["resolution"] = "registered";
      j["deliverable"] = registry.Origin(node.type);
      const int provider = opp_set.Provider(node.type);
      if (provider < 0) {
        const compiler::OpCheckProblem p = compiler::NotFromDeliverableProblem();
        issues.push_back(Problem(p.code, p.message, p.hint));
      }
      std::string why;
      auto op = registry.GetOrCreate(node.type, &why);
      if (!op) {
        const compiler::OpCheckProblem p = compiler::CannotCreateProblem(why);
        issues.push_back(Problem(p.code, p.message, p.hint));
      } else {
        const uint32_t caps = opp::DetectCapabilities(op.get());
        j["capabilities"] = opp::CapabilitiesToString(caps);
        for (const compiler::OpCheckProblem &p : compiler::CapabilityProblems(caps, /*require_portable=*/true))
          issues.push_back(Problem(p.code, p.message, p.hint));
      }
      try {
        auto info = gert_impl::BuildNodeInfo(node);
        j["prototype"] = info->has_prototype ? "REG_OP prototype found" : "no REG_OP prototype (anchors by position)";
      } catch (const Error &e) {
        issues.push_back(Problem(e.code(), e.message(), e.hint()));
      }
    }
  }
  *problems += issues.size();
  j["problems"] = issues;
  return j;
}
}  // namespace

std::vector<std::string> ClosestRegisteredNames(const std::string &type) {
  return compiler::ClosestNames(type, gert_impl::CustomOpRegistry::Global().Types());
}

void PreCheckModel(const Options &options) {
  if (options.model.empty()) {
    throw Error(ErrorCategory::kUsage, "E10054", "the required parameter --model is empty",
                "Pass --model with the graph file to check");
  }
  // The same decision as a compile: a bad target fails at once; flags it ignores are warned about.
  const Target target = ResolveTarget(options.soc_version, options.emulation);
  for (const std::string &line : FlagEffectWarnings(options, &target)) LogWarning(line);
  json report{{"model", options.model}, {"soc_version", options.soc_version}};
  json global = json::array();
  size_t problems = 0;
  const auto roots = opp::CustomOppRootsFromEnv();
  if (roots.empty()) {
    global.push_back(Problem("OA1601", "ASCEND_CUSTOM_OPP_PATH is unset or empty: only built-in operators resolve",
                             "Set ASCEND_CUSTOM_OPP_PATH to your OPP root(s), colon-separated"));
  }
  for (const auto &root : roots) {
    std::string note = opp::DiagnoseRoot(root);
    if (!note.empty()) global.push_back(Problem("OA1602", note, "Point ASCEND_CUSTOM_OPP_PATH at the OPP root"));
  }
  ir::Graph graph = frontend::ReadGeIrFile(options.model);
  opp::CompileOppSet opp_set;
  opp_set.Load(roots, BuiltinOppRoot());
  json deliverables = json::array();
  for (const auto &d : opp_set.deliverables()) deliverables.push_back({{"path", d.path}, {"op_types", d.op_types}});
  report["deliverables"] = deliverables;
  json nodes = json::array();
  for (const auto &node : graph.nodes) nodes.push_back(CheckNode(node, opp_set, &problems));
  if (problems == 0) {
    try {
      compiler::TopologicalSort(graph);
      compiler::InferShapes(graph);
    } catch (const Error &e) {
      for (auto &n : nodes)
        if (n["name"] == e.node()) n["problems"].push_back(Problem(e.code(), e.message(), e.hint()));
      if (e.node().empty()) global.push_back(Problem(e.code(), e.message(), e.hint()));
      ++problems;
    }
  }
  report["nodes"] = nodes;
  report["problems"] = global;  // not tied to one node (OPP path notes are advice, not failures)
  report["result"] = problems == 0 ? "success" : "failed";
  const std::string path = ReportPath(options);
  WriteAtomically(path, report.dump(2) + "\n");
  if (problems != 0) {
    throw Error(ErrorCategory::kGraph, "OA1603",
                std::to_string(problems) + " problem(s) found; each is listed with its fix in '" + path + "'",
                "Fix them and run atc again")
        .WithFile(options.model);
  }
}

}  // namespace openatc::atc
