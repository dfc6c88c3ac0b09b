// Graph outputs, building the ge::Graph, and AIR files for the ES builder (ge/es_graph_builder_c.h).
#include <stdexcept>

#include "es_builder.h"

using openatc::es::Guarded;
using openatc::es::GuardedStatus;

namespace {

EsGraph *NewGraph(ge::Graph graph) {
  auto *g = new EsGraph();
  ge::AscendString name;
  graph.GetName(name);
  g->name = name.GetString() != nullptr ? name.GetString() : "";
  g->graph = std::move(graph);
  return g;
}

void RequireDense(const std::map<int64_t, EsTensorHolder *> &m, const std::string &what) {
  int64_t expect = 0;
  for (const auto &kv : m) {
    if (kv.first != expect)
      throw std::invalid_argument(what + " indices must be 0.." + std::to_string(m.size() - 1) + " with none missing; " +
                                  what + " " + std::to_string(expect) + " is not set");
    ++expect;
  }
}

}  // namespace

extern "C" {

int32_t EsSetGraphOutput(EsTensorHolder *holder, int64_t index) {
  return GuardedStatus([&] {
    openatc::es::CheckedNode(holder);
    if (holder->index < 0) throw std::invalid_argument("the node has no output");
    if (index < 0) throw std::invalid_argument("output index " + std::to_string(index) + " is negative");
    auto &outs = holder->builder->outputs;
    if (outs.count(index) != 0) throw std::invalid_argument("output index " + std::to_string(index) + " is already set");
    outs[index] = holder;
  });
}

EsGraph *EsBuildGraphAndReset(EsGraphBuilder *builder) {
  return Guarded<EsGraph *>(nullptr, [&] {
    if (builder == nullptr) throw std::invalid_argument("the graph builder is NULL");
    if (builder->outputs.empty()) throw std::invalid_argument("graph '" + builder->name + "' has no output (call set_graph_output)");
    RequireDense(builder->inputs, "input");
    RequireDense(builder->outputs, "output");
    std::vector<ge::Operator> inputs;
    for (const auto &kv : builder->inputs) inputs.push_back(kv.second->node->op);
    std::vector<std::pair<ge::Operator, std::vector<size_t>>> outputs;
    for (const auto &kv : builder->outputs)
      outputs.push_back({kv.second->node->op, {static_cast<size_t>(kv.second->index)}});
    ge::Graph graph(builder->name.c_str());
    graph.SetInputs(inputs).SetOutputs(outputs);
    EsGraph *g = NewGraph(std::move(graph));
    builder->nodes.clear();
    builder->inputs.clear();
    builder->outputs.clear();
    builder->name_counts.clear();
    return g;
  });
}

void EsDestroyGraph(EsGraph *graph) { delete graph; }

EsGraph *EsCopyGraph(const EsGraph *graph) {
  return Guarded<EsGraph *>(nullptr, [&] {
    if (graph == nullptr) throw std::invalid_argument("the graph is NULL");
    return new EsGraph(*graph);
  });
}

void *EsGraphNative(EsGraph *graph) { return graph != nullptr ? &graph->graph : nullptr; }

const char *EsGraphName(const EsGraph *graph) { return graph != nullptr ? graph->name.c_str() : ""; }

int32_t EsGraphSaveToAir(const EsGraph *graph, const char *path) {
  return GuardedStatus([&] {
    if (graph == nullptr || path == nullptr) throw std::invalid_argument("the graph or the path is NULL");
    if (graph->graph.SaveToFile(path) != ge::GRAPH_SUCCESS)
      throw std::runtime_error("cannot write AIR file '" + std::string(path) + "' (see the log above)");
  });
}

EsGraph *EsGraphLoadFromAir(const char *path) {
  return Guarded<EsGraph *>(nullptr, [&] {
    if (path == nullptr) throw std::invalid_argument("the path is NULL");
    ge::Graph graph("loaded");
    if (graph.LoadFromFile(path) != ge::GRAPH_SUCCESS)
      throw std::runtime_error("cannot read AIR file '" + std::string(path) + "' (missing, unreadable or malformed)");
    return NewGraph(std::move(graph));
  });
}

}  // extern "C"
