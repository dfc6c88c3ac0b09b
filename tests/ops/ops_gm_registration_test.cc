// The built-in ops library declares that it launches no kernels (ops/common/deliverable_traits.cc),
// so a run registers no buffers for the global-memory checks around its nodes, neither their
// inputs and outputs nor the outputs it allocates at run time (loader/runtime/src/executor.cc);
// a kernel-launching consumer registers what it reads (tests/rt/gm_check_test.cc covers checks).
#include <catch2/catch.hpp>

#include "op_harness.h"
#include "openatc/rt/gm_registry.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
// Counts the registered buffers while each node has finished and its registrations still live.
struct RegistrationCounter : runtime::NodeObserver {
  std::vector<size_t> during;
  void Started(size_t) override {}
  void Finished(size_t, const std::vector<runtime::TensorView> &, const std::vector<runtime::TensorView> &) override {
    during.push_back(rt::GmRegistry::Process().count());
  }
};
}  // namespace

TEST_CASE("built-in ops register no global-memory buffers around their nodes", "[ops]") {
  for (const bool dynamic : {false, true}) {
    CAPTURE(dynamic);
    OpInput x(Tensor<float>(ge::DT_FLOAT, {4}, {1.f, 2.f, 3.f, 4.f}));
    if (dynamic) x.declared_shape = {-1};  // outputs allocated at run time (MallocOutputTensor)
    OpCase c("Add", {x, OpInput(Tensor<float>(ge::DT_FLOAT, {4}, {10.f, 20.f, 30.f, 40.f}), true)});
    std::vector<HostTensor> feeds;
    auto model = LoadOp(c, &feeds);
    RegistrationCounter counter;
    model->set_node_observer(&counter);
    const size_t before = rt::GmRegistry::Process().count();
    for (int run = 0; run < 2; ++run) {
      const auto out = model->Run(feeds);
      REQUIRE(out.size() == 1);
      CHECK(Values<float>(out[0]) == std::vector<float>{11.f, 22.f, 33.f, 44.f});
    }
    REQUIRE(counter.during.size() == 2);  // the Add node, once a run
    for (size_t n : counter.during) CHECK(n == before);
    CHECK(rt::GmRegistry::Process().count() == before);
  }
}
