// CompileGraph: the whole pipeline, and assembly of the om::Model.
#include <xxhash.h>

#include <set>

#include "annotated_launches.h"
#include "compile_ops.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/version.h"
#include "openatc/compiler/compiler.h"
#include "openatc/compiler/op_checks.h"
#include "openatc/rt/runtime.h"
#include "passes/passes.h"
#include "passes/precision.h"
#include "passes/weight_cache.h"
#include "python_ops.h"
#include "resolve_ops.h"

namespace openatc::compiler {
namespace {

void AttachDeliverables(om::Model &model, const std::map<std::string, OpTypeInfo> &types,
                        const opp::CompileOppSet &opp, const ir::Graph &graph) {
  std::map<int, int> model_index;  // CompileOppSet index -> Model::deliverables index
  for (const auto &[type, info] : types) {
    int provider = opp.Provider(type);
    if (provider < 0 && IsPythonLaunchOp(type)) continue;  // carried by its declared launches
    if (provider < 0) {
      const OpCheckProblem p = NotFromDeliverableProblem();
      throw Error(ErrorCategory::kGraph, p.code, p.message, p.hint).WithNode(graph.nodes[info.nodes.front()].name, type);
    }
    if (!model_index.count(provider)) model_index[provider] = -1;
  }
  // Keep OPP search order.
  for (auto &[provider, index] : model_index) {
    const opp::Deliverable &d = opp.deliverables()[static_cast<size_t>(provider)];
    om::Deliverable out;
    out.file_name = d.file_name;
    out.sdk_version = d.sdk_version;
    out.hash = XXH3_64bits(d.image.data, d.image.size);
    out.data = d.image;  // shared, read once when the OPP set was loaded
    for (const auto &[type, info] : types)
      if (opp.Provider(type) == provider) out.op_types.push_back(type);
    index = static_cast<int>(model.deliverables.size());
    model.deliverables.push_back(std::move(out));
  }
  for (auto &art : model.artifacts)
    if (opp.Provider(art.op_type) >= 0) art.deliverable = model_index.at(opp.Provider(art.op_type));
}

}  // namespace

om::Model CompileGraph(ir::Graph graph, const CompileOptions &options, const opp::CompileOppSet &opp) {
  try {
    ApplyInputShapes(graph, options.input_shapes);  // first: a wrong entry is reported as such
    TopologicalSort(graph);
    ResolveOpTypes(graph, opp);
    // GE's --oo_constant_folding / --oo_dead_code_elimination (docs/atc-flags.md §5, default true).
    auto off = [&](const char *key) {
      auto it = options.ge_options.find(key);
      return it != options.ge_options.end() && it->second == "false";
    };
    if (options.fold_constants && !off("ge.oo.constantFolding")) {
      FoldOptions fold = BuiltinFoldOptions(opp);
      AddPythonFoldTypes(fold);
      InferShapes(graph, &fold);
      if (!off("ge.oo.deadCodeElimination")) RemoveDeadNodes(graph, fold.op_types);
    } else {
      InferShapes(graph);
    }
    if (!options.online) CheckNoPythonNodes(graph);
    // Graph optimisation of built-in ops (passes/passes.h), before the memory plan.
    auto sw = options.ge_options.find("ge.fusionSwitchFile");
    const passes::PassSwitches switches = sw != options.ge_options.end() && !sw->second.empty()
                                              ? passes::ReadFusionSwitchFile(sw->second)
                                              : passes::PassSwitches();
    if (options.optimise) passes::RunGraphPasses(graph, switches, BuiltinFoldOptions(opp).op_types);
    // Precision modes after fusion, as ATC selects op dtypes after its fusion passes (precision.h).
    passes::ApplyIoDtypes(graph, options.ge_options, BuiltinFoldOptions(opp).op_types);
    if (options.optimise) {
      passes::ApplyPrecision(graph, passes::PrecisionConfigFromOptions(options.ge_options), BuiltinFoldOptions(opp).op_types);
      if (switches.enabled(passes::kWeightPrepack)) {
        passes::WeightCache cache(options.kernel_cache, options.target.soc_version, opp);  // the op compile cache
        passes::RunWeightPrepack(graph, BuiltinFoldOptions(opp).op_types, cache);
      }
      if (switches.enabled(passes::kNanScanShare)) passes::RunNanScanShare(graph, BuiltinFoldOptions(opp).op_types);
    }
    auto types = CollectOpTypes(graph, !options.online);
    rt::SetCompileTarget(options.target);  // what the RTC compiles for in the ops' Compile
    rt::SetKernelCache(options.kernel_cache);  // and through which op compile cache
    CompileNodes(graph, types, options);
    std::map<std::string, std::vector<uint8_t>> payloads;
    if (!options.online) payloads = SerializeOps(types);
    const auto no_reuse = options.ge_options.find("ge.exec.disableReuseMemory");
    const int64_t arena = PlanMemory(graph, no_reuse == options.ge_options.end() || no_reuse->second != "1",
                                     options.optimise && switches.enabled(passes::kAddendInPlace));
    DeclareAnnotatedLaunches(graph, types, arena >= 0);

    om::Model model;
    model.producer = OPENATC_PRODUCER;
    model.target = options.target;
    model.build_options = options.build_record;
    if (arena >= 0) LogInfo("memory plan: arena of " + std::to_string(arena) + " bytes");
    for (const auto &[type, info] : types) {
      om::OpArtifact art;
      art.op_type = type;
      art.capabilities = info.capabilities;
      art.producer = OPENATC_PRODUCER;
      auto it = payloads.find(type);
      if (it != payloads.end()) {
        art.has_payload = true;
        art.hash = XXH3_64bits(it->second.data(), it->second.size());
        art.payload = ir::Bytes::FromVector(std::move(it->second));
      }
      model.artifacts.push_back(std::move(art));
    }
    if (!options.online) AttachDeliverables(model, types, opp, graph);
    model.graph = std::move(graph);
    return model;
  } catch (Error &e) {
    e.WithFile(options.model_path);
    throw;
  }
}

}  // namespace openatc::compiler
