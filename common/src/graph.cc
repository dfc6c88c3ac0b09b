// Small helpers of the IR graph (byte views, node lookup).
#include "openatc/ir/graph.h"

#include <cstring>

namespace openatc::ir {

Bytes Bytes::Copy(const void *data, size_t size) {
  return FromVector(std::vector<uint8_t>(static_cast<const uint8_t *>(data),
                                         static_cast<const uint8_t *>(data) + size));
}

Bytes Bytes::FromVector(std::vector<uint8_t> v) {
  auto holder = std::make_shared<std::vector<uint8_t>>(std::move(v));
  Bytes b;
  b.data = holder->data();
  b.size = holder->size();
  b.owner = holder;
  return b;
}

int32_t Graph::FindNode(const std::string &name) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

}  // namespace openatc::ir
