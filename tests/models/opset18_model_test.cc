// Issue 14's opset-18 real model: ../shared/models/ultraface-rfb-320 (opset 9, see its SOURCE.md)
// rewritten with protobuf into its opset-18 form (default-domain opset import 18, IR 8), every op
// in the form ONNX 18 defines (ONNX operator changelog): Unsqueeze/Squeeze-13 axes and Slice-10
// starts/ends/axes as int64 inputs, Clip-11 min/max as inputs, Reduce*-18 axes as an input, Split-18
// `split` as an input, and Softmax/LogSoftmax/Hardmax-1..11's "flatten to
// 2-D at axis" rule spelled out as Flatten -> op(axis -1) -> Reshape to the input's shape, which is
// that rule in opset-13 terms. An op this rewrite does not know to have changed before 18 is a
// test failure, never silently kept. The rewritten model is compiled with atc and must match the
// model's reference outputs with the tolerances of tests/models/models_test.cc (rtol 1e-3, atol
// 1e-4 unless SOURCE.md says otherwise). Skipped when ../shared/models is absent.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <onnx/onnx_pb.h>

#include "run_command.h"
#include "subprocess.h"

using namespace openatc::testing;
using openatc::conformance::ProcessResult;
using openatc::conformance::RunWithTimeout;

namespace {

bool Exists(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

// The rewrite, with counts of what it changed (asserted by the test).
class ToOpset18 {
 public:
  std::map<std::string, int> rewritten;  ///< op type -> nodes rewritten
  std::string problem;                   ///< first op the rewrite cannot convert ("" when none)

  void Run(onnx::ModelProto &m) {
    int64_t from = 1;
    for (auto &imp : *m.mutable_opset_import())
      if (imp.domain().empty() || imp.domain() == "ai.onnx") from = imp.version(), imp.set_version(18);
    from_ = from;
    if (m.ir_version() < 8) m.set_ir_version(8);
    onnx::GraphProto &g = *m.mutable_graph();
    google::protobuf::RepeatedPtrField<onnx::NodeProto> out;
    for (const auto &n : g.node()) Convert(n, g, &out);
    *g.mutable_node() = out;
  }

 private:
  int64_t from_ = 1;
  int fresh_ = 0;

  std::string Fresh(const std::string &base) { return base + "_op18_" + std::to_string(fresh_++); }

  static const onnx::AttributeProto *Attr(const onnx::NodeProto &n, const std::string &name) {
    for (const auto &a : n.attribute())
      if (a.name() == name) return &a;
    return nullptr;
  }
  static void Drop(onnx::NodeProto &n, const std::set<std::string> &names) {
    google::protobuf::RepeatedPtrField<onnx::AttributeProto> keep;
    for (const auto &a : n.attribute())
      if (!names.count(a.name())) *keep.Add() = a;
    *n.mutable_attribute() = keep;
  }
  std::string Ints(onnx::GraphProto &g, const std::string &base, const google::protobuf::RepeatedField<int64_t> &v) {
    onnx::TensorProto &t = *g.add_initializer();
    t.set_name(Fresh(base));
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims(v.size());
    for (int64_t x : v) t.add_int64_data(x);
    return t.name();
  }
  std::string FloatScalar(onnx::GraphProto &g, const std::string &base, float v) {
    onnx::TensorProto &t = *g.add_initializer();
    t.set_name(Fresh(base));
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_float_data(v);
    return t.name();
  }
  void Count(const std::string &op) { ++rewritten[op]; }

  void Convert(const onnx::NodeProto &orig, onnx::GraphProto &g, google::protobuf::RepeatedPtrField<onnx::NodeProto> *out) {
    onnx::NodeProto n = orig;
    const std::string &op = n.op_type();
    static const std::set<std::string> kReduce = {"ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd", "ReduceSum",
                                                  "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
                                                  "ReduceSumSquare"};
    // Ops whose pre-18 forms differ in ways this rewrite does not handle.
    static const std::set<std::string> kUnhandled = {"Upsample", "Resize", "Dropout", "Scan", "Loop", "If",
                                                     "TopK", "Pad"};
    if ((op == "Unsqueeze" || op == "Squeeze") && from_ < 13) {
      if (const auto *axes = Attr(n, "axes")) {
        n.add_input(Ints(g, n.output(0) + "_axes", axes->ints()));
        Drop(n, {"axes"});
      }
      Count(op);
    } else if (op == "Slice" && from_ < 10) {
      const auto *starts = Attr(n, "starts"), *ends = Attr(n, "ends"), *axes = Attr(n, "axes");
      if (!starts || !ends) {
        problem = "Slice without starts/ends";
        return;
      }
      n.add_input(Ints(g, n.output(0) + "_starts", starts->ints()));
      n.add_input(Ints(g, n.output(0) + "_ends", ends->ints()));
      if (axes) n.add_input(Ints(g, n.output(0) + "_axes", axes->ints()));
      Drop(n, {"starts", "ends", "axes"});
      Count(op);
    } else if (op == "Clip" && from_ < 11) {
      const auto *lo = Attr(n, "min"), *hi = Attr(n, "max");
      n.add_input(lo ? FloatScalar(g, n.output(0) + "_min", lo->f()) : "");
      if (hi) n.add_input(FloatScalar(g, n.output(0) + "_max", hi->f()));
      Drop(n, {"min", "max"});
      Count(op);
    } else if (kReduce.count(op) && Attr(n, "axes") != nullptr) {
      n.add_input(Ints(g, n.output(0) + "_axes", Attr(n, "axes")->ints()));
      Drop(n, {"axes"});
      Count(op);
    } else if (op == "Split" && Attr(n, "split") != nullptr) {
      n.add_input(Ints(g, n.output(0) + "_split", Attr(n, "split")->ints()));
      Drop(n, {"split"});
      Count(op);
    } else if ((op == "Softmax" || op == "LogSoftmax" || op == "Hardmax") && from_ < 13) {
      const auto *a = Attr(n, "axis");
      const int64_t axis = a ? a->i() : 1;
      const std::string x = n.input(0), flat = Fresh(x + "_flat"), y2 = Fresh(x + "_y2"), shape = Fresh(x + "_shape");
      onnx::NodeProto &f = *out->Add();
      f.set_op_type("Flatten");
      f.set_name(Fresh("flatten"));
      f.add_input(x);
      f.add_output(flat);
      auto *fa = f.add_attribute();
      fa->set_name("axis");
      fa->set_type(onnx::AttributeProto::INT);
      fa->set_i(axis);
      onnx::NodeProto &s = *out->Add();
      s.set_op_type("Shape");
      s.set_name(Fresh("shape"));
      s.add_input(x);
      s.add_output(shape);
      const std::string y = n.output(0);
      n.set_input(0, flat);
      n.set_output(0, y2);
      Drop(n, {"axis"});
      auto *na = n.add_attribute();
      na->set_name("axis");
      na->set_type(onnx::AttributeProto::INT);
      na->set_i(-1);
      *out->Add() = n;
      onnx::NodeProto &r = *out->Add();
      r.set_op_type("Reshape");
      r.set_name(Fresh("reshape"));
      r.add_input(y2);
      r.add_input(shape);
      r.add_output(y);
      Count(op);
      return;
    } else if (op == "BatchNormalization" && (Attr(n, "spatial") || Attr(n, "is_test") || Attr(n, "consumed_inputs"))) {
      problem = "BatchNormalization with a pre-9 attribute";
    } else if (kUnhandled.count(op)) {
      problem = op + " (its pre-18 form is not rewritten here)";
    }
    *out->Add() = n;
  }
};

}  // namespace

TEST_CASE("opset 18: ultraface-rfb-320 rewritten to its opset-18 form matches its reference outputs") {
  const std::string dir = SourcePath("../shared/models/ultraface-rfb-320");
  if (!Exists(dir + "/model.onnx")) {
    WARN("skipped: " << dir << " is absent");
    return;
  }
  onnx::ModelProto m;
  {
    const std::string bytes = ReadText(dir + "/model.onnx");
    REQUIRE(m.ParseFromString(bytes));
  }
  ToOpset18 rewrite;
  rewrite.Run(m);
  INFO(rewrite.problem);
  REQUIRE(rewrite.problem.empty());
  // What the model holds (its SOURCE.md): 24 Unsqueeze, 6 Slice, 1 Softmax in their opset-9 forms.
  CHECK(rewrite.rewritten["Unsqueeze"] == 24);
  CHECK(rewrite.rewritten["Slice"] == 6);
  CHECK(rewrite.rewritten["Softmax"] == 1);
  REQUIRE(m.opset_import_size() >= 1);
  for (const auto &imp : m.opset_import())
    if (imp.domain().empty()) CHECK(imp.version() == 18);
  CHECK(m.ir_version() >= 8);

  double atol = 1e-4, rtol = 1e-3;
  const std::string source = ReadText(dir + "/SOURCE.md");
  std::smatch sm;
  if (std::regex_search(source, sm, std::regex("use atol ([0-9.eE+-]+)"))) atol = std::atof(sm[1].str().c_str());
  if (std::regex_search(source, sm, std::regex("use rtol ([0-9.eE+-]+)"))) rtol = std::atof(sm[1].str().c_str());

  const std::string work = MakeTempDir();
  {
    std::ofstream o(work + "/model18.onnx", std::ios::binary);
    REQUIRE(m.SerializeToOstream(&o));
  }
  ProcessResult a = RunWithTimeout({BuildPath("bin/atc"), "--model", work + "/model18.onnx", "--framework", "5",
                                    "--soc_version", "host", "--output", work + "/m", "--log", "error"},
                                   600, work + "/atc");
  INFO("atc: " << a.err);
  REQUIRE(a.exit_code == 0);
  char at[32], rt[32];
  std::snprintf(at, sizeof(at), "%g", atol);
  std::snprintf(rt, sizeof(rt), "%g", rtol);
  const std::string set = dir + "/test_data_set_0";
  ProcessResult r = RunWithTimeout({BuildPath("bin/omrun"), work + "/m.om", "--input", set + "/input_0.pb",
                                    "--expected_output", set + "/output_0.pb," + set + "/output_1.pb", "--atol", at,
                                    "--rtol", rt},
                                   600, work + "/omrun");
  INFO("omrun: " << r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("compare output 0") != std::string::npos);
  CHECK(r.out.find("compare output 1") != std::string::npos);
  RemoveTree(work);
}
