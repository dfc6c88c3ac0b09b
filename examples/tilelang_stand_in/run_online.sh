#!/usr/bin/env bash
# Flow B (online) with the stand-in producer, the steps of GE's tilelang_add_custom_online run.sh:
# build AddCustomOnline (the producer lands beside its library) + the session program, then run
# the graph: CompileGraph runs Compile, which spawns the producer once per input size.
#   run_online.sh [build dir]
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"
info "Step 1/3: build custom op library and session_run"
build_folder
OPP="${BUILD_DIR}/opp_online"
[[ -f "${OPP}/op_graph/lib/linux/${ARCH}/add_custom_kernel.py" ]] || { error "producer not in the OPP package"; exit 1; }
info "kernel source installed in OPP package."
export ASCEND_CUSTOM_OPP_PATH="${OPP}:${ASCEND_CUSTOM_OPP_PATH:-}"
info "Step 2/3: run session test (CompileGraph runs the producer)"
"${BUILD_DIR}/tilelang_online_session_run"
info "Step 3/3: sample pipeline finished."
