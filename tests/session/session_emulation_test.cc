// ge::Session under OPENATC_EMULATION (ge_api/ge_runner graph_entry.cc OnlineTarget): the online
// flow compiles for the switch's chip, so the test op PlatformProbe (tests/deliverables/
// platform_probe) sees Ascend910_9362's facts and options at Compile and its NpuArch from
// aclrtGetDeviceInfo at run. The switch is read once per process: this binary holds this one test
// case and sets the variable for itself first (the product never sets it).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "run_command.h"
#include "session_util.h"

using namespace openatc::testing;

TEST_CASE("session: an online graph compiles for the switch's emulated chip", "[session][emulation]") {
  REQUIRE(::setenv("OPENATC_EMULATION", "Ascend910_9362", 1) == 0);
  REQUIRE(::setenv("ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/platform_probe").c_str(), 1) == 0);
  REQUIRE(ge::GEInitialize(GeOptions{}) == ge::SUCCESS);
  {
    ge::Session session(GeOptions{});
    REQUIRE(session.AddGraph(1, UnaryGraph("PlatformProbe", {8})) == ge::SUCCESS);
    REQUIRE(session.CompileGraph(1) == ge::SUCCESS);
    REQUIRE(session.LoadGraph(1, {}, nullptr) == ge::SUCCESS);
    std::vector<float> x(8, 0.0f), y(8, 0.0f);
    std::vector<gert::Tensor> in, out;
    in.push_back(DeviceTensor({8}, ge::DT_FLOAT, x.data()));
    out.push_back(DeviceTensor({8}, ge::DT_FLOAT, y.data()));
    REQUIRE(session.ExecuteGraphWithStreamAsync(1, nullptr, in, out) == ge::SUCCESS);
    // NpuArch, AI / vector cores, UB KiB, the chip's jit_compile, the device's NpuArch at run,
    // force_fp16, strlen("Ascend910_9362").
    CHECK(y == std::vector<float>{2201, 24, 48, 192, 2, 2201, 1, 14});
  }
  (void)ge::GEFinalize();
  ::unsetenv("OPENATC_EMULATION");
}
