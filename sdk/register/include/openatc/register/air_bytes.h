/**
 * @file openatc/register/air_bytes.h
 * INTERNAL (not part of the public SDK): a ge::Graph as AIR bytes in memory, exactly the bytes
 * ge::Graph::SaveToFile writes (binary ge.proto.ModelDef, deterministic; docs/ge-ir.md §1-§4).
 * GE's offline build API (ge_api/ir_build) compiles these bytes as atc compiles the file.
 */
#ifndef OPENATC_REGISTER_AIR_BYTES_H_
#define OPENATC_REGISTER_AIR_BYTES_H_

#include <string>

#include "graph/graph.h"
#include "openatc/register/attr_value.h"

namespace openatc::reg {

/// Serializes `graph` into *bytes. False with the reason in *why (a default-constructed graph, a
/// cycle, an attribute kind AIR cannot hold, a message over 2 GiB); *bytes is then unspecified.
/// Sets no last error: the caller reports the failure in its own words.
OPENATC_REG_INTERNAL_API bool GraphToAirBytes(const ge::Graph &graph, std::string *bytes, std::string *why);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_AIR_BYTES_H_
