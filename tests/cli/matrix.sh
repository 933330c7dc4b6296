#!/usr/bin/env bash
# The table-assembly step of scripts/compiler-matrix (scripts/matrix-table)
# on synthetic inputs (tests/data/make-synthetic-results.sh: made-up cost
# models, not measurements): three builds measured, one compiler skipped;
# table3.csv has one row per build x DMM flavour x bf, table3.md shows the
# crossover N, the unresolved bracket, the skipped build and the GFLOP/s
# fractions; the plot is rendered when gnuplot is there.
# Usage: matrix.sh SOURCE_DIR TMPDIR
set -u
SRC=$1
TMP=$2
rm -rf "$TMP"
mkdir -p "$TMP/builds"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
n=0
for b in gcc-x86-64 gcc-native clang-native; do
    "$SRC/tests/data/make-synthetic-results.sh" "$TMP/builds/$b"
    # a second DMM flavour, and build-specific crossover N (n shifts them)
    awk -F, -v OFS=, -v s=$((n * 100)) 'NR == 1 { print; next }
        { if ($5 != "") { $5 += s; $7 += s; $6 += s } print
          $2 = "fdsva-dmm-loop"; if ($5 != "") { $5 += 7; $6 += 7; $7 += 7 } print }' \
        "$TMP/builds/$b/crossover.csv" >"$TMP/x" && mv "$TMP/x" "$TMP/builds/$b/crossover.csv"
    # dgemm rows and flops so the GFLOP/s table has something to divide
    awk -F'"' -v OFS='"' 'NR == 1 { print; next }
        { print }
        $1 ~ /^idsva,/ { split($3, c, ","); print "dgemm,roof,", $2, sprintf(",%s,%s,%s,%g,%g,%g,%g,%g,11,100,,,%s,,%g", c[2], c[3], c[4], c[3]^3 / 20, c[3]^3 / 21, c[3]^3 / 20.5, c[3]^3 / 19.5, c[3]^3 / 400, c[4], 2 * c[3]^3) }' \
        "$TMP/builds/$b/timings.csv" >"$TMP/t"
    sed -i '1s/$/,fp_ops,flops/' "$TMP/t"
    awk -F'"' -v OFS='"' 'NR == 1 || $1 ~ /^dgemm/ { print; next } { print $0 ",," }' "$TMP/t" >"$TMP/builds/$b/timings.csv"
    n=$((n + 1))
done
printf 'gcc-x86-64\tgcc\t12.2.0\tx86-64\t-march=x86-64\tok\n' >"$TMP/builds.tsv"
printf 'gcc-native\tgcc\t12.2.0\tnative\t-march=native\tok\n' >>"$TMP/builds.tsv"
printf 'clang-x86-64\tclang\t-\tx86-64\t-\tskipped: clang not installed\n' >>"$TMP/builds.tsv"
printf 'clang-native\tclang\t14.0.6\tnative\t-march=native\tok\n' >>"$TMP/builds.tsv"

"$SRC/scripts/matrix-table" "$TMP" fdsva-aza >"$TMP/out" 2>"$TMP/err" || { fail "matrix-table failed"; cat "$TMP/err"; }
rows=$(tail -n +2 "$TMP/table3.csv" | wc -l)
[ "$rows" -eq 18 ] || fail "table3.csv has $rows rows, expected 3 builds x 2 flavours x 3 bf = 18"
# gcc-native: synthetic N = 57 shifted by 100; the loop flavour 7 more
grep -q '^gcc,12.2.0,native,-march=native,fdsva-dmm,fdsva-aza,1,157,' "$TMP/table3.csv" || fail "gcc native bf 1 row"
grep -q '^clang,14.0.6,native,-march=native,fdsva-dmm-loop,fdsva-aza,2,264,' "$TMP/table3.csv" || fail "clang loop bf 2 row"
md="$TMP/table3.md"
grep -q '^| compiler | ISA | fdsva-dmm, bf = 1 | fdsva-dmm, bf = 2 | fdsva-dmm, bf = 5 | fdsva-dmm-loop, bf = 1 |' "$md" || fail "table3.md header"
grep -q '^| gcc 12.2.0 | x86-64 | 57 | 57 | unresolved@50 \[40, 60\] | 64 |' "$md" || { fail "gcc x86-64 row"; grep '^| gcc' "$md"; }
grep -q '^| clang - | x86-64 | - | - |' "$md" || fail "skipped build row"
grep -q 'clang-x86-64 (clang): skipped: clang not installed' "$md" || fail "skip note"
grep -q '^| idsva | 100 | ' "$md" || fail "headline timings of idsva at N = 100"
grep -q '^| dgemm | 100 | 40.00 (100%) |' "$md" || { fail "dgemm's rate as 100%"; grep '^| dgemm | 100' "$md"; }
if command -v gnuplot >/dev/null; then
    for e in png svg; do [ -s "$TMP/plots/table3.$e" ] || fail "plots/table3.$e missing"; done
fi
[ "$fails" -eq 0 ] && echo "matrix-table checks passed"
[ "$fails" -eq 0 ]
