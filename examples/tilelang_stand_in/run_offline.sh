#!/usr/bin/env bash
# Flow C (offline) with the stand-in producer, the steps of GE's tilelang_add_custom_offline
# run.sh: build AddCustomOffline + the graph and OM programs, save the graph as AIR, atc (Compile
# runs the producer, Serialize puts the .so bytes into the OM), then run the OM with
# ASCEND_CUSTOM_OPP_PATH unset (Deserialize loads the kernel from memory).
#   run_offline.sh [build dir]     SOC_VERSION: atc's --soc_version (default host)
source "$(dirname "${BASH_SOURCE[0]}")/run_common.sh"
info "Step 1/4: build custom op library, graph_build and model_exec"
build_folder
OPP="${BUILD_DIR}/opp_offline"
info "kernel source installed in OPP package."
AIR="${BUILD_DIR}/tilelang_add_offline.air"
OM="${BUILD_DIR}/tilelang_add_offline"
info "Step 2/4: generate AIR file (graph definition)"
"${BUILD_DIR}/tilelang_offline_graph_build" "${AIR}"
info "Step 3/4: compile AIR to OM via ATC (triggers Compile + Serialize)"
ASCEND_CUSTOM_OPP_PATH="${OPP}:${ASCEND_CUSTOM_OPP_PATH:-}" \
  atc --framework=1 --model="${AIR}" --output="${OM}" --soc_version="${SOC_VERSION:-host}" 2>&1 ||
  { error "ATC compilation failed."; exit 1; }
info "OM model generated: $(stat -c %s "${OM}.om") bytes"
info "Step 4/4: execute OM model (triggers Deserialize + Execute), ASCEND_CUSTOM_OPP_PATH unset"
(unset ASCEND_CUSTOM_OPP_PATH; "${BUILD_DIR}/tilelang_offline_model_exec" "${OM}.om")
info "Sample pipeline finished."
