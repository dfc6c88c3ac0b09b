/**
 * @file openatc/tensor_io/tensor_io.h
 * omrun's tensor files (README.md "omrun"): reading model inputs from .npy (NumPy
 * format 1.0/2.0/3.0), raw .bin and ONNX TensorProto .pb files and checking them against the
 * model's input; seeded random inputs; writing outputs as .npy/.bin/.txt with outputs.json;
 * summary lines; allclose comparison.
 *
 * Errors are openatc::Error with the file attached (WithFile):
 *   kUsage        OA3005  a file name with an unknown extension
 *   kInvalidInput OA3001  a malformed file (bad magic, truncated or bad header, Fortran order,
 *                         big-endian data, unsupported or unknown dtype, size disagreeing with
 *                         the header); OA3002 dtype, OA3003 shape, OA3004 byte-size mismatch
 *                         with the model's input (omrun exit 3)
 *   kIo           OA3006  a file that cannot be opened, read or written
 * Sizes are checked against the file's size before any allocation, so a hostile header cannot
 * make a huge allocation.
 */
#ifndef OPENATC_TENSOR_IO_TENSOR_IO_H_
#define OPENATC_TENSOR_IO_TENSOR_IO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/types.h"
#include "openatc/common/host_tensor.h"

namespace openatc {
namespace tensor_io {

/// The runtime's host tensor (openatc/common/host_tensor.h).
using HostTensor = openatc::HostTensor;

enum class FileKind { kNpy, kBin, kPb };

/// By extension, case-insensitive: .npy, .bin, .pb. Anything else throws kUsage OA3005.
FileKind KindFromPath(const std::string &path);

/// Reads a .npy file: format versions 1.0, 2.0 and 3.0; descr little-endian ('<') or
/// byte-order-free ('|'), of a dtype NumpyDescr knows (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1 c8
/// c16), or V2 (a 2-byte void: read as bfloat16, which is how numpy.save writes an ml_dtypes
/// bfloat16 array); fortran_order False only. Errors: OA3001 (malformed), OA3006 (cannot read).
HostTensor ReadNpy(const std::string &path);

/// As ReadNpy, from the bytes of a whole .npy file already in memory (used by the fuzzer and
/// by callers that do not hold a file); `path` is only the name used in errors (OA3001).
HostTensor ReadNpyBytes(const std::vector<uint8_t> &bytes, const std::string &path);

/// Reads one serialized onnx.TensorProto (`.pb`, as onnx.numpy_helper.from_array writes). The
/// data may be in raw_data (little-endian) or in the typed field of its dtype (float_data,
/// int32_data for int8/16/32/uint8/16/bool/float16/bfloat16 bit patterns, int64_data,
/// double_data, uint64_data for uint32/uint64). ONNX dtypes FLOAT, UINT8, INT8, UINT16, INT16,
/// INT32, INT64, BOOL, FLOAT16, DOUBLE, UINT32, UINT64, BFLOAT16 are supported; STRING,
/// COMPLEX and external data are refused with OA3001. Segments are refused too.
HostTensor ReadOnnxTensorPb(const std::string &path);

/// The whole file as bytes (.bin). Errors: OA3006.
std::vector<uint8_t> ReadRaw(const std::string &path);

/// Loads one model input from `path` (kind by extension) and checks it against the model's input
/// number `index` named `input_name`: dtype (OA3002; .npy and .pb only), shape (OA3003; -1 in
/// `expected_shape` matches any size; .npy and .pb only) and byte size (OA3004; for .bin the
/// file size must equal DataTypeSize x element count of `expected_shape`, which must then be
/// static). A .bin file gets `expected_dtype` and `expected_shape`. Where `expected_dtype` is
/// bfloat16, a .npy/.pb file holding uint16 is taken as bfloat16 bit patterns (NumPy has no
/// bfloat16; ONNX's backend test data stores bfloat16 tensors that way). Errors are kInvalidInput and
/// name the input ("input 0 'x'"), the file, what was expected and what was found. A file that
/// cannot be read or is malformed is also kInvalidInput here (OA3006 / OA3001), the message
/// prefixed with the input's label. The extension check happens first (kUsage OA3005).
HostTensor LoadInput(const std::string &path, size_t index, const std::string &input_name,
                     ge::DataType expected_dtype, const std::vector<int64_t> &expected_shape);

/// LoadInput with a caller-chosen label in place of "input <index> '<name>'", e.g.
/// "expected output 0 'y'" for --expected_output files. Same checks and errors.
HostTensor LoadTensorFile(const std::string &path, const std::string &label, ge::DataType expected_dtype,
                          const std::vector<int64_t> &expected_shape);

/// Deterministic random contents for input `input_index` of the given dtype and static shape
/// (a -1 dim is an OA3003 kInvalidInput error). Generator: std::mt19937_64 seeded with
/// seed + 0x9E3779B97F4A7C15 * (input_index + 1) (mod 2^64); one 64-bit draw r per element:
///   float types (float32/16, bfloat16, double): u = (r >> 11) * 2^-53 in [0,1), value 2u - 1 in
///   [-1, 1), then rounded to the dtype (float16 by FloatToHalf);
///   bool: r >> 63;  signed ints: (r >> 32) % 21 - 10 (in [-10, 10]);  unsigned: (r >> 32) % 11.
/// std::mt19937_64's output sequence is fixed by the C++ standard, so the data is the same on
/// every platform. Other dtypes: OA3001 kInvalidInput.
HostTensor RandomTensor(ge::DataType dtype, const std::vector<int64_t> &shape, uint64_t seed,
                        size_t input_index);

/// Writes a .npy file (format 1.0, or 2.0 when the header needs more than 65535 bytes), descr
/// from NumpyDescr; bfloat16 as '<V2' (what numpy.save writes for ml_dtypes.bfloat16: load it
/// with np.load(f).view(ml_dtypes.bfloat16)); other dtypes without a descr: OA3001. Atomic: a temp file in the same folder, then
/// rename. Errors: OA3006.
void WriteNpy(const std::string &path, const HostTensor &t);
/// Writes the raw bytes (atomic as WriteNpy).
void WriteBin(const std::string &path, const HostTensor &t);
/// Writes one value per line: floats (float32, float16 via HalfToFloat, bfloat16, float64)
/// with "%.9g" (float64: "%.17g"), integers in decimal, bool as 0/1 (atomic as WriteNpy).
void WriteTxt(const std::string &path, const HostTensor &t);

/// Writes DIR/output_<i>.<ext> (ext npy, bin or txt from `outfmt` NPY|BIN|TXT, case-insensitive)
/// for each output and DIR/outputs.json:
///   {"outputs":[{"index":0,"name":"y","shape":[2,3],"dtype":"float32","file":"output_0.npy"}]}
/// creating DIR and its parents. `names` and `outs` have the same length (else kInternal).
/// An unknown `outfmt` is kUsage OA3005; I/O failures OA3006.
void WriteOutputs(const std::string &dir, const std::vector<std::string> &names,
                  const std::vector<HostTensor> &outs, const std::string &outfmt);

/// One line: `<name>: shape [2, 3] float32 [v0, v1, ..., v7, ...]` with at most the first 8
/// values (floats "%.6g", ints decimal, bool 0/1), "..." when there are more. No newline.
std::string SummaryLine(const std::string &name, const HostTensor &t);

/// Result of Compare, for float dtypes:
///  - max_abs: max over elements of |a - b| (+inf when a NaN or inf differs);
///  - max_rel: max of |a - b| / |b| over the rel_count finite elements with |b| > atol (where a
///    relative error means something); 0 when rel_count is 0, which omrun prints as "n/a";
///  - max_ratio: max of |a - b| / (atol + rtol * |b|), the allclose rule's own measure: ok is
///    true exactly when max_ratio <= 1 (0 for equal elements, +inf for a NaN/inf mismatch or a
///    difference with zero tolerance).
/// Integer, bool and other dtypes compare exactly: max_ratio is 0 (equal) or +inf, rel_count 0.
/// first_bad_index is the first failing element's flat index (a byte offset for dtypes without
/// a numeric reading), or SIZE_MAX when ok; first_bad_actual/expected are its values (float
/// dtypes).
struct Comparison {
  bool ok = true;
  bool tolerant = false;  ///< a float dtype: atol/rtol apply (else exact)
  double max_abs = 0.0;
  double max_rel = 0.0;
  size_t rel_count = 0;
  double max_ratio = 0.0;
  size_t first_bad_index = SIZE_MAX;
  double first_bad_actual = 0.0;
  double first_bad_expected = 0.0;
};

/// allclose as NumPy: element passes when |a - b| <= atol + rtol * |b|; NaN equals NaN; +-inf
/// equal only to the same inf. Integer and bool dtypes compare exactly (atol/rtol ignored).
/// Dtypes or shapes differing: kMismatch OA3007 naming both.
Comparison Compare(const HostTensor &actual, const HostTensor &expected, double atol, double rtol);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_TENSOR_IO_H_
