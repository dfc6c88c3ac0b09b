// TfIdfVectorizer through the one-op harness, with counts worked out by hand in the comments.
#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
// X = [1, 2, 1, 3, 2, 1, 2]; pool: unigrams {1, 3}, bigrams {(1, 2), (2, 1)}; columns: unigram 1
// -> 3, unigram 3 -> 0, bigram (1, 2) -> 1, bigram (2, 1) -> 2.
OpCase Case(const std::string &mode, int64_t min_gram, std::vector<float> weights = {}) {
  std::map<std::string, ir::AttrValue> a = {
      {"max_gram_length", IntAttr(2)}, {"min_gram_length", IntAttr(min_gram)}, {"max_skip_count", IntAttr(1)},
      {"mode", StringAttr(mode)},      {"ngram_counts", IntsAttr({0, 2})},     {"ngram_indexes", IntsAttr({3, 0, 1, 2})},
      {"pool_int64s", IntsAttr({1, 3, 1, 2, 2, 1})}};
  if (!weights.empty()) a["weights"] = FloatsAttr(weights);
  return {"TfIdfVectorizer", {{Tensor<int64_t>(ge::DT_INT64, {7}, {1, 2, 1, 3, 2, 1, 2})}}, a};
}
}  // namespace

TEST_CASE("TfIdfVectorizer: unigrams, bigrams with skips, TF / TFIDF / IDF", "[ops]") {
  // Unigram 1 three times, 3 once. Bigrams at distance 1: (1,2) (2,1) (1,3) (3,2) (2,1) (1,2);
  // at distance 2 (skip 1): (1,1) (2,3) (1,2) (3,1) (2,2). So (1,2) 3 times, (2,1) twice.
  auto tf = RunOp(Case("TF", 1));
  CHECK(tf[0].shape == std::vector<int64_t>{4});
  CHECK(Values<float>(tf[0]) == std::vector<float>{1, 3, 2, 3});
  // Weights in pool order: unigram 1 0.5, unigram 3 2, (1,2) 0.25, (2,1) 4.
  auto tfidf = RunOp(Case("TFIDF", 1, {0.5f, 2, 0.25f, 4}));
  CHECK(Values<float>(tfidf[0]) == std::vector<float>{2, 0.75f, 8, 1.5f});
  // Bigrams only: the unigram columns count 0, so IDF gives them 0.
  auto idf = RunOp(Case("IDF", 2, {0.5f, 2, 0.25f, 4}));
  CHECK(Values<float>(idf[0]) == std::vector<float>{0, 0.25f, 4, 0});
  // A batch [2, C]: each row is counted on its own (row 1 = [3, 3]: unigram 3 twice).
  OpCase batch = Case("TF", 1);
  batch.inputs = {{Tensor<int32_t>(ge::DT_INT32, {2, 2}, {1, 2, 3, 3})}};
  auto b = RunOp(batch);
  CHECK(b[0].shape == std::vector<int64_t>{2, 4});
  CHECK(Values<float>(b[0]) == std::vector<float>{0, 1, 0, 1, 2, 0, 0, 0});
  OpCase bad = Case("BM25", 1);
  CHECK_THAT(RunOpExpectingFailure(bad), Catch::Contains("mode must be TF, IDF or TFIDF, got 'BM25'"));
}
