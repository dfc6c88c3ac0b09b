// Helpers of the offline build API tests (see ir_build_util.h).
#include "ir_build_util.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include "graph/operator_factory.h"
#include "ops_proto_legacy.h"
#include "run_command.h"

namespace openatc::testing {
namespace {
ge::Operator FloatData(const char *name) {
  ge::TensorDesc desc(ge::Shape({8}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto data = ge::op::Data(name);
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  return data;
}
std::string Bytes(const std::vector<float> &v) {
  return std::string(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(float));
}
}  // namespace

void SetBuildEnvironment() {
  REQUIRE(::setenv("ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/axpy").c_str(), 1) == 0);
  REQUIRE(::setenv("SOURCE_DATE_EPOCH", kEpoch, 1) == 0);
}

ge::Graph AxpyGraph(const char *name, float alpha) {
  auto x1 = FloatData("x1");
  auto x2 = FloatData("x2");
  auto axpy = ge::OperatorFactory::CreateOperator("axpy", "AxpyCustom");
  axpy.SetInput("x1", x1).SetInput("x2", x2);
  axpy.SetAttr("alpha", alpha);
  ge::Graph g(name);
  g.SetInputs({x1, x2}).SetOutputs({axpy});
  return g;
}

std::vector<float> X1() { return {1, 2, 3, 4, -5, 6.5f, 7, 0.25f}; }
std::vector<float> X2() { return {10, 20, 30, 40, 50, 60, 70, 80}; }
std::vector<float> Expected(float alpha) {
  std::vector<float> out;
  for (size_t i = 0; i < X1().size(); ++i) out.push_back(alpha * X1()[i] + X2()[i]);
  return out;
}

int AtcInDir(const std::string &dir, const std::string &name, const std::string &soc,
             const std::map<std::string, std::string> &env, std::string *log) {
  const std::string script = "cd '" + dir + "' && exec '" + BuildPath("bin/atc") + "' --model=" + name +
                             " --framework=1 --soc_version=" + soc + " --output=atc";
  auto r = RunCommand({"/bin/sh", "-c", script}, env);
  *log = r.out + r.err;
  return r.exit_code;
}

std::vector<float> RunOm(const std::string &dir, const std::string &om) {
  WriteBytes(dir + "/x1.bin", Bytes(X1()));
  WriteBytes(dir + "/x2.bin", Bytes(X2()));
  auto r = RunCommand({BuildPath("bin/omrun"), om, "--input", dir + "/x1.bin," + dir + "/x2.bin", "--output",
                       dir + "/out", "--outfmt", "BIN"},
                      {}, {"OPENATC_EMULATION", "ASCEND_CUSTOM_OPP_PATH"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string bytes = ReadText(dir + "/out/output_0.bin");
  std::vector<float> out(bytes.size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

}  // namespace openatc::testing
