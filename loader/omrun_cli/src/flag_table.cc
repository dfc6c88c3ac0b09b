// omrun's flags in help order (README.md "omrun"); descriptions are ours.
#include "flag_table.h"

namespace openatc {
namespace omrun {
namespace {
const std::vector<OmrunFlag> kFlags = {
    {"input", false, "LIST", "", "input files in model input order: .npy, .bin or .yuv (raw bytes, e.g. an AIPP image) or .pb (ONNX TensorProto); omitted = seeded random inputs"},
    {"output", false, "DIR", "", "write DIR/output_<i>.<ext> and DIR/outputs.json"},
    {"outfmt", false, "NPY|BIN|TXT", "NPY", "format of the files --output writes"},
    {"expected_output", false, "LIST", "", "expected outputs (files as for --input); exit 1 on mismatch"},
    {"atol", false, "X", "1e-07", "absolute tolerance of the comparison"},
    {"rtol", false, "X", "0.001", "relative tolerance of the comparison"},
    {"loop", false, "N", "1", "timed runs"},
    {"warmup", false, "N", "0", "untimed runs before the timed ones"},
    {"threads", false, "N", "0", "intra-op threads; 0 = all cores"},
    {"random_seed", false, "N", "0", "seed of the random inputs"},
    {"profile", false, "FILE", "", "write a Chrome trace (chrome://tracing, Perfetto) of every op node of every run to FILE and print where the time went"},
    {"dump", false, "DIR", "", "write every op node's outputs of the first run to DIR/<node>.<i>.npy with DIR/index.json (fused nodes listed)"},
    {"compare", false, "OTHER", "", "compare every op node's outputs with OTHER (an OM of the same model run on the same inputs, or a --dump folder), matched by node name; exit 1 beyond --atol/--rtol"},
    {"dynamic_batch", false, "N", "", "run the batch gear N of a model built with atc --dynamic_batch_size"},
    {"dynamic_hw", false, "H,W", "", "run the image-size gear H,W of a model built with atc --dynamic_image_size"},
    {"dynamic_dims", false, "D1,D2,...", "", "run the dims gear (the values of the -1 dims) of a model built with atc --dynamic_dims"},
    {"info", true, "", "", "print inputs, outputs, target, producer and arena size; run nothing"},
    {"log", false, "LEVEL", "error", "debug, info, warning, error or null"},
    {"help", true, "", "", "print this text"},
};
}  // namespace

const std::vector<OmrunFlag> &OmrunFlagTable() { return kFlags; }

const OmrunFlag *FindOmrunFlag(const std::string &name) {
  for (const auto &f : kFlags)
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace omrun
}  // namespace openatc
