#!/usr/bin/env bash
# openatc_add_om() from the installed package (cmake/OpenATCAddOm.cmake): installs into a temporary
# prefix, configures tests/install/add_om out of tree with find_package(OpenATC), builds the OM as a
# build step and runs it with omrun (y = x + x on ones: 2 2 2 2). A second build does nothing;
# touching the model, editing a DEPENDS file or touching atc rebuilds the OM, and nothing else does.
set -euo pipefail
build="$1"; src="$2"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
P="$W/prefix"
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$P" >/dev/null
cp -r "$src/tests/install/add_om" "$W/src"
protoc -I/usr/include --encode=onnx.ModelProto onnx/onnx.proto <"$W/src/add.txtpb" >"$W/src/add.onnx"
unset ASCEND_CUSTOM_OPP_PATH
cmake -S "$W/src" -B "$W/b" -G Ninja -DCMAKE_PREFIX_PATH="$P" >"$W/cfg.log" 2>&1 || { cat "$W/cfg.log"; fail "configure"; }
om="$W/b/om/add.om"
[ "$(cat "$W/b/om_path.txt")" = "$om" ] || fail "OPENATC_OM_FILE is '$(cat "$W/b/om_path.txt")', expected '$om'"

# build BUILD_NAME WANT: runs the build, WANT=rebuilt means atc ran, WANT=nothing means ninja had no work.
build_step() {
  local log="$W/$1.log"
  cmake --build "$W/b" >"$log" 2>&1 || { cat "$log"; fail "$1: build failed"; }
  case "$2" in
    rebuilt) grep -q "Building OM om/add.om with atc" "$log" || { cat "$log"; fail "$1: atc did not run"; } ;;
    nothing) grep -qx "ninja: no work to do." "$log" || { cat "$log"; fail "$1: the build did work"; } ;;
  esac
}
build_step first rebuilt
[ -f "$om" ] || fail "$om not written"
printf '\x00\x00\x80\x3f%.0s' 1 2 3 4 >"$W/ones.bin"
"$P/bin/omrun" "$om" --input "$W/ones.bin" --output "$W/r" --outfmt TXT >/dev/null
[ "$(tr '\n' ' ' <"$W/r/output_0.txt")" = "2 2 2 2 " ] || fail "omrun gave '$(cat "$W/r/output_0.txt")', expected 2 2 2 2"
build_step second nothing
ninja -C "$W/b" -n >"$W/dry.log" 2>&1
grep -qx "ninja: no work to do." "$W/dry.log" || { cat "$W/dry.log"; fail "ninja -n after a full build lists work"; }

# Each input of the step rebuilds the OM once (ninja compares nanosecond mtimes).
touch "$W/src/add.onnx"
build_step model_touched rebuilt
build_step after_model nothing
printf 'ConvAddFusionPass:on\n' >"$W/src/fusion_switch.cfg"
build_step depends_edited rebuilt
build_step after_depends nothing
touch "$P/bin/atc"
build_step atc_touched rebuilt
build_step after_atc nothing

# A model atc refuses fails the build with atc's error, and the next build tries again.
: >"$W/src/add.onnx"
if cmake --build "$W/b" >"$W/bad.log" 2>&1; then cat "$W/bad.log"; fail "a bad model built"; fi
grep -q "atc: error: E10041: '$W/src/add.onnx': the model file is empty" "$W/bad.log" || { cat "$W/bad.log"; fail "no atc error"; }
[ -f "$om" ] || fail "the failed step removed the previous OM"
echo "openatc_add_om: built, no-op rebuild, rebuilt on model / DEPENDS / atc change, bad model fails; omrun: 2 2 2 2"
