# Sourced by run_eager.sh, run_online.sh, run_offline.sh (examples/tilelang_stand_in): the steps
# every TileLang flow shares, as GE's TileLang samples' run.sh do them, with the stand-in producer
# in place of TileLang-Ascend (no `import tilelang` check: nothing here imports it).
#   BUILD_DIR   the build folder (first argument of the run script; default <this folder>/build)
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="$(mkdir -p "${1:-${SCRIPT_DIR}/build}" && cd "${1:-${SCRIPT_DIR}/build}" && pwd)"
ARCH="$(uname -m)"

info() { echo "[INFO] $*"; }
error() { echo "[ERROR] $*" >&2; }

if [[ -z "${ASCEND_HOME_PATH:-}" ]]; then
  error "ASCEND_HOME_PATH is empty. Please source <prefix>/set_env.sh first."
  exit 1
fi
info "Kernel producer: ${SCRIPT_DIR}/add_custom_kernel.py (a stand-in for TileLang-Ascend, host bisheng)"

# Configures and builds this folder against the installed tree (ASCEND_HOME_PATH).
build_folder() {
  cmake -S "${SCRIPT_DIR}" -B "${BUILD_DIR}" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "${BUILD_DIR}" -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
}
