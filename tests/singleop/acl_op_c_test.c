/* A C program on the single-op API (acl/acl.h compiled as C): loads the single-op OMs of the folder
 * argv[1] with aclopSetModelDir, runs Add on two 2x3 float tensors with aclopExecuteV2 and prints
 * the six sums and the refreshed output dims. Run by tests/singleop/acl_op_test.cc. */
#include <stdio.h>

#include "acl/acl.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  if (aclopSetModelDir(argv[1]) != ACL_SUCCESS) {
    fprintf(stderr, "aclopSetModelDir: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  const int64_t dims[2] = {2, 3};
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {0.5f, 0.5f, 0.5f, -1, -1, -1}, y[6] = {0};
  aclTensorDesc *in_desc[2], *out_desc[1];
  aclDataBuffer *in[2], *out[1];
  in_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  in_desc[1] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  out_desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  in[0] = aclCreateDataBuffer(a, sizeof a);
  in[1] = aclCreateDataBuffer(b, sizeof b);
  out[0] = aclCreateDataBuffer(y, sizeof y);
  const aclError ret = aclopExecuteV2("Add", 2, in_desc, in, 1, out_desc, out, NULL, NULL);
  if (ret != ACL_SUCCESS) {
    fprintf(stderr, "aclopExecuteV2: %d %s\n", ret, aclGetRecentErrMsg());
    return 1;
  }
  for (int i = 0; i < 6; ++i) printf("%g ", y[i]);
  printf("| %d x %d\n", (int)aclGetTensorDescDim(out_desc[0], 0), (int)aclGetTensorDescDim(out_desc[0], 1));
  for (int i = 0; i < 2; ++i) {
    aclDestroyTensorDesc(in_desc[i]);
    aclDestroyDataBuffer(in[i]);
  }
  aclDestroyTensorDesc(out_desc[0]);
  aclDestroyDataBuffer(out[0]);
  return 0;
}
