// Helpers for end-to-end tests.
#include "e2e_util.h"

#include <cstdio>

namespace openatc::testing {
namespace {
std::string Dims(const std::vector<int64_t> &dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", \"" : "\"") + std::to_string(dims[i]) + "\"";
  return s;
}
}  // namespace

std::string DescJson(const std::string &dtype, const std::vector<int64_t> &dims) {
  return "{ \"dtype\": \"" + dtype + "\", \"shape\": { \"dim\": [" + Dims(dims) + "] }, \"layout\": \"ND\" }";
}
std::string DataOpJson(const std::string &name, int index, const std::string &desc) {
  return "{ \"name\": \"" + name + "\", \"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"" +
         std::to_string(index) + "\" } }, \"inputDesc\": [" + desc + "], \"outputDesc\": [" + desc + "] }";
}

std::string AxpyGraphJson(const std::string &dtype, const std::vector<int64_t> &dims, float alpha, bool set_alpha) {
  const std::string d = DescJson(dtype, dims);
  char alpha_text[32];
  std::snprintf(alpha_text, sizeof(alpha_text), "%.9g", alpha);
  return "{ \"name\": \"axpy\", \"graph\": [ { \"name\": \"axpy_graph\", \"output\": [\"axpy:0\"], \"op\": [" +
         DataOpJson("x1", 0, d) + ", " + DataOpJson("x2", 1, d) +
         ", { \"name\": \"axpy\", \"type\": \"AxpyCustom\", \"input\": [\"x1:0\", \"x2:0\"]" +
         (set_alpha ? std::string(", \"attr\": { \"alpha\": { \"f\": ") + alpha_text + " } }" : std::string()) +
         " } ] } ] }";
}

std::string UnaryGraphJson(const std::string &op_type, const std::vector<int64_t> &dims) {
  const std::string d = DescJson("DT_FLOAT", dims);
  return "{ \"name\": \"unary\", \"graph\": [ { \"name\": \"unary\", \"output\": [\"op:0\"], \"op\": [" +
         DataOpJson("x", 0, d) + ", { \"name\": \"op\", \"type\": \"" + op_type + "\", \"input\": [\"x:0\"] } ] } ] }";
}

const float kExtW1[6] = {1, 2, 3, 4, 5, 6};
const float kExtW2[6] = {0.5f, -1, 2, 0.25f, 3, -2};

std::string ExternalWeightGraphJson() {
  const std::string d = DescJson("DT_FLOAT", {2, 3});
  auto konst = [&](const std::string &name, const std::string &b64) {  // base64 of kExtW1 / kExtW2
    return "{ \"name\": \"" + name + "\", \"type\": \"Const\", \"attr\": { \"value\": { \"t\": { \"desc\": " + d +
           ", \"data\": \"" + b64 + "\" } } }, \"outputDesc\": [" + d + "] }";
  };
  auto binary = [&](const std::string &name, const std::string &type, const std::string &a, const std::string &b) {
    return "{ \"name\": \"" + name + "\", \"type\": \"" + type + "\", \"input\": [\"" + a + ":0\", \"" + b + ":0\"] }";
  };
  return "{ \"name\": \"g\", \"graph\": [ { \"name\": \"g\", \"output\": [\"y:0\"], \"op\": [" + DataOpJson("x", 0, d) + ", " +
         konst("w1", "AACAPwAAAEAAAEBAAACAQAAAoEAAAMBA") + ", " + konst("w2", "AAAAPwAAgL8AAABAAACAPgAAQEAAAADA") +
         ", " + konst("w3", "AACAPwAAAEAAAEBAAACAQAAAoEAAAMBA") + ", " + binary("a", "Add", "x", "w1") + ", " +
         binary("b", "Mul", "a", "w2") + ", " + binary("y", "Add", "b", "w3") + " ] } ] }";
}

CommandResult RunAtc(const std::vector<std::string> &args, const std::string &opp_path) {
  std::vector<std::string> argv = {BuildPath("bin/atc")};
  argv.insert(argv.end(), args.begin(), args.end());
  if (opp_path.empty()) return RunCommand(argv, {}, {"ASCEND_CUSTOM_OPP_PATH"});
  return RunCommand(argv, {{"ASCEND_CUSTOM_OPP_PATH", opp_path}});
}

CommandResult RunOmrun(const std::vector<std::string> &args) {
  std::vector<std::string> argv = {BuildPath("bin/omrun")};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, {}, {"ASCEND_CUSTOM_OPP_PATH"});
}

std::string AxpyOpp() { return BuildPath("tests/opp/axpy"); }
std::string AddCustomOpp() { return BuildPath("examples/compilable_add_custom/opp"); }

}  // namespace openatc::testing
