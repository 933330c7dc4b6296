#!/usr/bin/env bash
# rbdiff pack (harness/README.md, "Results format"): a packed set keeps its
# tables and CSVs, holds samples.csv only as samples.csv.gz and drops what
# other commands rebuild; every reader takes the packed form (compare's rank
# test, merge, plot); --unpack gives back samples.csv byte for byte and
# benchmarks.json; a sweep resuming in a packed set goes on; a damaged .gz
# and a missing directory are refused with their names.
# Usage: pack.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
args=(--methods idsva,rneacr --base no --bf 1 --batches 3 --batch-ms 0.3 --warmup-ms 0.5 --counters no)

"$RBDIFF" sweep "${args[@]}" --N 2,3 --out "$TMP/a" >/dev/null 2>"$TMP/err" || { fail "sweep"; cat "$TMP/err"; }
mkdir -p "$TMP/a/plots/data" && : >"$TMP/a/plots/data/z.dat" && : >"$TMP/a/plots/x.dat" && : >"$TMP/a/plots/x.png" && : >"$TMP/a/plots/x.svg" && : >"$TMP/a/plots/y.png"
: >"$TMP/a/plots/times_all.svg" && : >"$TMP/a/plots/times_all.png"
cp -r "$TMP/a" "$TMP/orig"
"$RBDIFF" pack "$TMP/a" 2>"$TMP/err" || fail "pack: $(cat "$TMP/err")"
[ -f "$TMP/a/samples.csv.gz" ] && [ ! -e "$TMP/a/samples.csv" ] || fail "samples.csv was not replaced by samples.csv.gz"
[ -e "$TMP/a/benchmarks.json" ] && fail "benchmarks.json kept"
[ -e "$TMP/a/plots/x.dat" ] || [ -e "$TMP/a/plots/data" ] && fail "plot data kept"
[ -e "$TMP/a/plots/x.png" ] && fail "a PNG with its SVG kept"
[ -e "$TMP/a/plots/y.png" ] || fail "a PNG without an SVG removed"
[ -e "$TMP/a/plots/times_all.png" ] && [ ! -e "$TMP/a/plots/times_all.svg" ] || fail "a small multiple kept as SVG, not PNG"
cmp -s "$TMP/a/timings.csv" "$TMP/orig/timings.csv" || fail "pack changed timings.csv"
cmp -s "$TMP/a/tables.md" "$TMP/orig/tables.md" || fail "pack changed tables.md"
# a set without a README gets one from its meta.json; one with a README keeps it
grep -qF "$(sed -n 's/.*"command_line": "\([^"]*\)".*/\1/p' "$TMP/a/meta.json" | head -1)" "$TMP/a/README.md" 2>/dev/null ||
    fail "pack wrote no README.md naming the set's command line"
grep -q '^| \[timings.csv\](timings.csv) |' "$TMP/a/README.md" || fail "the README does not list timings.csv"
echo "why this set was made" >"$TMP/a/README.md"
"$RBDIFF" pack "$TMP/a" 2>"$TMP/err" || fail "pack again: $(cat "$TMP/err")"
[ "$(cat "$TMP/a/README.md")" = "why this set was made" ] || fail "pack replaced a set's own README"

# readers of the packed set: compare (rank test on the samples) and merge
"$RBDIFF" compare "$TMP/orig" "$TMP/a" --threshold 1000 >"$TMP/cmp" 2>&1 || fail "compare plain vs packed: $(tail -3 "$TMP/cmp")"
"$RBDIFF" merge "$TMP/m" "$TMP/a" >/dev/null 2>"$TMP/err" || fail "merge of a packed set: $(cat "$TMP/err")"
cmp -s <(tail -n +2 "$TMP/m/samples.csv" | sort) <(tail -n +2 "$TMP/orig/samples.csv" | sort) ||
    fail "merge read other samples from samples.csv.gz"

"$RBDIFF" pack --unpack "$TMP/a" 2>"$TMP/err" || fail "unpack: $(cat "$TMP/err")"
cmp -s "$TMP/a/samples.csv" "$TMP/orig/samples.csv" || fail "unpack did not restore samples.csv"
[ -s "$TMP/a/benchmarks.json" ] || fail "unpack did not rebuild benchmarks.json"

# a sweep resuming in a packed set: its old cells kept, samples unpacked
"$RBDIFF" pack "$TMP/a" 2>/dev/null
"$RBDIFF" sweep "${args[@]}" --N 2,3,4 --out "$TMP/a" >/dev/null 2>"$TMP/err" || fail "resume in a packed set: $(cat "$TMP/err")"
[ "$(tail -n +2 "$TMP/a/timings.csv" | wc -l)" -eq 6 ] || fail "resume: $(tail -n +2 "$TMP/a/timings.csv" | wc -l) rows, expected 6"
[ "$(tail -n +2 "$TMP/a/samples.csv" | wc -l)" -eq 18 ] || fail "resume: samples of the old cells lost"
[ -e "$TMP/a/samples.csv.gz" ] && fail "resume left samples.csv.gz beside samples.csv"

# bad input
cp -r "$TMP/orig" "$TMP/bad" && "$RBDIFF" pack "$TMP/bad" 2>/dev/null
head -c 40 "$TMP/bad/samples.csv.gz" >"$TMP/bad/cut" && mv "$TMP/bad/cut" "$TMP/bad/samples.csv.gz"
"$RBDIFF" compare "$TMP/orig" "$TMP/bad" >/dev/null 2>"$TMP/err"
grep -q "samples.csv.gz: not a readable gzip file" "$TMP/err" || fail "a cut samples.csv.gz is not named: $(cat "$TMP/err")"
"$RBDIFF" pack "$TMP/nosuch" 2>"$TMP/err"
st=$?
[ $st -eq 2 ] && grep -qF "$TMP/nosuch: no such directory" "$TMP/err" || fail "pack of a missing directory: status $st, $(cat "$TMP/err")"

passed "pack: all checks passed"
