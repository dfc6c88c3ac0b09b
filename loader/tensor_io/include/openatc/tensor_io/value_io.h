/**
 * @file openatc/tensor_io/value_io.h
 * omrun's files for model inputs and outputs that are not dense tensors: ONNX sequences and
 * optionals (openatc/common/host_value.h; README.md "omrun", "Sequence and optional inputs and
 * outputs").
 *
 * Forms read (LoadValueFile), chosen by the model's value kind:
 *   tensor             any tensor file (LoadTensorFile)
 *   sequence           a .pb onnx.SequenceProto of tensors (elem_type TENSOR, or UNDEFINED when
 *                      empty), or a folder holding one tensor file per element named 0.npy,
 *                      1.npy, ... (.npy, .pb or .bin; no gaps, nothing else; an empty folder is
 *                      the empty sequence)
 *   optional tensor /  a .pb onnx.OptionalProto (elem_type UNDEFINED = None, TENSOR, SEQUENCE), the
 *   optional sequence  word `none` (None), or any form of the element kind above (a present value)
 * Each element is checked against the model's dtype (OA3002, bfloat16 as uint16 taken as in
 * LoadTensorFile); a tensor's shape as in LoadTensorFile; a sequence element's shape only when
 * it must be read from .bin (the model's element shape, which must be static: OA3004).
 * Errors: kInvalidInput OA3001 for a malformed file or folder, and the errors of LoadTensorFile.
 *
 * Outputs (WriteValueOutputs): a tensor as WriteOutputs writes it; a sequence as the folder
 * DIR/output_<i>/ with <j>.<ext> per element; a None optional writes no file. outputs.json
 * gives for a non-tensor entry "kind" ("sequence", "optional tensor", "optional sequence"),
 * "present" for optionals, and for a sequence "elements" (shape, dtype, file per element).
 */
#ifndef OPENATC_TENSOR_IO_VALUE_IO_H_
#define OPENATC_TENSOR_IO_VALUE_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/common/host_value.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {

/// Reads a value of kind `kind` from `path` (forms above) and checks it against `dtype` (of the
/// tensor or of the elements) and `shape` (a tensor's shape; a sequence's element shape, used
/// for .bin elements). `label` prefixes every message ("input 0 'seq'").
HostValue LoadValueFile(const std::string &path, const std::string &label, ir::ValueKind kind, ge::DataType dtype,
                        const std::vector<int64_t> &shape);

/// The .pb forms of LoadValueFile from memory: `bytes` is a serialized onnx.SequenceProto (kind
/// kSequence) or onnx.OptionalProto (kOptionalTensor / kOptionalSequence), checked as above;
/// `path` names the source in errors. kTensor is refused (OA3001). LoadValueFile reads a .pb
/// file with it; value_io_fuzz (tests/om/value_io_fuzz.cc) calls it directly.
HostValue ValueFromPbBytes(const std::vector<uint8_t> &bytes, const std::string &path, const std::string &label,
                           ir::ValueKind kind, ge::DataType dtype, const std::vector<int64_t> &shape);

/// WriteOutputs for values of any kind (forms above); atomic per file; a sequence's folder is
/// written beside as DIR/output_<i>.part and renamed into place. Errors as WriteOutputs.
void WriteValueOutputs(const std::string &dir, const std::vector<std::string> &names,
                       const std::vector<HostValue> &outs, const std::string &outfmt);

/// omrun's summary of a value: one SummaryLine for a tensor; for a sequence a header line
/// `<name>: sequence of <n> tensors` then one SummaryLine per element named `<name>[<j>]`; a None
/// optional `<name>: optional, None`; a present optional as its element, kind named first.
std::vector<std::string> ValueSummaryLines(const std::string &name, const HostValue &v);

/// Compare for values: equal kind class (tensor / sequence), presence and sequence length, then
/// Compare per tensor. `problem` says what differed when ok is false before any element was
/// compared (presence, length, dtype or shape of an element); `elements` holds one Comparison
/// per compared tensor (one for a tensor, one per element for a sequence).
struct ValueComparison {
  bool ok = true;
  std::string problem;
  std::vector<Comparison> elements;
};
ValueComparison CompareValues(const HostValue &actual, const HostValue &expected, double atol, double rtol);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_VALUE_IO_H_
