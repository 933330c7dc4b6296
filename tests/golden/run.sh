#!/usr/bin/env bash
# Golden outputs of the harness (issue 28): what rbdiff makes from a fixed
# results set (tests/golden/input, made by a sweep of commit 9aaa777, before
# the harness was restructured) must stay the same file for file:
#   report.md, tables.md, the plot data (plots/data/*.dat), compare's table,
#   merge's tables, benchmarks.json after pack --unpack (context dropped),
#   and a new accuracy audit's accuracy.csv and conditioning.csv (exact:
#   seeded states, no timing).  A new sweep's timings.csv, crossover.csv and
#   crossover_probes.csv must have the same rows with the timing columns
#   masked (their values are the machine's); so must a `crossover` run's
#   crossover.csv.  meta.json is left out (dates, hosts, build ids).
# expected/ was made by 9aaa777's rbdiff; where other issues changed an
# output on purpose since (issue 29: tables.md grouped by kind of method,
# report.md), it was remade by main's rbdiff before this layer took those
# files over (71822c7), and the new rbdiff gave the same files.  To remake it
# after an intended change: run.sh OLD_RBDIFF tests/golden/expected.
# report.md is made against claims.tsv (9aaa777's paper_claims.tsv, with the
# header line naming its columns that the reader takes them by), so new
# claims in the shipped file do not change it; a change of how a claim is
# checked does.
# Usage: run.sh RBDIFF OUT      writes the normalised outputs into OUT
#        run.sh RBDIFF OUT EXPECTED   and compares them with EXPECTED
set -euo pipefail
rbdiff=$1
out=$2
expected=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=UTC OPENBLAS_NUM_THREADS=1

cp -r "$here/input" "$work/set"
"$rbdiff" report "$work/set" --claims "$here/claims.tsv" >/dev/null
sed -e "s#$work/#WORK/#g" -e "s#$here/#GOLDEN/#g" "$work/set/report.md" > "$out/report.md"
# the figures need gnuplot; the data files come before it is called
"$rbdiff" plot "$work/set" >/dev/null 2>&1 || true
mkdir -p "$out/plot-data"
cp "$work/set/plots/data/"*.dat "$out/plot-data/"
"$rbdiff" compare "$work/set" "$here/input" > "$out/compare.txt"
"$rbdiff" merge "$work/merged" "$here/input" >/dev/null
for f in timings.csv samples.csv crossover.csv crossover_probes.csv accuracy.csv conditioning.csv tables.md; do
    cp "$work/merged/$f" "$out/merged-$f"
done
cp -r "$here/input" "$work/packed"
"$rbdiff" pack "$work/packed" >/dev/null
"$rbdiff" pack --unpack "$work/packed" >/dev/null
# the context (date, host) is the run's; the benchmarks are the data's
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d["benchmarks"], indent=1, sort_keys=True))' \
    "$work/packed/benchmarks.json" > "$out/benchmarks.json"

# a full set as the default sweep made it (results/2026-11-24-default: Fig. 7's
# crossovers found and unresolved, robots, live peers, packed samples)
cp -r "$here/input-default" "$work/def"
"$rbdiff" report "$work/def" --claims "$here/claims.tsv" >/dev/null
sed -e "s#$work/#WORK/#g" -e "s#$here/#GOLDEN/#g" "$work/def/report.md" > "$out/default-report.md"
"$rbdiff" plot "$work/def" >/dev/null 2>&1 || true
mkdir -p "$out/default-plot-data"
cp "$work/def/plots/data/"*.dat "$out/default-plot-data/"
"$rbdiff" anchors "$work/def" >/dev/null 2>&1 || true
for f in "$work/def/"vs-*.md; do sed "s#$work/#WORK/#g" "$f" > "$out/default-$(basename "$f")"; done
"$rbdiff" merge "$work/defm" "$work/def" >/dev/null
cp "$work/defm/tables.md" "$out/default-tables.md"

"$rbdiff" accuracy --N 2,3 --bf 1 --states 2 --methods idsva,rneacr,fdsva,fdsva-aza,fdsva-dmm --base no \
    --out "$work/acc" >/dev/null 2>&1
cp "$work/acc/accuracy.csv" "$work/acc/conditioning.csv" "$out/" 2>/dev/null || true
mv "$out/accuracy.csv" "$out/audit-accuracy.csv"
mv "$out/conditioning.csv" "$out/audit-conditioning.csv"

# a new sweep as the input was made; timing columns masked
"$rbdiff" sweep --N 2,3 --bf 1,2 --methods idsva,rneacr,fdsva,fdsva-aza,fdsva-dmm --base no --batches 3 \
    --batch-ms 0.2 --warmup-ms 0 --counters no --crossover 'fdsva-aza fdsva-dmm' --crossover-range 2:6 \
    --accuracy-N 2,3 --accuracy-bf 1 --accuracy-states 2 --robots ur5 --out "$work/sweep" >/dev/null 2>&1
mask() {   # mask FILE COLUMNS...: those columns (by header name) become 'T'
    local f=$1; shift
    python3 - "$f" "$@" <<'PY'
import csv, sys
path, cols = sys.argv[1], set(sys.argv[2:])
rows = list(csv.reader(open(path, newline="")))
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(rows[0])
for r in rows[1:]:
    w.writerow(["T" if h in cols else v for h, v in zip(rows[0], r)])
PY
}
mask "$work/sweep/timings.csv" median_ns min_ns q1_ns q3_ns iqr_ns calls_per_batch instructions cycles fp_ops \
    > "$out/sweep-timings.csv"
mask "$work/sweep/crossover.csv" N_cross bracket_lo bracket_hi status probes repetitions confidence \
    > "$out/sweep-crossover.csv"
head -1 "$work/sweep/crossover_probes.csv" > "$out/sweep-crossover_probes-header.csv"
cp "$work/sweep/accuracy.csv" "$out/sweep-accuracy.csv"
cp "$work/sweep/conditioning.csv" "$out/sweep-conditioning.csv"
for f in samples.csv peer_checks.csv; do [ -e "$work/sweep/$f" ] && head -1 "$work/sweep/$f" > "$out/sweep-$f-header"; done
ls "$work/sweep" > "$out/sweep-files.txt"

# the crossover command on its own (the sweep's searches share its code,
# crossover_set.c): its rows with the search's outcome masked, its files.
# Pinned by 83f36c5's rbdiff (9aaa777's golden set had no such case).
"$rbdiff" crossover fdsva-aza fdsva-dmm --bf 1 --range 2:6 --batch-ms 0.2 --warmup-ms 0 --counters no \
    --out "$work/xo" >/dev/null 2>&1
mask "$work/xo/crossover.csv" N_cross bracket_lo bracket_hi status probes repetitions confidence \
    > "$out/crossover-crossover.csv"
head -1 "$work/xo/crossover_probes.csv" > "$out/crossover-probes-header.csv"
ls "$work/xo" > "$out/crossover-files.txt"

if [ -n "$expected" ]; then
    diff -r "$expected" "$out" && echo "golden: the same as $expected"
fi
