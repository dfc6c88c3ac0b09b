// Shared fixtures of the frontend tests: the docs/ge-ir.md §5 example as JSON and a
// helper that reads a JSON string and returns the error text of a failing read.
#ifndef OPENATC_TESTS_FRONTEND_TEST_GRAPHS_H_
#define OPENATC_TESTS_FRONTEND_TEST_GRAPHS_H_

#include <string>

#include "openatc/common/error.h"
#include "openatc/frontend/ge_ir_reader.h"

namespace frontend_test {

/// docs/ge-ir.md §5: Data x1, x2 -> AddCustom "add" -> NetOutput, fp32 [4,4] ND.
inline const char *kSingleAddJson = R"JSON({
  "name": "single_add",
  "version": 1,
  "graph": [
    {
      "name": "single_add",
      "input": ["x1:0", "x2:0"],
      "output": ["add:0"],
      "op": [
        {
          "name": "x1",
          "type": "Data",
          "input": [""],
          "attr": { "index": { "i": "0" } },
          "inputDesc":  [ { "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" } ],
          "outputDesc": [ { "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" } ]
        },
        {
          "name": "x2",
          "type": "Data",
          "input": [""],
          "attr": { "index": { "i": "1" } },
          "inputDesc":  [ { "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" } ],
          "outputDesc": [ { "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" } ]
        },
        {
          "name": "add",
          "type": "AddCustom",
          "input": ["x1:0", "x2:0"],
          "attr": {
            "_input_name_key":   { "list": { "s": ["eDE=", "eDI="], "valType": "VT_LIST_STRING" } },
            "_input_name_value": { "list": { "i": ["0", "1"], "valType": "VT_LIST_INT" } },
            "_output_name_key":  { "list": { "s": ["eQ=="], "valType": "VT_LIST_STRING" } },
            "_output_name_value":{ "list": { "i": ["0"], "valType": "VT_LIST_INT" } }
          },
          "inputDesc": [
            { "name": "x1", "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" },
            { "name": "x2", "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" }
          ],
          "outputDesc": [
            { "name": "y", "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" }
          ]
        },
        {
          "name": "Node_Output",
          "type": "NetOutput",
          "input": ["add:0"],
          "inputDesc": [ { "dtype": "DT_FLOAT", "shape": { "dim": ["4", "4"] }, "layout": "ND" } ]
        }
      ]
    }
  ]
})JSON";

/// Wraps a JSON array of ops (and optional graph fields) into a ModelDef.
inline std::string Model(const std::string &ops, const std::string &graph_extra = "") {
  return R"({"graph": [{"name": "g", )" + graph_extra + R"( "op": [)" + ops + "]}]}";
}

/// A Data op with one fp32 output of the given dims (JSON text), optional index attr.
inline std::string DataOp(const std::string &name, const std::string &dims, int index = -1) {
  std::string attr =
      index >= 0 ? R"(, "attr": {"index": {"i": ")" + std::to_string(index) + R"("}})" : "";
  return R"({"name": ")" + name + R"(", "type": "Data", "input": [""])" + attr +
         R"(, "inputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": [)" + dims +
         R"(]}}], "outputDesc": [{"dtype": "DT_FLOAT", "shape": {"dim": [)" + dims + "]}}]}";
}

/// Reads `json`; returns the error's what() text, or "" when the read succeeds.
inline std::string ErrorOf(const std::string &json, openatc::frontend::GeIrEncoding enc =
                                                        openatc::frontend::GeIrEncoding::kJson) {
  try {
    openatc::frontend::ReadGeIrString(json, enc, "g.json");
  } catch (const openatc::Error &e) {
    return e.what();
  }
  return "";
}

}  // namespace frontend_test

#endif  // OPENATC_TESTS_FRONTEND_TEST_GRAPHS_H_
