#!/usr/bin/env bash
# The run history (scripts/history.py, issue 31) on a tiny real pair run:
# two builds (the program and a copy) standing for two commits, 2 methods x
# 1 model, 4 rounds.  `add` writes one file with a row per cell and build
# (the reference's own rows at ratio 1), read back by column name; `trend`
# draws the figure and trend.md (which tables the figure's points); bad
# input is refused with 2 and nothing written; a run is written once;
# history_commits.py picks its line of commits in a generated repository.
# Usage: history.sh RBDIFF SOURCE_DIR TMPDIR
set -u
RBDIFF=$1 SRC=$2 TMP=$3
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
H="python3 $SRC/scripts/history.py"
cp "$RBDIFF" "$TMP/copy"
"$RBDIFF" pair --build old="$TMP/copy" --build new="$RBDIFF" --reference new --methods idsva,rnea --N 5 --rounds 4 \
    --instances 1 --batch-ms 1 --warmup-ms 1 --counters no --out "$TMP/pair" >/dev/null 2>&1
[ -s "$TMP/pair/pair.csv" ] || fail "rbdiff pair wrote no pair.csv"
printf 'label\tcommit\tcommit_date\tbuild\n' >"$TMP/builds.tsv"
printf 'old\t%s\t2026-01-01T00:00:00+00:00\tgcc-test\n' 1111111111111111111111111111111111111111 >>"$TMP/builds.tsv"
printf 'new\t%s\t2026-01-02T00:00:00+00:00\tgcc-test\n' 2222222222222222222222222222222222222222 >>"$TMP/builds.tsv"
$H add --pair "$TMP/pair" --builds "$TMP/builds.tsv" --kind test --history "$TMP/hist" >/dev/null || fail "add failed"
python3 - "$TMP/hist" <<'PY' || fails=$((fails + 1))
import csv, glob, sys
files = glob.glob(sys.argv[1] + "/runs/*.csv")
rows = [r for f in files for r in csv.DictReader(open(f))]
ok = len(files) == 1 and len(rows) == 4
ok = ok and {r["commit"][:4] for r in rows} == {"1111", "2222"}
ok = ok and all(r["reference_commit"].startswith("2222") for r in rows)
ok = ok and all(r["verdict"] == "reference" and r["ratio_median"] == "1" for r in rows if r["commit"].startswith("2222"))
ok = ok and all(float(r["ratio_median"]) > 0 and r["cpu"] and r["kind"] == "test" for r in rows)
print("ok: history add, %d rows" % len(rows) if ok else "FAIL: history rows: %r" % rows)
sys.exit(0 if ok else 1)
PY
$H trend --history "$TMP/hist" --out "$TMP/trend" >/dev/null 2>"$TMP/trend.err" || { fail "trend failed"; cat "$TMP/trend.err"; }
for f in trend.svg trend.png trend.md; do [ -s "$TMP/trend/$f" ] || fail "trend wrote no $f"; done
grep -q "Trend over 2 commits" "$TMP/trend/trend.md" || fail "trend.md does not count 2 commits"
# trend.md tables the numbers the figure draws: every point of data/*.dat in its row
python3 - "$TMP/trend" <<'PY' || fails=$((fails + 1))
import glob, sys
md = open(sys.argv[1] + "/trend.md").read().splitlines()
rows = [l for l in md if l.startswith("| 1111111111") or l.startswith("| 2222222222")]
bad = []
for d in glob.glob(sys.argv[1] + "/data/*.dat"):
    for line in open(d):
        if line.startswith("#"):
            continue
        i, med, q1, q3, step = line.split()
        cell = "%.3f [%.3f, %.3f]" % (float(med), float(q1), float(q3))
        if not any(cell in r for r in rows):
            bad.append((d, line.strip()))
ok = len(rows) == 2 and not bad and glob.glob(sys.argv[1] + "/data/*.dat")
print("ok: trend.md holds the figure's points" if ok else "FAIL: trend.md rows %r, points not in it %r" % (rows, bad))
sys.exit(0 if ok else 1)
PY
# history_commits.py: the longest line of descent of worker commits whose
# library changes at every step, on a generated repository: c1 has no
# worker, c4 changes only a .md (same library as c2), side branch c3 merged
# at c6; so the line has 3 commits, starts at c6, and never holds c1
R=$TMP/repo
mkdir -p "$R" && cd "$R" && git init -q && git config user.email t@t && git config user.name t &&
    mkdir -p methods harness/commands || fail "git init"
cm() { git add -A && git commit -qm "$1" && git rev-parse HEAD; }
echo 1 >methods/a.c; c1=$(cm c1)
: >harness/commands/cmd_worker.c; echo 2 >methods/a.c; c2=$(cm c2)
git checkout -qb side; echo 3 >methods/a.c; c3=$(cm c3)
git checkout -q -; echo x >methods/README.md; c4=$(cm c4)
echo 5 >methods/b.c; c5=$(cm c5)
git merge -q --no-edit side >/dev/null 2>&1; c6=$(git rev-parse HEAD)
line=$(python3 "$SRC/scripts/history_commits.py" 2>&1)
n=$(wc -l <<<"$line")
{ [ "$n" -eq 3 ] && [ "$(head -1 <<<"$line")" = "$c6" ] && ! grep -q "$c1" <<<"$line"; } ||
    fail "history_commits: want 3 commits from $c6 without $c1, got: $line"
prev=""
for c in $line; do
    if [ -n "$prev" ]; then
        git merge-base --is-ancestor "$c" "$prev" || fail "history_commits: $c is not an ancestor of $prev"
        [ "$(git ls-tree -r "$c" methods | grep -v '\.md$')" != "$(git ls-tree -r "$prev" methods | grep -v '\.md$')" ] ||
            fail "history_commits: $c and $prev have the same library"
    fi
    prev=$c
done
python3 "$SRC/scripts/history_commits.py" --rev "$c1" >/dev/null 2>"$TMP/e0"
st=$?; [ $st -eq 2 ] && grep -q "has no 'rbdiff worker'" "$TMP/e0" || fail "history_commits from a commit without the worker: exit $st"
cd "$TMP" || exit 1
# refusals: status 2, nothing written
n0=$(ls "$TMP/hist/runs" | wc -l)
printf 'label\tcommit\tcommit_date\tbuild\nold\t1\t2026\tx\n' >"$TMP/partial.tsv"
$H add --pair "$TMP/pair" --builds "$TMP/partial.tsv" --kind test --history "$TMP/hist" >/dev/null 2>"$TMP/e1"
st=$?; [ $st -eq 2 ] && grep -q "build label new is not in" "$TMP/e1" || fail "a builds file without a label: exit $st"
printf 'name\tcommit\n' >"$TMP/bad.tsv"
$H add --pair "$TMP/pair" --builds "$TMP/bad.tsv" --kind test --history "$TMP/hist" >/dev/null 2>"$TMP/e2"
st=$?; [ $st -eq 2 ] && grep -q "bad.tsv: line 1: no column label" "$TMP/e2" || fail "a builds file without columns: exit $st"
$H add-sweep --results "$TMP/nonexistent" --kind run --history "$TMP/hist" >/dev/null 2>"$TMP/e3"
st=$?; [ $st -eq 2 ] || fail "add-sweep of a missing directory: exit $st"
[ "$(ls "$TMP/hist/runs" | wc -l)" -eq "$n0" ] || fail "a refused add wrote a file"
passed "all history checks passed"
