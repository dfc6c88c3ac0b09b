// TfIdfVectorizer (ONNX TfIdfVectorizer-9): counts the n-grams of `pool_int64s` in each row of an
// int32/int64 X ([C] or [N, C]) and writes Y float [ngram_indexes max + 1] (or [N, that]).
// The pool holds, for each length k = 1..max_gram_length, its k-grams back to back from
// ngram_counts[k-1] on; ngram_indexes gives each pool n-gram (in pool order) its output column.
// An n-gram of length n in the input is x[i], x[i + d], ..., x[i + (n-1) d] with d = skip + 1
// for skip = 0..max_skip_count; every n in [min_gram_length, max_gram_length] is counted, a
// unigram once per position (its skip does not matter). mode TF: the counts; IDF: weight (or 1)
// where the count is > 0; TFIDF: count x weight (weights default to 1). String pools are not
// supported (OpenATC has no string tensors).
#include <algorithm>
#include <map>
#include <vector>

#include "common/math_util.h"
#include "common/movement.h"

namespace ge {
REG_OP(TfIdfVectorizer)
    .INPUT(X, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT}))
    .REQUIRED_ATTR(max_gram_length, Int)
    .REQUIRED_ATTR(max_skip_count, Int)
    .REQUIRED_ATTR(min_gram_length, Int)
    .REQUIRED_ATTR(mode, String)
    .REQUIRED_ATTR(ngram_counts, ListInt)
    .REQUIRED_ATTR(ngram_indexes, ListInt)
    .ATTR(pool_int64s, ListInt, {})
    .ATTR(weights, ListFloat, {})
    .OP_END_FACTORY_REG(TfIdfVectorizer);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kMaxGram, kMaxSkip, kMinGram, kMode, kCounts, kIndexes, kPool, kWeights };

struct Config {
  int64_t min_gram = 0, max_gram = 0, max_skip = 0, columns = 0;
  std::string mode;
  std::vector<float> weights;
  std::map<std::vector<int64_t>, size_t> ngram;  ///< n-gram -> its pool position (into indexes)
  std::vector<int64_t> indexes;
};

// Reads and checks the attributes; "" when they are consistent.
std::string ReadConfig(const gert::ExtendedKernelContext *ctx, Config *c) {
  c->min_gram = AttrInt(ctx, kMinGram, 0);
  c->max_gram = AttrInt(ctx, kMaxGram, 0);
  c->max_skip = AttrInt(ctx, kMaxSkip, 0);
  c->mode = AttrStr(ctx, kMode, "");
  const std::vector<int64_t> counts = AttrInts(ctx, kCounts), pool = AttrInts(ctx, kPool);
  c->indexes = AttrInts(ctx, kIndexes);
  c->weights = AttrFloats(ctx, kWeights);
  if (c->mode != "TF" && c->mode != "IDF" && c->mode != "TFIDF") return "mode must be TF, IDF or TFIDF, got '" + c->mode + "'";
  if (c->min_gram < 1 || c->max_gram < c->min_gram)
    return "need 1 <= min_gram_length <= max_gram_length, got " + std::to_string(c->min_gram) + " and " +
           std::to_string(c->max_gram);
  if (c->max_skip < 0) return "max_skip_count must not be negative";
  if (pool.empty() && !c->indexes.empty()) return "pool_int64s is empty (string pools are not supported)";
  if (static_cast<int64_t>(counts.size()) > c->max_gram)
    return "ngram_counts has " + std::to_string(counts.size()) + " entries, more than max_gram_length";
  size_t position = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    const int64_t start = counts[k], end = k + 1 < counts.size() ? counts[k + 1] : static_cast<int64_t>(pool.size());
    const int64_t n = static_cast<int64_t>(k) + 1;
    if (start < 0 || end < start || end > static_cast<int64_t>(pool.size()) || (end - start) % n != 0)
      return "ngram_counts entry " + std::to_string(k) + " does not split pool_int64s into " + std::to_string(n) + "-grams";
    for (int64_t at = start; at < end; at += n) c->ngram.emplace(std::vector<int64_t>(pool.begin() + at, pool.begin() + at + n), position++);
  }
  if (c->indexes.size() != position)
    return "ngram_indexes has " + std::to_string(c->indexes.size()) + " entries for " + std::to_string(position) + " pool n-grams";
  if (!c->weights.empty() && c->weights.size() != position)
    return "weights has " + std::to_string(c->weights.size()) + " entries for " + std::to_string(position) + " pool n-grams";
  for (int64_t i : c->indexes) {
    if (i < 0) return "ngram_indexes must not be negative";
    c->columns = std::max(c->columns, i + 1);
  }
  return "";
}

// Y row `y` (columns floats, zeroed) from input row `x` of length `len`.
void CountRow(const Config &c, const int64_t *x, int64_t len, float *y) {
  std::vector<double> count(static_cast<size_t>(c.columns), 0.0);
  std::vector<int64_t> gram;
  for (int64_t n = c.min_gram; n <= c.max_gram; ++n) {
    for (int64_t skip = 0; skip <= (n == 1 ? 0 : c.max_skip); ++skip) {
      const int64_t d = skip + 1;
      for (int64_t i = 0; i + (n - 1) * d < len; ++i) {
        gram.assign(static_cast<size_t>(n), 0);
        for (int64_t k = 0; k < n; ++k) gram[static_cast<size_t>(k)] = x[i + k * d];
        auto it = c.ngram.find(gram);
        if (it != c.ngram.end()) count[static_cast<size_t>(c.indexes[it->second])] += 1.0;
      }
    }
  }
  // Each column's weight: that of the pool n-gram mapped to it (1 without weights).
  std::vector<double> weight(static_cast<size_t>(c.columns), 1.0);
  if (!c.weights.empty())
    for (size_t p = 0; p < c.indexes.size(); ++p) weight[static_cast<size_t>(c.indexes[p])] = c.weights[p];
  for (int64_t j = 0; j < c.columns; ++j) {
    const double n = count[static_cast<size_t>(j)], w = weight[static_cast<size_t>(j)];
    y[j] = static_cast<float>(c.mode == "TF" ? n : c.mode == "IDF" ? (n > 0 ? w : 0.0) : n * w);
  }
}
}  // namespace

class TfIdfVectorizer : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (d != ge::DT_INT32 && d != ge::DT_INT64) return Fail(ctx, "X must be int32 or int64, got " + DtypeName(d));
    return ctx->SetOutputDataType(0, ge::DT_FLOAT);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X expected");
    Config c;
    const std::string err = ReadConfig(ctx, &c);
    if (!err.empty()) return Fail(ctx, err);
    const Dims d = ToDims(*x);
    if (d.size() != 1 && d.size() != 2) return Fail(ctx, "X must be [C] or [N, C], got " + DimsToString(d));
    *ctx->GetOutputShape(0) = ToShape(d.size() == 1 ? Dims{c.columns} : Dims{d[0], c.columns});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is missing");
    Config c;
    const std::string err = ReadConfig(ctx, &c);
    if (!err.empty()) return Fail(ctx, err);
    const Dims d = TensorDims(*x);
    if (d.size() != 1 && d.size() != 2) return Fail(ctx, "X must be [C] or [N, C], got " + DimsToString(d));
    std::vector<int64_t> values;
    if (!ReadInts(x, &values)) return Fail(ctx, "X must be int32 or int64 with data");
    const int64_t rows = d.size() == 1 ? 1 : d[0], len = d.back();
    gert::Tensor *y = AllocChecked(ctx, 0, d.size() == 1 ? Dims{c.columns} : Dims{rows, c.columns}, ge::DT_FLOAT);
    if (y == nullptr) return ge::GRAPH_FAILED;
    float *py = y->GetData<float>();
    for (int64_t r = 0; r < rows; ++r) CountRow(c, values.data() + r * len, len, py + r * c.columns);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(TfIdfVectorizer);

}  // namespace openatc_ops
