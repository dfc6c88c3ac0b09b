#!/usr/bin/env bash
# Builds tests/asc/project (find_package(ASC), LANGUAGES ASC CXX, an .asc shared library with
# <<<>>> launches) and tests/asc/asc_only (LANGUAGES ASC alone, a template kernel, printf, no link
# libraries) against the build tree's ASC package and runs them; the outputs are checked
# exactly. Usage: asc_project_test.sh <build dir> <source dir>
set -euo pipefail
build="$1"; src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src/tests/asc/project" -B "$work/b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$build" \
  -DOPENATC_INCLUDE="$src/include" -DOPENATC_LIB="$build/lib" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/b" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
# The .asc object went through bisheng and carries the kernel shared object.
obj=$(find "$work/b" -name 'where_like.asc.o' | head -1)
llvm-objcopy -O binary --only-section=.aicore_binary "$obj" "$work/k.bin"
test "$(head -c 4 "$work/k.bin" | od -An -c | tr -d ' ')" = "177ELF"
actual=$("$work/b/where_like_main")
expected="rc 0 count 4: 4001 4003 4004 4007 4000 4000 4000 4000
dynamic UB launch rc 200006: <<<>>> launch: the launch of kernel 'shift<int64_t>' asks for 64 bytes of dynamic UB, which the host runtime does not provide. Pass nullptr or 0 as the second launch parameter."
if [ "$actual" != "$expected" ]; then
  printf 'unexpected output:\n%s\nexpected:\n%s\n' "$actual" "$expected"; exit 1
fi
echo "ASC project: .asc built with bisheng into a shared library, <<<>>> launches ran"

# asc_only/: `LANGUAGES ASC` alone, a template kernel, utils/debug/asc_printf.h, no link libraries.
cmake -S "$src/tests/asc/asc_only" -B "$work/ao" -G Ninja -DCMAKE_PREFIX_PATH="$build" > "$work/ao-configure.log" 2>&1 \
  || { cat "$work/ao-configure.log"; exit 1; }
cmake --build "$work/ao" > "$work/ao-build.log" 2>&1 || { cat "$work/ao-build.log"; exit 1; }
# The runtime comes from the build tree, as set_env.sh's LD_LIBRARY_PATH gives it in an install.
actual=$(LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/ao/asc_only_demo")
expected="block 1 of 3 says hello
0 1 2 3 100 101 102 103 200 201 202 203 
launch 0 sync 0 copy 0"
if [ "$actual" != "$expected" ]; then
  printf 'asc_only: unexpected output:\n%s\nexpected:\n%s\n' "$actual" "$expected"; exit 1
fi
# CMAKE_ASC_RUN_MODE=cpu: the same run, with ASCENDC_CPU_DEBUG defined; sim is refused by name.
cmake -S "$src/tests/asc/asc_only" -B "$work/cpu" -G Ninja -DCMAKE_PREFIX_PATH="$build" -DCMAKE_ASC_RUN_MODE=cpu \
  > "$work/cpu-configure.log" 2>&1 || { cat "$work/cpu-configure.log"; exit 1; }
cmake --build "$work/cpu" > "$work/cpu-build.log" 2>&1 || { cat "$work/cpu-build.log"; exit 1; }
actual=$(LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/cpu/asc_only_demo")
if [ "$actual" != "$expected"$'\n'"ASCENDC_CPU_DEBUG" ]; then
  printf 'asc_only (cpu mode): unexpected output:\n%s\n' "$actual"; exit 1
fi
if cmake -S "$src/tests/asc/asc_only" -B "$work/sim" -G Ninja -DCMAKE_PREFIX_PATH="$build" -DCMAKE_ASC_RUN_MODE=sim \
  > "$work/sim-configure.log" 2>&1; then
  echo "asc_only: CMAKE_ASC_RUN_MODE=sim configured, expected a refusal"; exit 1
fi
grep -c "CMAKE_ASC_RUN_MODE='sim' is not available" "$work/sim-configure.log" >/dev/null \
  || { cat "$work/sim-configure.log"; echo "asc_only: sim refusal lacks its message"; exit 1; }
echo "ASC-only project: template kernel, asc_printf.h, runtime linked by the ASC language, run modes npu/cpu (sim refused)"
