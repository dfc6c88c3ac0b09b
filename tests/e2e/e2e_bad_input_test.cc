// Bad input a new user tries (issue 10, item 8), through the real atc and omrun binaries: each
// case checks the exit code and the exact error text. ONNX counterparts of the --out_nodes and
// --input_shape cases are in tests/frontend_onnx/onnx_bad_input_test.cc.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <fstream>

#include "e2e_util.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
const char *kStartLine = "ATC start working now, please wait for a moment.\n";
const char *kOkLine = "ATC run success, welcome to the next use.\n";
const char *kFailLine = "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n";

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }
bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

struct Dir {
  Dir() : path(MakeTempDir()) {}
  ~Dir() { RemoveTree(path); }
  std::string path;
};

// atc on the axpy float32 [2, 3] graph with extra flags.
CommandResult AtcAxpy(const Dir &d, std::vector<std::string> extra) {
  WriteBytes(d.path + "/g.json", AxpyGraphJson("DT_FLOAT", {2, 3}, 1.0f));
  std::vector<std::string> args = {"--model", d.path + "/g.json", "--soc_version", "host"};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunAtc(args, AxpyOpp());
}

tensor_io::HostTensor Floats(std::vector<int64_t> shape, const std::vector<float> &v) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = std::move(shape);
  t.data.resize(v.size() * sizeof(float));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

// A 64-byte ELF64 little-endian header of a shared object (e_type 3) for `machine`, or a 52-byte
// ELF32 one when `elf32`: enough for the loader to read what the file is.
std::string ElfHeader(uint16_t machine, bool elf32) {
  std::string h(elf32 ? 52 : 64, '\0');
  h[0] = 0x7f;
  h[1] = 'E';
  h[2] = 'L';
  h[3] = 'F';
  h[4] = elf32 ? 1 : 2;  // EI_CLASS
  h[5] = 1;              // EI_DATA: little-endian
  h[6] = 1;              // EI_VERSION
  h[16] = 3;             // e_type ET_DYN
  h[18] = static_cast<char>(machine & 0xff);
  h[19] = static_cast<char>(machine >> 8);
  h[20] = 1;  // e_version
  return h;
}

// An OPP root holding one deliverable file with `bytes`; returns the file's path.
std::string FakeRoot(const Dir &d, const std::string &bytes) {
  const std::string lib = d.path + "/opp/op_graph/lib/linux/" + opp::HostArch();
  RunCommand({"/bin/mkdir", "-p", lib});
  WriteBytes(lib + "/libfake.so", bytes);
  return lib + "/libfake.so";
}

std::string HostMachineText() {
#if defined(__x86_64__)
  return "x86-64 (62)";
#elif defined(__aarch64__)
  return "AArch64 (183)";
#else
  return "";
#endif
}
}  // namespace

TEST_CASE("atc: --out_nodes past a node's outputs, or naming no node, is refused naming the node", "[e2e]") {
  Dir d;
  auto past = AtcAxpy(d, {"--output", d.path + "/m", "--out_nodes", "axpy:1"});
  CHECK(past.exit_code == 255);
  CHECK(past.err == "atc: error: E10001: '" + d.path + "/g.json': node 'axpy' (AxpyCustom): --out_nodes asks for "
                    "output 1 of the node, which has 1 output(s). Pass an output index in 0..0, e.g. \"axpy:0\".\n");
  CHECK(past.out == std::string(kStartLine) + kFailLine);
  CHECK_FALSE(Exists(d.path + "/m.om"));

  auto far = AtcAxpy(d, {"--output", d.path + "/m", "--out_nodes", "x1:0;axpy:65535"});
  CHECK(far.exit_code == 255);
  CHECK(Contains(far.err, "node 'axpy' (AxpyCustom): --out_nodes asks for output 65535 of the node, which has 1 "
                          "output(s)."));

  auto unknown = AtcAxpy(d, {"--output", d.path + "/m", "--out_nodes", "nope:0"});
  CHECK(unknown.exit_code == 255);
  CHECK(unknown.err == "atc: error: E10001: '" + d.path + "/g.json': --out_nodes names node 'nope', which is not in "
                       "the graph. Use node names from the model (atc --mode=1 --om <model> --json <file> lists "
                       "them).\n");

  auto ok = AtcAxpy(d, {"--output", d.path + "/m", "--out_nodes", "axpy:0"});
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("atc: --output is the OM path: .om not doubled, folders refused, the path printed", "[e2e]") {
  Dir d;
  SECTION("a prefix gets .om, and the path written is printed before ATC's success line") {
    auto r = AtcAxpy(d, {"--output", d.path + "/sub/m"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == std::string(kStartLine) + "OM written to: " + d.path + "/sub/m.om\n" + kOkLine);
    CHECK(Exists(d.path + "/sub/m.om"));
  }
  SECTION("a value ending with .om is not given a second one") {
    auto r = AtcAxpy(d, {"--output", d.path + "/x.om"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == std::string(kStartLine) + "OM written to: " + d.path + "/x.om\n" + kOkLine);
    CHECK(Exists(d.path + "/x.om"));
    CHECK_FALSE(Exists(d.path + "/x.om.om"));
  }
  SECTION("a trailing '/' is refused naming the flag, and nothing is written") {
    auto r = AtcAxpy(d, {"--output", d.path + "/out/"});
    CHECK(r.exit_code == 255);
    CHECK(r.err == "atc: error: E10001: invalid value '" + d.path + "/out/' for --output: it ends with '/', so it "
                   "names a folder, but --output is the path of the OM file. Pass a file name inside the folder, "
                   "e.g. --output " + d.path + "/out/model (atc writes " + d.path + "/out/model.om).\n");
    CHECK(r.out == std::string(kStartLine) + kFailLine);
    CHECK_FALSE(Exists(d.path + "/out"));
  }
  SECTION("an existing folder is refused") {
    auto r = AtcAxpy(d, {"--output", d.path});
    CHECK(r.exit_code == 255);
    CHECK(r.err == "atc: error: E10001: invalid value '" + d.path + "' for --output: it is an existing folder, but "
                   "--output is the path of the OM file. Pass a file name inside the folder, e.g. --output " + d.path +
                   "/model (atc writes " + d.path + "/model.om).\n");
    CHECK_FALSE(Exists(d.path + "/.om"));
  }
  SECTION("a bare .om file name and an OM path that is a folder are refused") {
    auto bare = AtcAxpy(d, {"--output", d.path + "/.om"});
    CHECK(bare.exit_code == 255);
    CHECK(Contains(bare.err, "for --output: it has no file name before '.om' (the OM would be the hidden file '" +
                                 d.path + "/.om')."));
    RunCommand({"/bin/mkdir", d.path + "/taken.om"});
    auto folder = AtcAxpy(d, {"--output", d.path + "/taken"});
    CHECK(folder.exit_code == 255);
    CHECK(Contains(folder.err, "for --output: the OM path '" + d.path + "/taken.om' is an existing folder."));
  }
}

TEST_CASE("atc: --input_shape is checked against the GE graph's inputs before anything runs", "[e2e]") {
  Dir d;
  auto rank = AtcAxpy(d, {"--output", d.path + "/m", "--input_shape", "x1:2,3,1"});
  CHECK(rank.exit_code == 255);
  CHECK(rank.err == "atc: error: E10001: '" + d.path + "/g.json': node 'x1' (Data): --input_shape entry 'x1:2,3,1' "
                    "gives 3 dims, but the graph declares input 'x1' with 2 dims: [2, 3]. Give 2 dims for 'x1' (-1 "
                    "keeps a dim unknown), e.g. \"x1:2,3\".\n");

  auto scalar = AtcAxpy(d, {"--output", d.path + "/m", "--input_shape", "x2:"});
  CHECK(scalar.exit_code == 255);
  CHECK(Contains(scalar.err, "node 'x2' (Data): --input_shape entry 'x2:' gives 0 dims, but the graph declares "
                             "input 'x2' with 2 dims: [2, 3]."));

  auto name = AtcAxpy(d, {"--output", d.path + "/m", "--input_shape", "axpy:2,3"});
  CHECK(name.exit_code == 255);
  CHECK(name.err == "atc: error: E10001: '" + d.path + "/g.json': --input_shape names 'axpy', which is not an input "
                    "of the graph (inputs: x1, x2). Use the names of the graph's inputs (Data nodes).\n");

  SECTION("a fixed dim replacing another fixed dim compiles, with a warning naming the input") {
    auto changed = AtcAxpy(d, {"--output", d.path + "/m", "--input_shape", "x1:4,3;x2:4,3"});
    INFO(changed.err);
    REQUIRE(changed.exit_code == 0);
    CHECK(Contains(changed.err, "atc: warning: node 'x1' (Data): --input_shape entry 'x1:4,3' changes the graph's "
                                "fixed shape [2, 3] (dim 0 2 -> 4). If an operator then fails on its shapes, check "
                                "that the model supports this shape\n"));
    auto info = RunOmrun({d.path + "/m.om", "--info"});
    CHECK(Contains(info.out, "[0] x1 float32 [4, 3]"));
  }
  SECTION("an input of unknown rank ([-2]) accepts any rank") {
    std::string json = AxpyGraphJson("DT_FLOAT", {-2}, 1.0f);
    WriteBytes(d.path + "/u.json", json);
    auto r = RunAtc({"--model", d.path + "/u.json", "--soc_version", "host", "--output", d.path + "/u",
                     "--input_shape", "x1:2,3,1;x2:2,3,1"},
                    AxpyOpp());
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    auto info = RunOmrun({d.path + "/u.om", "--info"});
    CHECK(Contains(info.out, "[1] x2 float32 [2, 3, 1]"));
  }
  SECTION("-1 and the graph's own dims are accepted without a warning") {
    auto same = AtcAxpy(d, {"--output", d.path + "/m", "--input_shape", "x1:-1,3;x2:-1,3"});
    INFO(same.err);
    CHECK(same.exit_code == 0);
    CHECK_FALSE(Contains(same.err, "warning"));
  }
}

TEST_CASE("atc: a deliverable that is not a shared library for this host says what it is", "[e2e]") {
  Dir d;
  const std::string model = d.path + "/g.json";
  WriteBytes(model, AxpyGraphJson("DT_FLOAT", {2, 3}, 1.0f));
  auto atc = [&] {
    return RunAtc({"--model", model, "--soc_version", "host", "--output", d.path + "/m"}, d.path + "/opp");
  };
  const std::string rebuild = "Rebuild it for this host (" + HostMachineText() +
                              ", 64-bit ELF shared library), or remove it from ASCEND_CUSTOM_OPP_PATH.\n";
  SECTION("another machine") {
    const uint16_t other = HostMachineText() == "AArch64 (183)" ? 62 : 183;
    const std::string other_text = other == 62 ? "x86-64 (62)" : "AArch64 (183)";
    const std::string so = FakeRoot(d, ElfHeader(other, false));
    auto r = atc();
    CHECK(r.exit_code == 255);
    CHECK(r.err == "atc: error: OA1201: '" + so + "': cannot load the custom-op deliverable: it is built for " +
                       other_text + ", but this process runs on " + HostMachineText() + ". " + rebuild);
  }
  SECTION("a 32-bit ELF") {
    const std::string so = FakeRoot(d, ElfHeader(3, true));
    auto r = atc();
    CHECK(r.exit_code == 255);
    CHECK(r.err == "atc: error: OA1201: '" + so + "': cannot load the custom-op deliverable: it is ELF class 32 "
                   "(32-bit), but this process is ELF class 64 (64-bit). " + rebuild);
  }
  SECTION("a text file named .so") {
    const std::string so = FakeRoot(d, "version https://git-lfs.github.com/spec/v1\noid sha256:0\n");
    auto r = atc();
    CHECK(r.exit_code == 255);
    CHECK(r.err == "atc: error: OA1201: '" + so + "': cannot load the custom-op deliverable: it is not an ELF file: "
                   "it looks like text (it starts with \"version https://git-lfs.github.c...\"). " + rebuild);
  }
  SECTION("an empty file and other bytes") {
    const std::string so = FakeRoot(d, "");
    auto r = atc();
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "cannot load the custom-op deliverable: it is not an ELF file: it is empty. "));
    WriteBytes(so, std::string("\x01\x02\x03\x04\x05", 5));
    auto bytes = atc();
    CHECK(Contains(bytes.err, "cannot load the custom-op deliverable: it is not an ELF file (its first bytes are "
                              "01 02 03 04, an ELF file starts with 7f 45 4c 46). "));
  }
  SECTION("an ELF file of this host that is not a shared library") {
    std::string exec = ElfHeader(HostMachineText() == "AArch64 (183)" ? 183 : 62, false);
    exec[16] = 2;  // ET_EXEC
    const std::string so = FakeRoot(d, exec);
    auto r = atc();
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "'" + so + "': cannot load the custom-op deliverable: it is an ELF file but an "
                          "executable, not a shared library (e_type 2). "));
  }
}

TEST_CASE("atc: a deliverable that registers no op type is a warning naming it, once", "[e2e]") {
  Dir d;
  WriteBytes(d.path + "/g.json", AxpyGraphJson("DT_FLOAT", {2, 3}, 1.0f));
  const std::string empty = BuildPath("tests/opp/empty");
  auto r = RunAtc({"--model", d.path + "/g.json", "--soc_version", "host", "--output", d.path + "/m"},
                  empty + ":" + AxpyOpp());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  const std::string lib = empty + "/op_graph/lib/linux/" + opp::HostArch();
  const std::string what = "), so atc uses nothing from it. Register its ops with REG_AUTO_MAPPING_OP, or remove it "
                           "from ASCEND_CUSTOM_OPP_PATH\n";
  CHECK(r.err == "atc: warning: '" + lib + "/libno_ops.so': the deliverable registers no op type (no "
                 "REG_AUTO_MAPPING_OP, hence no custom-op pull ABI either" + what +
                 "atc: warning: '" + lib + "/libno_ops_abi.so': the deliverable registers no op type (its creator "
                 "list is empty: no REG_AUTO_MAPPING_OP in it" + what);
}

TEST_CASE("omrun: --output is checked before the model runs (exit 2)", "[e2e]") {
  Dir d;
  REQUIRE(AtcAxpy(d, {"--output", d.path + "/m"}).exit_code == 0);
  WriteBytes(d.path + "/file", "x");
  auto file = RunOmrun({d.path + "/m.om", "--output", d.path + "/file"});
  CHECK(file.exit_code == 2);
  CHECK(file.err == "omrun: error: E10001: invalid value '" + d.path + "/file' for --output: it exists and is not a "
                    "folder. Pass a folder omrun can create or write (it writes output_<i>.<ext> and outputs.json "
                    "there).\n");
  CHECK(file.out.empty());  // nothing ran: no summary line

  auto under = RunOmrun({d.path + "/m.om", "--output", d.path + "/file/sub/"});
  CHECK(under.exit_code == 2);
  CHECK(Contains(under.err, "for --output: '" + d.path + "/file' on its path exists and is not a folder."));

  auto created = RunOmrun({d.path + "/m.om", "--output", d.path + "/new/out"});
  INFO(created.err);
  CHECK(created.exit_code == 0);
  CHECK(Exists(d.path + "/new/out/output_0.npy"));
}

TEST_CASE("omrun: --expected_output's count and file kinds are checked before the run (exit 2)", "[e2e]") {
  Dir d;
  REQUIRE(AtcAxpy(d, {"--output", d.path + "/m"}).exit_code == 0);
  auto count = RunOmrun({d.path + "/m.om", "--expected_output", d.path + "/a.npy," + d.path + "/b.npy"});
  CHECK(count.exit_code == 2);
  CHECK(count.err == "omrun: error: OA2303: the model has 1 output(s) but --expected_output lists 2 file(s). Pass "
                     "one expected file per model output.\n");
  CHECK(count.out.empty());  // nothing ran: no summary line
  auto kind = RunOmrun({d.path + "/m.om", "--expected_output", d.path + "/m.om"});
  CHECK(kind.exit_code == 2);
  CHECK(kind.err == "omrun: error: OA3005: '" + d.path + "/m.om': unknown tensor file extension '.om'. Use .npy "
                    "(NumPy), .bin or .yuv (raw bytes) or .pb (ONNX TensorProto).\n");
  CHECK(kind.out.empty());
}

TEST_CASE("omrun: the comparison prints a finite relative error and a PASS/FAIL-consistent ratio", "[e2e]") {
  Dir d;
  REQUIRE(AtcAxpy(d, {"--output", d.path + "/m"}).exit_code == 0);
  // y = x1 + x2 (alpha 1).
  tensor_io::WriteNpy(d.path + "/x1.npy", Floats({2, 3}, {0, 0, 1, 2, 4, 8}));
  tensor_io::WriteNpy(d.path + "/x2.npy", Floats({2, 3}, {0, 0, 0, 0, 0, 0}));
  const std::string inputs = d.path + "/x1.npy," + d.path + "/x2.npy";
  SECTION("expected zeros where the output is zero or within atol: no inf") {
    // Elements 0 and 1 expect 0 (the output is 0 and 0), element 2 expects 1.0005 (|diff| 5e-4).
    tensor_io::WriteNpy(d.path + "/e.npy", Floats({2, 3}, {0, 0, 1.0005f, 2, 4, 8}));
    auto r = RunOmrun({d.path + "/m.om", "--input", inputs, "--expected_output", d.path + "/e.npy", "--atol", "0.01",
                       "--rtol", "0"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(Contains(r.out, "compare output 0 (axpy:0): PASS max_abs_err 0.000499964 max_rel_err 0.000499714 "
                          "max_err_to_tol 0.0499964\n"));
  }
  SECTION("all expected values within atol of zero: max_rel_err n/a") {
    tensor_io::WriteNpy(d.path + "/x1z.npy", Floats({2, 3}, {0, 0, 0, 0, 0, 1e-8f}));
    tensor_io::WriteNpy(d.path + "/ez.npy", Floats({2, 3}, {0, 0, 0, 0, 0, 0}));
    auto r = RunOmrun({d.path + "/m.om", "--input", d.path + "/x1z.npy," + d.path + "/x2.npy", "--expected_output",
                       d.path + "/ez.npy"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(Contains(r.out, "compare output 0 (axpy:0): PASS max_abs_err 1e-08 max_rel_err n/a max_err_to_tol 0.1\n"));
  }
  SECTION("a failure: ratio above 1 and the first failing element with its bound") {
    tensor_io::WriteNpy(d.path + "/ef.npy", Floats({2, 3}, {0, 0.5f, 1, 2, 4, 8}));
    auto r = RunOmrun({d.path + "/m.om", "--input", inputs, "--expected_output", d.path + "/ef.npy", "--atol", "0.1",
                       "--rtol", "0.1"});
    CHECK(r.exit_code == 1);
    CHECK(Contains(r.out, "compare output 0 (axpy:0): FAIL max_abs_err 0.5 max_rel_err 1 max_err_to_tol 3.33333\n"
                          "  first mismatch at element 1: actual 0 expected 0.5 (|diff| > atol + rtol * |expected| = "
                          "0.15)\n"));
  }
  SECTION("an expected file of another dtype is OA3002, exit 3 (the README's OA30xx rows)") {
    tensor_io::HostTensor ints;
    ints.dtype = ge::DT_INT32;
    ints.shape = {2, 3};
    ints.data.assign(24, 0);
    tensor_io::WriteNpy(d.path + "/ei.npy", ints);
    auto r = RunOmrun({d.path + "/m.om", "--input", inputs, "--expected_output", d.path + "/ei.npy"});
    CHECK(r.exit_code == 3);
    CHECK(r.err == "omrun: error: OA3002: '" + d.path + "/ei.npy': expected output 0 'axpy:0': the file holds int32 "
                   "data but the model expects float32. Convert the data to float32 (numpy: a.astype(...)).\n");
  }
}

TEST_CASE("atc and omrun: more bad input a new user tries", "[e2e]") {
  Dir d;
  SECTION("atc: an empty file, a folder and a missing file as --model") {
    WriteBytes(d.path + "/empty.json", "");
    auto empty = RunAtc({"--model", d.path + "/empty.json", "--soc_version", "host", "--output", d.path + "/m"},
                        AxpyOpp());
    CHECK(empty.exit_code == 255);
    CHECK(empty.err == "atc: error: E10041: '" + d.path + "/empty.json': the graph file is empty (0 bytes). Pass a GE "
                       "graph file: AIR (.air), its JSON form (.json) or a GE text dump (.txt, .pbtxt).\n");
    WriteBytes(d.path + "/empty.onnx", "");
    auto empty_onnx = RunAtc({"--model", d.path + "/empty.onnx", "--soc_version", "host", "--output", d.path + "/m"},
                             "");
    CHECK(empty_onnx.exit_code == 255);
    CHECK(empty_onnx.err == "atc: error: E10041: '" + d.path + "/empty.onnx': the model file is empty (0 bytes). Pass "
                            "a .onnx file saved by onnx.save_model or an exporter.\n");
    RunCommand({"/bin/mkdir", d.path + "/dir.onnx", d.path + "/dir.json"});
    auto dir = RunAtc({"--model", d.path + "/dir.onnx", "--soc_version", "host", "--output", d.path + "/m"}, "");
    CHECK(dir.exit_code == 255);
    CHECK(dir.err == "atc: error: OA1501: '" + d.path + "/dir.onnx': the model path is a directory. Pass the .onnx "
                     "file itself to --model.\n");
    auto dir_json = RunAtc({"--model", d.path + "/dir.json", "--soc_version", "host", "--output", d.path + "/m"}, "");
    CHECK(dir_json.exit_code == 255);
    CHECK(dir_json.err == "atc: error: OA1014: '" + d.path + "/dir.json': the graph path is a directory. Pass the "
                          "graph file itself (.air, .json, .txt) to --model.\n");
    auto missing = RunAtc({"--model", d.path + "/none.json", "--soc_version", "host", "--output", d.path + "/m"},
                          AxpyOpp());
    CHECK(missing.exit_code == 255);
    CHECK(missing.err == "atc: error: OA1014: '" + d.path + "/none.json': cannot open the graph file: No such file or "
                         "directory. Check the path given to --model and that the file is readable.\n");
  }
  SECTION("atc: a garbage --soc_version lists the accepted names") {
    auto r = AtcAxpy(d, {"--output", d.path + "/m", "--soc_version", "banana"});
    CHECK(r.exit_code == 255);
    CHECK(Contains(r.err, "atc: error: E10001: value 'banana' for parameter --soc_version is not supported. "
                          "Accepted: host, Ascend310, "));
    CHECK(Contains(r.err, ". Pass --soc_version host to build for this CPU.\n"));
  }
  SECTION("omrun: --loop 0 / -1 and --threads -1 are usage errors; --threads 0 means all cores") {
    REQUIRE(AtcAxpy(d, {"--output", d.path + "/m"}).exit_code == 0);
    auto loop0 = RunOmrun({d.path + "/m.om", "--loop", "0"});
    CHECK(loop0.exit_code == 2);
    CHECK(loop0.err == "omrun: error: E10001: invalid value '0' for --loop: expected an integer in 1..1000000000. "
                       "See 'omrun --help'.\n");
    auto loopm = RunOmrun({d.path + "/m.om", "--loop", "-1"});
    CHECK(loopm.exit_code == 2);
    CHECK(Contains(loopm.err, "invalid value '-1' for --loop: expected an integer in 1..1000000000."));
    auto threads = RunOmrun({d.path + "/m.om", "--threads", "-1"});
    CHECK(threads.exit_code == 2);
    CHECK(threads.err == "omrun: error: E10001: invalid value '-1' for --threads: expected an integer in 0..4096. "
                         "See 'omrun --help'.\n");
    auto threads0 = RunOmrun({d.path + "/m.om", "--threads", "0"});
    CHECK(threads0.exit_code == 0);
  }
  SECTION("omrun: an empty file, a folder and a missing file as the model") {
    WriteBytes(d.path + "/empty.om", "");
    auto empty = RunOmrun({d.path + "/empty.om"});
    CHECK(empty.exit_code == 4);
    CHECK(empty.err == "omrun: error: OA2001: '" + d.path + "/empty.om': not an OM file: the file is empty. Pass an "
                       "OM built by OpenATC's atc.\n");
    auto dir = RunOmrun({d.path});
    CHECK(dir.exit_code == 7);
    CHECK(dir.err == "omrun: error: OA2021: '" + d.path + "': cannot read the OM: not a regular file: Is a "
                     "directory. Check the path and its permissions.\n");
    auto missing = RunOmrun({d.path + "/none.om"});
    CHECK(missing.exit_code == 7);
    CHECK(missing.err == "omrun: error: OA2021: '" + d.path + "/none.om': cannot read the OM: open failed: No such "
                         "file or directory. Check the path and its permissions.\n");
  }
}
