#!/usr/bin/env bash
# librbdiff as a user gets it (README.md, "Using librbdiff from your own
# code"): `cmake --install` of this build into a fresh prefix holds the static
# and shared library, the public headers, rbdiff.pc and the CMake package; the
# README's example program, extracted from the README itself, compiles and
# runs against that prefix through pkg-config and through find_package; and
# the installed program finds its robots in PREFIX/share/rbdiff, run from
# outside the source tree.
# Usage: install.sh BUILD_DIR SOURCE_DIR TMPDIR
set -u
BUILD=$1
SRC=$2
TMP=$3
rm -rf "$TMP"
mkdir -p "$TMP"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
P="$TMP/prefix"

cmake --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; echo "FAIL: cmake --install"; exit 1; }
lib=$(ls -d "$P"/lib* | head -1)
for f in "$lib/librbdiff.a" "$lib/librbdiff.so" "$P/include/rbdiff/rbdiff.h" "$P/include/rbdiff/method.h" \
         "$lib/pkgconfig/rbdiff.pc" "$lib/cmake/rbdiff/rbdiffConfig.cmake" "$P/bin/rbdiff" \
         "$P/share/rbdiff/tests/models/ur3.urdf" "$P/share/rbdiff/plots/fig5.gp"; do
    [ -e "$f" ] || fail "not installed: ${f#$P/}"
done
[ -e "$P/include/rbdiff/joint.h" ] && fail "an internal header was installed"

# the README's example, as printed there
awk '/^## Using librbdiff/ { s = 1 } s && /^```c$/ { c = 1; next } c && /^```$/ { exit } c' "$SRC/README.md" >"$TMP/example.c"
[ -s "$TMP/example.c" ] || fail "no C example under 'Using librbdiff' in README.md"
ur3="$P/share/rbdiff/tests/models/ur3.urdf"
check_run() {   # label, executable
    local out
    out=$("$2" "$ur3" 2>&1) || { fail "$1: the example failed: $out"; return; }
    echo "$1: $out"
    echo "$out" | grep -q '^nq 6 nv 6 ' || fail "$1: unexpected output '$out'"
    local err
    err=$(echo "$out" | sed -n 's/.*|FD(ID(a)) - a| \([^ ]*\).*/\1/p')
    awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }' || fail "$1: FD(ID(a)) differs from a by '$err'"
}

# pkg-config, shared library
flags=$(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --cflags --libs rbdiff) || fail "pkg-config does not know rbdiff"
cc -std=c11 -Wall -Wextra -Werror "$TMP/example.c" $flags -lm -Wl,-rpath,"$lib" -o "$TMP/ex_pc" 2>"$TMP/cc.log" ||
    fail "the README example does not compile with pkg-config: $(cat "$TMP/cc.log")"
[ -x "$TMP/ex_pc" ] && check_run pkg-config "$TMP/ex_pc"

# the CMake package, static library
mkdir -p "$TMP/cmk"
cp "$TMP/example.c" "$TMP/cmk/"
cat >"$TMP/cmk/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(rbdiff_example C)
find_package(rbdiff REQUIRED)
add_executable(example example.c)
target_link_libraries(example PRIVATE rbdiff::rbdiff_lib m)
CM
if cmake -S "$TMP/cmk" -B "$TMP/cmk/build" -DCMAKE_PREFIX_PATH="$P" >"$TMP/cmk.log" 2>&1 &&
   cmake --build "$TMP/cmk/build" >>"$TMP/cmk.log" 2>&1; then
    check_run find_package "$TMP/cmk/build/example"
else
    fail "the README example does not build with find_package(rbdiff): $(tail -20 "$TMP/cmk.log")"
fi

# the installed program, away from the source tree
( cd "$TMP" && env -u RBD_DATA_DIR "$P/bin/rbdiff" --version ) >"$TMP/version" 2>&1
grep -qF "data: $(cd "$P/share/rbdiff" && pwd -P)" "$TMP/version" || fail "installed rbdiff does not read PREFIX/share/rbdiff: $(cat "$TMP/version")"
grep -q "commit [0-9a-f]\{40\}" "$TMP/version" || fail "no build-time commit in --version: $(cat "$TMP/version")"
printf 'q 0.1 0.2 0.3 0.4 0.5 0.6\nv 1 1 1 1 1 1\na 0 0 0 0 0 0\n' >"$TMP/state"
( cd "$TMP" && env -u RBD_DATA_DIR "$P/bin/rbdiff" eval idsva --model urdf:tests/models/ur3.urdf --state state ) >"$TMP/eval" 2>&1 ||
    fail "installed rbdiff cannot evaluate the robot ur3: $(head -3 "$TMP/eval")"

[ $fails -eq 0 ] && echo "install: all checks passed"
exit $((fails > 0))
