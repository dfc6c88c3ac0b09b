// Private to libregister: the state behind a ge::Graph handle, shared by graph.cc and the AIR
// reader (air_reader.cc), and GraphAccess, the friend that lets library code reach it.
#ifndef OPENATC_REGISTER_SRC_GRAPH_IMPL_H_
#define OPENATC_REGISTER_SRC_GRAPH_IMPL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/operator.h"

namespace ge {

class GraphImpl {
 public:
  std::string name;
  std::vector<Operator> inputs;
  std::vector<std::pair<Operator, std::vector<size_t>>> outputs;
  std::vector<Operator> targets;
};

class GraphAccess {
 public:
  static const std::shared_ptr<GraphImpl> &Impl(const Graph &g) { return g.impl_; }
  static std::shared_ptr<GraphImpl> &MutableImpl(Graph &g) { return g.impl_; }
};

}  // namespace ge

#endif  // OPENATC_REGISTER_SRC_GRAPH_IMPL_H_
