#!/usr/bin/env bash
# The installed tree as GE's sample folders see it (README.md "Installed tree"): installs into a
# temporary prefix P, checks the layout (every library name GE's samples link, the include folders,
# opp/built-in/op_proto/inc, asc/include, set_env.sh under sh from another folder, sourced twice),
# then builds tests/install/ge_shaped out of tree with only `source P/set_env.sh` (its CMakeLists
# reads $ENV{ASCEND_HOME_PATH}) and runs it: ge::Session on GE's graph API, then atc on the JSON
# form of the same graph and the ACL program on the OM. z = 2x + y with x = 1..6, y = 10..60,
# computed by AxpbCustom's Ascend C kernel (ge/axpb_kernel.asc: find_package(ASC), LANGUAGES ASC
# CXX, a <<<>>> launch from Execute on 2 blocks).
set -euo pipefail
build="$1"; src="$2"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
P="$W/prefix"
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$P" >/dev/null

for lib in ascendcl acl_rtc register gert lowering ge_runner acl_rt ge_compiler ge_common ge_executor \
           ge_runner_v2 runtime graph graph_base opp_registry ascendc_runtime; do
  [ -f "$P/lib64/lib$lib.so" ] || fail "lib64/lib$lib.so missing"
done
[ -f "$P/lib64/libcustom_op_registry_static.a" ] || fail "lib64/libcustom_op_registry_static.a missing"
for f in include/graph/graph.h include/graph/types.h include/register/op_impl_registry.h include/ge/ge_api.h \
         include/acl/acl.h include/external/ge/ge_api.h include/external/graph/custom_op.h \
         opp/built-in/op_proto/inc/ops_proto_legacy.h asc/include/kernel_operator.h \
         asc/include/openatc/host_kernel.h asc/include/openatc/gm_check.h bin/atc bin/omrun; do
  [ -f "$P/$f" ] || fail "$f missing"
done
[ -d "$P/opp/built-in/op_graph/lib/linux/$(uname -m)" ] || fail "opp/built-in/op_graph/lib/linux/$(uname -m) missing"

# set_env.sh: from any folder, under sh, twice; the tree is found from the script's location.
mv "$P" "$W/moved" && P="$W/moved"
env_line=$(cd / && env -i PATH=/usr/bin:/bin sh -c ". '$P/set_env.sh'; . '$P/set_env.sh'; \
  echo \"\$ASCEND_HOME_PATH|\$PATH|\$LD_LIBRARY_PATH|\$PYTHONPATH|\$CMAKE_PREFIX_PATH\"")
want="$P|$P/bin:/usr/bin:/bin|$P/lib64|$P/python/site-packages|$P"
[ "$env_line" = "$want" ] || fail "set_env.sh under sh gave '$env_line', expected '$want'"

source "$P/set_env.sh"
[ "$ASCEND_HOME_PATH" = "$P" ] || fail "set_env.sh under bash set ASCEND_HOME_PATH=$ASCEND_HOME_PATH"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/tests/install/ge_shaped" -B "$W/b" -G Ninja "${launcher[@]}" >"$W/cfg.log" 2>&1 || { cat "$W/cfg.log"; fail "configure"; }
cmake --build "$W/b" >"$W/build.log" 2>&1 || { cat "$W/build.log"; fail "build"; }
# grep reads all of nm's output (grep -q would close the pipe early and pipefail would see SIGPIPE).
nm -D --defined-only "$W/b/output/op_graph/lib/linux/$(uname -m)/libcust_opapi.so" | grep -c GetRegisteredCustomOpCreatorNum >/dev/null \
  || fail "libcust_opapi.so (linked with ascendcl and lowering only) lacks the pull ABI"
# AxpbCustom's Execute launches ge/axpb_kernel.asc: the deliverable carries the kernel bisheng built.
objdump -h "$W/b/output/op_graph/lib/linux/$(uname -m)/libcust_opapi.so" | grep -c '[.]aicore_binary' >/dev/null \
  || fail "libcust_opapi.so lacks the .aicore_binary section of its Ascend C kernel"

expected="z = 12 24 36 48 60 72"
export ASCEND_CUSTOM_OPP_PATH="$W/b/output"
got=$("$W/b/ge_shaped_session_run") || fail "session_run exited $?"
[ "$got" = "$expected" ] || fail "session_run printed '$got', expected '$expected'"
atc_out=$(atc --model "$src/tests/install/ge_shaped/axpb.json" --soc_version host --output "$W/om/axpb") || fail "atc: $atc_out"
grep -qx "ATC run success, welcome to the next use." <<<"$atc_out" || fail "atc printed: $atc_out"
unset ASCEND_CUSTOM_OPP_PATH
got=$("$W/b/ge_shaped_model_exec" "$W/om/axpb.om") || fail "model_exec exited $?"
[ "$got" = "$expected" ] || fail "model_exec printed '$got', expected '$expected'"
echo "installed tree: layout, set_env.sh, GE-shaped project built; session_run and model_exec: $expected"
