// CompileAndRun (aipp_util.h).
#include "aipp_util.h"

#include <cstring>

#include "openatc/tensor_io/tensor_io.h"

namespace aipp_test {
namespace {

std::string GraphJson(const Model &m) {
  std::string dims;
  for (size_t i = 0; i < m.dims.size(); ++i) dims += (i ? ", " : "") + std::to_string(m.dims[i]);
  const std::string d = "{ \"dtype\": \"" + m.dtype + "\", \"shape\": { \"dim\": [" + dims + "] }, \"layout\": \"" +
                        m.layout + "\" }";
  return "{ \"name\": \"g\", \"graph\": [ { \"name\": \"g\", \"output\": [\"op:0\"], \"op\": [ { \"name\": \"img\", "
         "\"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"0\" } }, \"inputDesc\": [" +
         d + "], \"outputDesc\": [" + d + "] }, { \"name\": \"op\", \"type\": \"Identity\", \"input\": [\"img:0\"] } ] } ] }";
}

}  // namespace

Run CompileAndRun(const Model &m, const std::string &config, const std::vector<uint8_t> &image,
                  const std::vector<std::string> &extra) {
  return CompileAndRunInputs(m, config, {image}, extra);
}

Run CompileAndRunInputs(const Model &m, const std::string &config, const std::vector<std::vector<uint8_t>> &inputs,
                        const std::vector<std::string> &extra) {
  using namespace openatc::testing;
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", GraphJson(m));
  WriteBytes(dir + "/aipp.cfg", config);
  std::string files;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string f = dir + "/in" + std::to_string(i) + ".bin";
    WriteBytes(f, std::string(inputs[i].begin(), inputs[i].end()));
    files += (i ? "," : "") + f;
  }
  std::vector<std::string> args = {"--model", dir + "/g.json", "--framework", "1", "--soc_version", "host",
                                   "--output", dir + "/m", "--insert_op_conf", dir + "/aipp.cfg"};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r;
  const CommandResult atc = RunAtc(args, "");
  r.atc_exit = atc.exit_code, r.atc_err = atc.err;
  if (atc.exit_code == 0) {
    const CommandResult run = RunOmrun({dir + "/m.om", "--input", files, "--output", dir + "/out"});
    r.omrun_exit = run.exit_code, r.omrun_err = run.err, r.omrun_out = run.out;
    if (run.exit_code == 0) {
      const openatc::tensor_io::HostTensor t = openatc::tensor_io::ReadNpy(dir + "/out/output_0.npy");
      r.out_shape = t.shape;
      if (t.dtype == ge::DT_FLOAT) {
        r.out.resize(t.data.size() / 4);
        std::memcpy(r.out.data(), t.data.data(), t.data.size());
      } else {
        for (uint8_t b : t.data) r.out.push_back(static_cast<float>(b));
      }
    }
  }
  RemoveTree(dir);
  return r;
}

}  // namespace aipp_test
