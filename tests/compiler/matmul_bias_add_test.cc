// MatMulBiasAddFoldPass (atc/compiler/src/passes/matmul_bias_add_fold.cc) and the MatMul bias it
// sets (ops/MatMul.cc): Add(MatMul(A, B), C) with C of N constants becomes one MatMul with a bias,
// in either Add operand order and for C as [N] or [1, 1, N]; near misses stay as they are. All
// values are small integers, so every product and sum is exact in float32: the fused and unfused
// models must give exactly the integer reference.
#include <catch2/catch.hpp>

#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

std::vector<float> Ints(size_t n, int lo, int span, int step) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(lo + static_cast<int>((i * static_cast<size_t>(step)) % static_cast<size_t>(span)));
  return v;
}

// A [2, 3, 4] x B [4, 5] + C, in double (exact here).
std::vector<float> Reference(const std::vector<float> &a, const std::vector<float> &b, const std::vector<float> &c) {
  std::vector<float> y(30);
  for (size_t r = 0; r < 6; ++r)
    for (size_t j = 0; j < 5; ++j) {
      double acc = c[j];
      for (size_t q = 0; q < 4; ++q) acc += double(a[r * 4 + q]) * double(b[q * 5 + j]);
      y[r * 5 + j] = static_cast<float>(acc);
    }
  return y;
}

}  // namespace

TEST_CASE("MatMulBiasAddFoldPass folds an Add of N constants into the MatMul's bias", "[compiler][passes]") {
  const std::vector<float> av = Ints(24, -3, 7, 5), bv = Ints(20, -2, 5, 3), cv = Ints(5, -4, 9, 2);
  const std::vector<float> want = Reference(av, bv, cv);
  for (int variant = 0; variant < 3; ++variant) {
    const bool const_first = variant == 1;
    const std::vector<int64_t> cshape = variant == 2 ? std::vector<int64_t>{1, 1, 5} : std::vector<int64_t>{5};
    INFO("C first " << const_first << ", C rank " << cshape.size());
    Builder b;
    const int32_t x = b.Data("x", {2, 3, 4});
    const int32_t mm = b.Op("mm", "MatMul", {x, b.Const("w", {4, 5}, bv)});
    const int32_t c = b.Const("c", cshape, cv);
    b.Output({b.Op("add", "Add", const_first ? std::vector<int32_t>{c, mm} : std::vector<int32_t>{mm, c})});
    const om::Model fused = Compile(b.g, AllOn()), plain = Compile(b.g, AllOff());
    const ir::Node &f = Named(fused.graph, "add");
    CHECK(f.type == "MatMul");
    CHECK(f.inputs.size() == 3);
    CHECK(FusedList(f) == std::vector<std::string>{"mm", "add"});
    CHECK(Named(plain.graph, "add").type == "Add");
    for (const om::Model *m : {&fused, &plain}) CHECK(Values(RunModel(*m, {Host({2, 3, 4}, av)})[0]) == want);
  }
}

TEST_CASE("MatMulBiasAddFoldPass leaves other Adds after a MatMul alone", "[compiler][passes]") {
  const std::vector<float> bv = Ints(20, -2, 5, 3);
  // C varies along another axis than the columns: not a bias.
  {
    Builder b;
    const int32_t mm = b.Op("mm", "MatMul", {b.Data("x", {2, 3, 4}), b.Const("w", {4, 5}, bv)});
    b.Output({b.Op("add", "Add", {mm, b.Const("c", {3, 1}, Ints(3, 1, 3, 1))})});
    CHECK(Named(Compile(b.g, AllOn()).graph, "add").type == "Add");
  }
  // The product has a second reader.
  {
    Builder b;
    const int32_t mm = b.Op("mm", "MatMul", {b.Data("x", {2, 3, 4}), b.Const("w", {4, 5}, bv)});
    b.Output({b.Op("add", "Add", {mm, b.Const("c", {5}, Ints(5, 1, 5, 1))}), b.Op("relu", "Relu", {mm})});
    CHECK(Named(Compile(b.g, AllOn()).graph, "add").type == "Add");
  }
  // The addend is not a constant.
  {
    Builder b;
    const int32_t mm = b.Op("mm", "MatMul", {b.Data("x", {2, 3, 4}), b.Const("w", {4, 5}, bv)});
    b.Output({b.Op("add", "Add", {mm, b.Data("y", {5})})});
    CHECK(Named(Compile(b.g, AllOn()).graph, "add").type == "Add");
  }
}

TEST_CASE("a prepared MatMul (with and without bias) computes on each run's data", "[compiler][passes]") {
  // The prepared state keeps its oneDNN memory objects between runs and points them at each run's
  // buffers (ops/common/matmul_prepared.h): runs on other inputs, static and with a run-time batch,
  // must each give that input's product.
  const std::vector<float> bv = Ints(20, -2, 5, 3), cv = Ints(5, -4, 9, 2), zero(5, 0.0f);
  for (const bool bias : {false, true}) {
    for (const int64_t batch : {int64_t{2}, int64_t{-1}}) {
      INFO("bias " << bias << ", batch dim " << batch);
      Builder b;
      const int32_t mm = b.Op("mm", "MatMul", {b.Data("x", {batch, 3, 4}), b.Const("w", {4, 5}, bv)});
      b.Output({bias ? b.Op("add", "Add", {mm, b.Const("c", {5}, cv)}) : mm});
      const om::Model m = Compile(b.g, AllOn());
      auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(m));
      auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<pass test>");
      for (int run = 0; run < 3; ++run) {
        const std::vector<float> av = Ints(24, -3 - run, 7 + run, 5 + 2 * run);
        CHECK(Values(model->Run({Host({2, 3, 4}, av)})[0]) == Reference(av, bv, bias ? cv : zero));
      }
    }
  }
}
