// The compile-time parts of a Python op's adapter (internal): CompilableOp runs the class's
// compile, AnnotatedArgsOp its declare_launch_args, both on the op's one Python instance (the
// one its execute uses too), so what compile keeps on `self` reaches declare_launch_args.
#ifndef OPENATC_PYTHON_HOST_PY_COMPILE_PARTS_H_
#define OPENATC_PYTHON_HOST_PY_COMPILE_PARTS_H_

#include "py_adapter.h"

namespace openatc::python_host {

class PyCompilePart : public virtual ge::CompilableOp {
 public:
  explicit PyCompilePart(const PyOpInfo &info) : info_(info) {}
  ge::graphStatus Compile(gert::OpCompileContext *ctx) override;

 private:
  PyOpInfo info_;
};

class PyAnnotatedPart : public virtual ge::AnnotatedArgsOp {
 public:
  explicit PyAnnotatedPart(const PyOpInfo &info) : info_(info) {}
  ge::graphStatus DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) override;

 private:
  PyOpInfo info_;
};

}  // namespace openatc::python_host

#endif  // OPENATC_PYTHON_HOST_PY_COMPILE_PARTS_H_
