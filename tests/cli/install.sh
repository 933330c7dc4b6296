#!/usr/bin/env bash
# librbdiff as a user gets it (README.md, "Using librbdiff from your own
# code"): after the build scripts/run makes (scripts/build-release, into
# BUILD_DIR, kept between runs so a rerun is incremental), the README's
# shell block runs verbatim in a scratch tree whose build/release is that
# build and whose $HOME is scratch: `cmake --install` into ~/rbdiff, then
# the README's example program and CMake file, extracted from the README
# itself, built and run through pkg-config (shared library, no library path
# set) and through find_package (static).  Then the prefix is checked file
# by file, and the installed program must find its robots in
# PREFIX/share/rbdiff, run from outside the source tree.
# Usage: install.sh BUILD_DIR SOURCE_DIR TMPDIR
set -u
BUILD=$1
SRC=$2
TMP=$3
rm -rf "$TMP"
mkdir -p "$TMP/home" "$TMP/src/build" "$TMP/src/example"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$SRC/scripts/build-release" "$BUILD" >"$TMP/build.log" 2>&1 || { tail -30 "$TMP/build.log"; echo "FAIL: scripts/build-release"; exit 1; }
ln -s "$BUILD" "$TMP/src/build/release"

# the README's blocks, as printed there: the commands, the program, the CMake file
block() { awk -v lang="$1" '/^## Using librbdiff/ { s = 1 } /^## / && !/^## Using librbdiff/ { s = 0 }
          s && $0 == "```" lang { c = 1; next } c && /^```$/ { exit } c' "$SRC/README.md"; }
block sh >"$TMP/commands.sh"
block c >"$TMP/src/example/example.c"
block cmake >"$TMP/src/example/CMakeLists.txt"
for f in "$TMP/commands.sh" "$TMP/src/example/example.c" "$TMP/src/example/CMakeLists.txt"; do
    [ -s "$f" ] || fail "no ${f##*/} block under 'Using librbdiff' in README.md"
done
grep -q 'cmake --install build/release' "$TMP/commands.sh" || fail "the README's commands do not install build/release"
P="$TMP/home/rbdiff"
(cd "$TMP/src" && env -i PATH="$PATH" HOME="$TMP/home" bash -e "$TMP/commands.sh") >"$TMP/commands.out" 2>&1 ||
    fail "the README's commands failed: $(tail -20 "$TMP/commands.out")"
cat "$TMP/commands.out" | grep '^nq '
[ "$(grep -c '^nq ' "$TMP/commands.out")" = 2 ] || fail "the README's commands did not run the example twice: $(tail -20 "$TMP/commands.out")"
grep '^nq ' "$TMP/commands.out" | while read -r line; do
    err=$(echo "$line" | sed -n 's/.*|FD(ID(a)) - a| \([^ ]*\).*/\1/p')
    awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }' || echo "FAIL: FD(ID(a)) differs from a by '$err'"
    echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^max\|/ && !($(i + 1) + 0 > 0)) bad = 1 } END { exit bad }' ||
        echo "FAIL: a derivative printed as zero: $line"
done | grep FAIL && fails=$((fails + 1))
grep -q '^nq 6 nv 6 ' "$TMP/commands.out" || fail "no run on ur3 (nq 6 nv 6)"
[ -e "$TMP/src/example/a.out" ] && ldd "$TMP/src/example/a.out" | grep -q "$P/lib.*librbdiff.so" ||
    fail "the pkg-config build does not use the installed shared library: $(ldd "$TMP/src/example/a.out" 2>&1 | grep rbdiff)"

lib=$(ls -d "$P"/lib* | head -1)
for f in "$lib/librbdiff.a" "$lib/librbdiff.so" "$P/include/rbdiff/rbdiff.h" "$P/include/rbdiff/method.h" \
         "$lib/pkgconfig/rbdiff.pc" "$lib/cmake/rbdiff/rbdiffConfig.cmake" "$P/bin/rbdiff" \
         "$P/share/rbdiff/tests/models/ur3.urdf" "$P/share/rbdiff/plots/fig5.gp"; do
    [ -e "$f" ] || fail "not installed: ${f#$P/}"
done
[ -e "$P/include/rbdiff/joint.h" ] && fail "an internal header was installed"

# a typo in a method's name: NULL and a message naming the nearest, not a crash
sed 's/run("idsva", m/run("idsva_body", m/' "$TMP/src/example/example.c" >"$TMP/typo.c"
cc -std=c11 "$TMP/typo.c" $(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --cflags --libs rbdiff) -lm -o "$TMP/typo" &&
    "$TMP/typo" "$P/share/rbdiff/tests/models/ur3.urdf" >"$TMP/typo.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "no method 'idsva_body' (nearest: idsva-body" "$TMP/typo.out" ||
    fail "a typo in the example's method name: exit $rc, '$(cat "$TMP/typo.out")'"

# the installed program, away from the source tree
( cd "$TMP" && env -u RBD_DATA_DIR "$P/bin/rbdiff" --version ) >"$TMP/version" 2>&1
grep -qF "data: $(cd "$P/share/rbdiff" && pwd -P)" "$TMP/version" || fail "installed rbdiff does not read PREFIX/share/rbdiff: $(cat "$TMP/version")"
grep -q "commit [0-9a-f]\{40\}" "$TMP/version" || fail "no build-time commit in --version: $(cat "$TMP/version")"
printf 'q 0.1 0.2 0.3 0.4 0.5 0.6\nv 1 1 1 1 1 1\na 0 0 0 0 0 0\n' >"$TMP/state"
( cd "$TMP" && env -u RBD_DATA_DIR "$P/bin/rbdiff" eval idsva --model urdf:tests/models/ur3.urdf --state state ) >"$TMP/eval" 2>&1 ||
    fail "installed rbdiff cannot evaluate the robot ur3: $(head -3 "$TMP/eval")"

# the peers scripts/peers built install beside the program, which finds them
mods=$(ls "$SRC"/build/peers/rbdpeer-*.so 2>/dev/null)
if [ -n "$mods" ] && [ -z "${RBD_PEER_DIR:-}" ]; then
    for m in $mods; do
        name=$(basename "$m" .so); name=${name#rbdpeer-}
        [ -e "$lib/rbdiff/peers/rbdpeer-$name.so" ] || fail "peer $name not installed in ${lib#$P/}/rbdiff/peers"
        ( cd "$TMP" && "$P/bin/rbdiff" time --robots ur3 --methods idsva --base no --peers "$name" --batches 1 \
              --batch-ms 0.1 --warmup-ms 0 --counters no ) >"$TMP/peer.out" 2>&1 ||
            fail "installed rbdiff cannot load the peer $name: $(tail -3 "$TMP/peer.out")"
    done
    # the untimed halves the Pinocchio modules link, found beside them ($ORIGIN)
    for s in "$SRC"/build/peers/pinocchio-setup@*.so; do
        [ -e "$s" ] || continue
        [ -e "$lib/rbdiff/peers/$(basename "$s")" ] || fail "$(basename "$s") not installed beside the peers"
    done
else
    echo "install: no peer modules in $SRC/build/peers; their install is not checked"
fi

[ $fails -eq 0 ] && echo "install: all checks passed"
exit $((fails > 0))
