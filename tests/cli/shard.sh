#!/usr/bin/env bash
# sweep --shard K/N and merge (issue 8): shards own disjoint cells that
# together are the unsharded sweep's (timings and crossovers); merging the
# shards gives the same cells as the unsharded run, one meta.json listing
# every shard, regenerated tables.md and benchmarks.json; merging into an
# existing set or across builds is refused (unless --force).
# Usage: shard.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
args=(--methods idsva,rneacr,rnea --base no --N 2,3,4 --bf 1,2 --batches 3 --batch-ms 0.3 --warmup-ms 0.5
      --counters no --crossover "idsva rneacr" --crossover-range 2:4)
# cells: method x model (sorted), and the crossover keys
cells() { tail -n +2 "$1/timings.csv" | awk -F'"' '{split($1, a, ","); print a[1] "|" $2}' | sort; }
xcells() { tail -n +2 "$1/crossover.csv" | cut -d, -f1-3 | sort; }

"$RBDIFF" sweep "${args[@]}" --out "$TMP/all" >/dev/null 2>"$TMP/err" || { fail "unsharded sweep"; cat "$TMP/err"; }
for k in 1 2 3; do
    "$RBDIFF" sweep "${args[@]}" --shard $k/3 --out "$TMP/s$k" >/dev/null 2>"$TMP/err" || { fail "shard $k/3"; cat "$TMP/err"; }
done
# stderr is a file here: progress comes as log lines, the last one at 18/18
grep -q '^progress: 18/18 cells (method x model), [0-9]* s elapsed$' "$TMP/err" ||
    { fail "no final progress line for a non-terminal stderr"; cat "$TMP/err"; }
[ "$(cells "$TMP/all" | wc -l)" -eq 18 ] || fail "the unsharded sweep has $(cells "$TMP/all" | wc -l) cells, expected 18"
# every cell exactly once over the shards
cat <(cells "$TMP/s1") <(cells "$TMP/s2") <(cells "$TMP/s3") | sort >"$TMP/union"
[ -z "$(uniq -d "$TMP/union")" ] || fail "a cell is in two shards: $(uniq -d "$TMP/union" | head -1)"
cmp -s "$TMP/union" <(cells "$TMP/all") || fail "the shards' cells differ from the unsharded sweep's"
for k in 1 2 3; do [ "$(cells "$TMP/s$k" | wc -l)" -eq 6 ] || fail "shard $k has $(cells "$TMP/s$k" | wc -l) cells, expected 6"; done
cat <(xcells "$TMP/s1") <(xcells "$TMP/s2") <(xcells "$TMP/s3") | sort >"$TMP/xunion"
cmp -s "$TMP/xunion" <(xcells "$TMP/all") || fail "the shards' crossover searches differ from the unsharded ones"
grep -q '"shard": "2/3"' "$TMP/s2/meta.json" || fail "meta.json of shard 2 does not say shard 2/3"

"$RBDIFF" merge "$TMP/merged" "$TMP/s1" "$TMP/s2" "$TMP/s3" >/dev/null 2>"$TMP/err" || { fail "merge"; cat "$TMP/err"; }
cmp -s <(cells "$TMP/merged") <(cells "$TMP/all") || fail "merged cells differ from the unsharded set"
cmp -s <(xcells "$TMP/merged") <(xcells "$TMP/all") || fail "merged crossovers differ from the unsharded set"
[ "$(tail -n +2 "$TMP/merged/samples.csv" | wc -l)" -eq $((18 * 3)) ] || fail "merged samples.csv lacks batches"
# the crossover searches' probes come along
cmp -s <(tail -n +2 "$TMP/merged/crossover_probes.csv" | cut -d, -f1-4 | sort) \
       <(cat "$TMP"/s[123]/crossover_probes.csv | grep -v '^A,' | cut -d, -f1-4 | sort) ||
    fail "merged crossover_probes.csv differs from the shards'"
[ -s "$TMP/all/crossover_probes.csv" ] || fail "the sweep wrote no crossover_probes.csv"
[ "$(grep -c '"dir"' "$TMP/merged/meta.json")" -eq 3 ] || fail "merged meta.json does not list 3 shards"
for f in tables.md benchmarks.json; do [ -s "$TMP/merged/$f" ] || fail "merged $f missing"; done
# the merged set is a whole results set: compare reads it, every cell in common
# (its verdict is about timings of two runs on a loaded machine: status 1, a
# "regression", is no failure here; 2 and above are)
"$RBDIFF" compare "$TMP/all" "$TMP/merged" --threshold 1000 >"$TMP/out" 2>&1
st=$?
[ $st -le 1 ] || { fail "compare all merged: status $st"; cat "$TMP/out"; }
grep -q "^18 compared" "$TMP/out" || { fail "compare did not match 18 cells"; cat "$TMP/out"; }
# a shard merged twice: duplicates dropped
"$RBDIFF" merge "$TMP/dup" "$TMP/s1" "$TMP/s1" "$TMP/s2" >/dev/null 2>&1 || fail "merge with a repeated shard"
[ "$(cells "$TMP/dup" | wc -l)" -eq 12 ] || fail "duplicate rows not dropped"
# refusals
"$RBDIFF" merge "$TMP/merged" "$TMP/s1" >/dev/null 2>"$TMP/err" && fail "merge into an existing set succeeded"
grep -q "already exists" "$TMP/err" || fail "no message for an existing set: $(cat "$TMP/err")"
cp -r "$TMP/s3" "$TMP/other"
sed -i 's/"build_id": "[^"]*"/"build_id": "rbdiff 0 other gcc -O0"/' "$TMP/other/meta.json"
"$RBDIFF" merge "$TMP/mixed" "$TMP/s1" "$TMP/other" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "merge across builds was not refused (want status 2)"
grep -q "use --force" "$TMP/err" || fail "no --force hint: $(cat "$TMP/err")"
"$RBDIFF" merge --force "$TMP/mixed" "$TMP/s1" "$TMP/other" >/dev/null 2>&1 || fail "merge --force failed"
"$RBDIFF" sweep "${args[@]}" --shard 4/3 --out "$TMP/bad" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "--shard 4/3 was not a usage error"
passed "shard checks passed"
