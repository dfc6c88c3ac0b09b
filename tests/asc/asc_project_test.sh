#!/usr/bin/env bash
# Builds tests/asc/project (find_package(ASC), LANGUAGES ASC CXX, an .asc shared library with
# <<<>>> launches) against the build tree's ASC package and runs it; the output is checked
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
