#!/usr/bin/env bash
# Flow A (eager) with the stand-in producer, the steps of GE's tilelang_add_custom run.sh:
# produce add_kernel.so (no-argument form), build AddCustom + the session program, put the kernel
# in the OPP root, run the graph with ge::Session (README.md "TileLang flows with a stand-in
# kernel producer").   run_eager.sh [build dir]
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"
info "Step 1/4: compile the kernel (stand-in producer)"
mkdir -p "${BUILD_DIR}/kernel"
cp "${SCRIPT_DIR}/add_custom_kernel.py" "${BUILD_DIR}/kernel/"
(cd "${BUILD_DIR}/kernel" && python3 add_custom_kernel.py)
[[ -f "${BUILD_DIR}/kernel/add_kernel.so" ]] || { error "kernel .so not found: ${BUILD_DIR}/kernel/add_kernel.so"; exit 1; }
info "kernel .so generated."
info "Step 2/4: build custom op library and session_run"
build_folder
OPP="${BUILD_DIR}/opp_eager"
cp "${BUILD_DIR}/kernel/add_kernel.so" "${OPP}/op_graph/lib/linux/${ARCH}/"
export ASCEND_CUSTOM_OPP_PATH="${OPP}:${ASCEND_CUSTOM_OPP_PATH:-}"
info "Step 3/4: kernel .so installed in OPP package: ${OPP}/op_graph/lib/linux/${ARCH}/add_kernel.so"
info "Step 4/4: run session test"
"${BUILD_DIR}/tilelang_eager_session_run"
info "Sample pipeline finished."
