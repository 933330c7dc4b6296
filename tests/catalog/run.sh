#!/usr/bin/env bash
# Runs the bad-input catalog (cases.txt beside this script) against rbdiff:
# each case must exit with its status, print its message on stderr, and
# leave no output behind: @T@/out stays empty, nothing half-written (no
# temporary file, no partial results) appears anywhere under the scratch
# directory.  Usage: run.sh RBDIFF TMPDIR
# The scratch directory is a new one under TMPDIR, TMPDIR/run.PID.XXXXXX
# (mktemp -d), so two runs never share one; it is removed at the end unless
# a case failed, and then by the next run (as is one a kill -9 or ctest's
# timeout left, its mounts too: any whose PID is gone).
# RBD_WRAP (e.g. "valgrind -q --error-exitcode=99 --leak-check=full") runs
# rbdiff under a wrapper; its exit status 99 then fails the case.
# RBD_CATALOG_SKIP: a regex of case ids not to run (counted as skipped).
set -u
RBDIFF=$1
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
WRAP=${RBD_WRAP:-}

unmount_in() { for d in "$1/rop/out" "$1/rop" "$1/ro" "$1/full"; do mountpoint -q "$d" 2>/dev/null && umount "$d"; done; }
mkdir -p "$2" || exit 1
for old in "$2"/run.*; do
    pid=${old#"$2"/run.}
    pid=${pid%%.*}
    [ -d "$old" ] && ! kill -0 "$pid" 2>/dev/null || continue
    unmount_in "$old"
    chmod -R u+w "$old" 2>/dev/null
    rm -rf "$old"
done
TMP=$(mktemp -d "$2/run.$$.XXXXXX") || { echo "cannot make a scratch directory under $2"; exit 1; }
holder=""
keep=1
cleanup() {
    if [ -n "$holder" ]; then kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""; fi
    unmount_in "$TMP"
    chmod -R u+w "$TMP" 2>/dev/null
    if [ "$keep" = 0 ]; then rm -rf "$TMP"; else echo "catalog: scratch kept in $TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$TMP/out"

# ---- fixtures
touch "$TMP/plainfile"
mkdir -p "$TMP/ro" "$TMP/full"
have_full=0
if [ "$(id -u)" = 0 ]; then
    # root writes through permission bits: a read-only mount is the unwritable directory
    mount -t tmpfs -o size=64k,ro tmpfs "$TMP/ro" 2>/dev/null || true
    if mount -t tmpfs -o size=64k tmpfs "$TMP/full" 2>/dev/null; then
        dd if=/dev/zero of="$TMP/full/filler" bs=4k 2>/dev/null || true    # fills it: ENOSPC
        have_full=1
    fi
else
    chmod 555 "$TMP/ro"
fi
if ! touch "$TMP/ro/probe" 2>/dev/null; then :; else
    rm -f "$TMP/ro/probe"; echo "note: cannot make a read-only directory here"; fi
# @T@/rop/out: an empty writable directory whose parent is read-only (as a
# directory someone made for you in a place you cannot write); root needs
# two bind mounts for it, the parent's read-only
mkdir -p "$TMP/rop/out"
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$TMP/rop-src/out"
    { mount --bind "$TMP/rop-src" "$TMP/rop" && mount -o remount,bind,ro "$TMP/rop" &&
      mount --bind "$TMP/rop-src/out" "$TMP/rop/out"; } 2>/dev/null || true
else
    chmod 555 "$TMP/rop"
fi
if touch "$TMP/rop/probe" 2>/dev/null || ! touch "$TMP/rop/out/probe" 2>/dev/null; then
    echo "note: cannot make a writable directory under a read-only one here"; fi
rm -f "$TMP/rop/probe" "$TMP/rop/out/probe" 2>/dev/null
python3 - "$TMP/big.state" <<'PY'
import sys
n = 60000
with open(sys.argv[1], "w") as f:
    for name in ("q", "v", "a"):
        f.write(name + " " + " ".join(["0"] * n) + "\n")
PY
# a small results set (@T@/res) and the same from "another build" (@T@/res-other)
"$RBDIFF" sweep --N 1 --methods rnea --base no --batches 1 --batch-ms 0.1 --warmup-ms 0 --counters no \
    --out "$TMP/res" >/dev/null 2>"$TMP/stderr" || { echo "cannot make the fixture $TMP/res:"; cat "$TMP/stderr"; exit 1; }
cp -r "$TMP/res" "$TMP/res-other"
sed -i 's/"build_id": "[^"]*"/"build_id": "rbdiff 0 other gcc -O0"/' "$TMP/res-other/meta.json"
# a results directory whose timings.csv is malformed (median_ns 'fast'), and
# one that shares no row with @T@/res
mkdir -p "$TMP/res-bad" "$TMP/res-none"
cp "$TMP/res/meta.json" "$TMP/res-bad/"
awk -F'"' 'NR == 1 { print; next } { n = split($3, f, ","); f[5] = "fast"; s = f[1]
    for (i = 2; i <= n; i++) s = s "," f[i]; print $1 "\"" $2 "\"" s }' "$TMP/res/timings.csv" >"$TMP/res-bad/timings.csv"
sed 's/^rnea,/rnea-ground,/' "$TMP/res/timings.csv" >"$TMP/res-none/timings.csv"
# a results directory with a valid timings.csv and a malformed accuracy.csv
mkdir -p "$TMP/res-badacc"
cp "$TMP/res/timings.csv" "$TMP/res/meta.json" "$TMP/res-badacc/"
printf 'method,output,model,bf,N,nv,states,rms_rel,max_abs,normwise,zero_max\nidsva,tau,autotree:N=1,1,1,1,1,tiny,0,0,\n' \
    >"$TMP/res-badacc/accuracy.csv"
# garbage that reads as numbers (issue 30, class 5): a negative median, a
# timings.csv that is a directory, a claims file that is a directory
mkdir -p "$TMP/res-neg" "$TMP/res-dirtab/timings.csv" "$TMP/claims-dir"
cp "$TMP/res/meta.json" "$TMP/res-neg/"
cp "$TMP/res/meta.json" "$TMP/res-dirtab/"
awk -F'"' 'NR == 1 { print; next } { n = split($3, f, ","); f[5] = "-" f[5]; s = f[1]
    for (i = 2; i <= n; i++) s = s "," f[i]; print $1 "\"" $2 "\"" s }' "$TMP/res/timings.csv" >"$TMP/res-neg/timings.csv"
# a set in use (@T@/res-busy: its lock held by another process, as a
# running sweep holds it; store/lock.h) and one whose meta.json is garbage
cp -r "$TMP/res" "$TMP/res-busy"
cp -r "$TMP/res" "$TMP/res-garbage"
echo 'not json' >"$TMP/res-garbage/meta.json"
# The holder is a subshell (its pid in the lock file is alive while it
# holds the lock) that takes the lock waiting (flock -w: the probe below
# holds it for a moment while it is free, and a holder that gave up then
# would leave no lock) and then lives as long as this script, so not even a
# kill -9 of the catalog leaves it behind; cleanup kills it by its pid.  Its
# output is kept away from ctest's pipe.
lock="$TMP/res-busy/.rbdiff.lock"
catalog=$$
( exec 9>>"$lock" && flock -w 60 9 || exit 1
  while kill -0 "$catalog" 2>/dev/null; do sleep 1 9>&-; done ) </dev/null >/dev/null 2>&1 &
holder=$!
# held means another open of the file cannot take it; at most 60 s (a loaded machine)
held=0
for _ in $(seq 600); do
    if ! flock -n "$lock" true; then held=1; break; fi
    kill -0 "$holder" 2>/dev/null || break
    sleep 0.1
done
if [ "$held" = 0 ]; then
    echo "cannot make the fixture $TMP/res-busy: the lock holder (pid $holder) $(kill -0 "$holder" 2>/dev/null &&
          echo 'did not take the lock in 60 s' || echo 'ended without taking the lock')"
    exit 1
fi
printf 'pid %s on host %s: the catalog holder, since now\n' "$holder" "$(hostname)" >"$lock"
# a set an audit wrote (@T@/res-acc: `accuracy`, 1 state; its reference cache
# @T@/cache), and a directory that holds a file of the user's (@T@/notes)
"$RBDIFF" accuracy --N 2 --methods idsva --base no --states 1 --cache "$TMP/cache" --out "$TMP/res-acc" \
    >/dev/null 2>"$TMP/stderr" || { echo "cannot make the fixture $TMP/res-acc:"; cat "$TMP/stderr"; exit 1; }
# sets written before a setting was recorded: @T@/res-old without
# "batches", @T@/res-acc-old without "accuracy_settings" (resume.c)
cp -r "$TMP/res" "$TMP/res-old"
cp -r "$TMP/res-acc" "$TMP/res-acc-old"
drop_key() { python3 -c 'import json, sys; p = sys.argv[1]; m = json.load(open(p)); del m[sys.argv[2]]
json.dump(m, open(p, "w"), indent=2)' "$1/meta.json" "$2"; }
drop_key "$TMP/res-old" batches
drop_key "$TMP/res-acc-old" accuracy_settings
# a URDF under a directory whose name holds ',' (@T@/a,b/ur5.urdf) and one
# under a name that is not UTF-8 (@T@/lat\xe9/ur5.urdf, Latin-1)
mkdir -p "$TMP/a,b" "$TMP/lat"$'\xe9'
cp "$SRC/tests/models/ur5.urdf" "$TMP/a,b/"
cp "$SRC/tests/models/ur5.urdf" "$TMP/lat"$'\xe9'/
mkdir -p "$TMP/notes"
echo "the user's notes" >"$TMP/notes/notes.txt"
# names and file sizes (not times: a probe file created and removed changes a directory's mtime)
snapshot() { (cd "$TMP" && find . \( -path ./big.state -o -path ./stdout -o -path ./stderr \) -prune -o \
                                   -type f -printf '%p %s\n' -o -print | sort); }
before=$(snapshot)

fails=0
n=0
skipped=0
while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    id=$(printf '%s' "$line" | awk -F' [|] ' '{print $1}' | sed 's/ *$//')
    want=$(printf '%s' "$line" | awk -F' [|] ' '{print $2}')
    pat=$(printf '%s' "$line" | awk -F' [|] ' '{print $3}')
    args=$(printf '%s' "$line" | awk -F' [|] ' '{print $4}' | sed 's/ *|$//')
    sub() { printf '%s' "$1" | sed -e "s#@C@#$HERE/inputs#g" -e "s#@D@#$SRC/tests/data/urdf#g" \
                                  -e "s#@M@#$SRC/tests/models#g" -e "s#@T@#$TMP#g"; }
    pat=$(sub "$pat")
    args=$(sub "$args")
    if [ -n "${RBD_CATALOG_SKIP:-}" ] && [[ "$id" =~ $RBD_CATALOG_SKIP ]]; then
        skipped=$((skipped + 1))
        continue
    fi
    if [ "$have_full" = 0 ] && [[ "$args" == *"$TMP/full"* ]]; then
        echo "SKIP $id: cannot mount a small tmpfs here (needs root); the full-disk case is not run"
        skipped=$((skipped + 1))
        continue
    fi
    n=$((n + 1))
    # shellcheck disable=SC2086
    eval "$WRAP \"\$RBDIFF\" $args" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
    got=$?
    problem=""
    [ "$got" = "$want" ] || problem="exit status $got, want $want"
    # "stdout:TEXT" looks for TEXT on stdout (a case that succeeds); a
    # refusal prints nothing there (no partial table)
    if [ "${pat#stdout:}" != "$pat" ]; then
        grep -qF -- "${pat#stdout:}" "$TMP/stdout" || problem="${problem:+$problem; }stdout lacks: ${pat#stdout:}"
    elif [ -n "$pat" ] && ! grep -qF -- "$pat" "$TMP/stderr"; then
        problem="${problem:+$problem; }stderr lacks: $pat"
    fi
    if [ "$want" != 0 ] && [ -s "$TMP/stdout" ]; then
        problem="${problem:+$problem; }printed on stdout before refusing: $(head -c 200 "$TMP/stdout" | tr '\n' ' ')"
    fi
    # nothing left behind: the scratch tree as it was (stdout/stderr aside)
    now=$(snapshot)
    if [ "$now" != "$before" ]; then
        problem="${problem:+$problem; }left files behind: $(diff <(printf '%s\n' "$before") <(printf '%s\n' "$now") | grep '^[<>]' | tr '\n' ' ')"
        rm -rf "$TMP/out"/* "$TMP/out"/.[!.]* 2>/dev/null
    fi
    if [ -n "$problem" ]; then
        echo "FAIL $id: $problem"
        echo "  rbdiff $args"
        sed 's/^/  | /' "$TMP/stderr" | head -20
        fails=$((fails + 1))
    fi
done <"$HERE/cases.txt"

# the holder held the lock to the last case (a lost lock would have failed
# the set-in-use cases at once, and every case after them)
if flock -n "$lock" true; then echo "FAIL: the lock holder no longer holds $lock"; fails=$((fails + 1)); fi
echo "catalog: $n cases run, $skipped skipped, $fails failed"
[ "$fails" -eq 0 ] && keep=0
[ "$fails" -eq 0 ]
