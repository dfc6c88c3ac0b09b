// DepthToSpace / SpaceToDepth permutation (see block_shuffle.h).
#include "common/block_shuffle.h"

namespace openatc_ops {

ge::graphStatus BlockShuffle(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, const std::array<int64_t, 6> &view,
                             const std::array<int, 6> &perm, const Dims &out) {
  const Dims v(view.begin(), view.end());
  const std::vector<int64_t> s = ContiguousStrides(v);
  Dims dims(6);
  std::vector<int64_t> strides(6);
  for (size_t i = 0; i < 6; ++i) {
    dims[i] = v[static_cast<size_t>(perm[i])];
    strides[i] = s[static_cast<size_t>(perm[i])];
  }
  gert::Tensor *y = AllocChecked(ctx, 0, out, x.GetDataType());
  if (y == nullptr) return ge::GRAPH_FAILED;
  if (NumElements(out) == 0) return ge::GRAPH_SUCCESS;
  StridedCopy(x.GetAddr(), y->GetAddr(), ElemBytes(x.GetDataType()), dims, strides, 0);
  return ge::GRAPH_SUCCESS;
}

bool BlockSize(const gert::ExtendedKernelContext *ctx, size_t index, int64_t *b) {
  *b = AttrInt(ctx, index, 0);
  if (*b < 1 || *b > (int64_t{1} << 20)) {
    Fail(ctx, "blocksize " + std::to_string(*b) + " must be in [1, 1048576]");
    return false;
  }
  return true;
}

}  // namespace openatc_ops
