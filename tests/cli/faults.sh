#!/usr/bin/env bash
# The results set under faults (issue 30), measured in numbers:
#  1. concurrent writers: W sweeps started at once into one set, R rounds:
#     exactly one proceeds per round, the others are refused with 2 naming
#     the holder (store/lock.h);
#  2. kill -9 at random moments of sweep, merge and pack (KILLS in all,
#     round robin): after each, every set involved still reads (`compare`
#     of it against itself), no finished row is lost (a sweep's rows only
#     grow; pack and merge leave their inputs' rows as they were), the next
#     writer takes over the dead one's lock and removes its .tmp files;
#  2b. SIGINT at random moments of merge: 130 and nothing of it in OUT, or
#     0 and the whole set (staging.h);
#  3. resume with each row-shaping setting changed: refused with 2, or
#     (settings in the rows' key: skew, taper) written as rows of their own;
#     an audit's set resumed with other states or seed: refused with 2; a
#     set whose meta.json lacks a setting (written before it was recorded)
#     refused when it holds rows that setting shapes, adopted otherwise.
# Usage: faults.sh RBDIFF TMPDIR [KILLS]   (KILLS default 6; the issue's
# note gives a run with 50)
set -u
R=$1
T=$2
KILLS=${3:-6}
rm -rf "$T"
mkdir -p "$T"
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# grep -c prints 0 and exits 1 on a header-only file (a sweep killed after
# its header): one count, never "0" twice
rows() {
    if [ -f "$1/timings.csv" ]; then tail -n +2 "$1/timings.csv" | grep -c '' || true
    else echo 0; fi
}
samples() {
    if [ -f "$1/samples.csv" ]; then tail -n +2 "$1/samples.csv" | grep -c ''
    elif [ -f "$1/samples.csv.gz" ]; then gzip -dc "$1/samples.csv.gz" | tail -n +2 | grep -c ''
    else echo 0; fi
}
readable() { "$R" compare "$1" "$1" --threshold 1000 >/dev/null 2>"$T/compare.err"; }
F="--methods rnea,idsva --base no --batches 5 --warmup-ms 0 --counters no"

# ---- 1. concurrent writers
W=4
ROUNDS=3
proceeded=0
refused=0
other=0
for r in $(seq $ROUNDS); do
    pids=()
    for w in $(seq $W); do
        "$R" sweep --N 1:24 --batch-ms 2 $F --out "$T/conc$r" >/dev/null 2>"$T/conc$r.$w.err" &
        pids+=($!)
    done
    ok=0
    for p in "${pids[@]}"; do
        wait "$p"
        case $? in 0) ok=$((ok + 1)) ;; 2) refused=$((refused + 1)) ;; *) other=$((other + 1)) ;; esac
    done
    proceeded=$((proceeded + ok))
    [ "$ok" = 1 ] || bad "round $r: $ok of $W concurrent writers proceeded"
    grep -l "is in use by another writer (pid" "$T"/conc$r.*.err | grep -c '' | grep -qx $((W - 1)) ||
        bad "round $r: a refusal does not name the holder"
    readable "$T/conc$r" || bad "round $r: the set does not read: $(cat "$T/compare.err")"
    [ "$(head -1 "$T/conc$r/timings.csv")" = "$(grep -m1 '^method,' "$T/conc$r/timings.csv")" ] &&
        [ "$(grep -c '^method,' "$T/conc$r/timings.csv")" = 1 ] || bad "round $r: timings.csv has a second header"
done
echo "concurrent writers: $ROUNDS rounds of $W: $proceeded proceeded (want $ROUNDS), $refused refused with 2, $other otherwise"

# ---- 2. kill -9 at random moments
"$R" sweep --N 1:30 --batch-ms 1 $F --out "$T/base" >/dev/null 2>&1 || bad "cannot make the base set"
"$R" sweep --N 31:40 --batch-ms 1 $F --out "$T/base2" >/dev/null 2>&1 || bad "cannot make the second set"
# the duration of each operation uninterrupted, in ms: the kills fall within it
ms() { local a b; a=$(date +%s%N); "$@" >/dev/null 2>&1; b=$(date +%s%N); echo $(((b - a) / 1000000 + 1)); }
rm -rf "$T/sw"; d_sweep=$(ms "$R" sweep --N 1:30 --batch-ms 1 $F --out "$T/sw"); rm -rf "$T/sw"
cp -r "$T/base" "$T/pk"; d_pack=$(ms "$R" pack "$T/pk"); rm -rf "$T/pk"
d_merge=$(ms "$R" merge "$T/mg" "$T/base" "$T/base2"); rm -rf "$T/mg"
base_rows=$(rows "$T/base")
base_samples=$(samples "$T/base")
sweep_rows=0
killed=0
unreadable=0
lost=0
leftover=0
takeovers=0
partial=0
for k in $(seq "$KILLS"); do
    op=$(( (k - 1) % 3 ))
    case $op in
        0) dur=$d_sweep; cmd=("$R" sweep --N 1:30 --batch-ms 1 $F --out "$T/sw"); set_=$T/sw ;;
        1) rm -rf "$T/pk"; cp -r "$T/base" "$T/pk"; dur=$d_pack; cmd=("$R" pack "$T/pk"); set_=$T/pk ;;
        2) rm -rf "$T/mg"; dur=$d_merge; cmd=("$R" merge "$T/mg" "$T/base" "$T/base2"); set_=$T/mg ;;
    esac
    "${cmd[@]}" >/dev/null 2>"$T/kill.err" &
    pid=$!
    sleep "$(awk -v d="$dur" -v s="$RANDOM" 'BEGIN { srand(s); printf "%.3f", rand() * d / 1000 }')"
    kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
    wait "$pid" 2>/dev/null
    # a killed merge leaves OUT whole or with nothing of its own (staging.h):
    # some of its files without the rest is a half-written set
    if [ $op = 2 ] && [ -d "$set_" ]; then
        own=$(find "$set_" -mindepth 1 ! -name .rbdiff.lock | grep -c '')
        whole=1
        for f in timings.csv samples.csv meta.json tables.md benchmarks.json; do [ -f "$set_/$f" ] || whole=0; done
        if [ "$own" -gt 0 ] && [ $whole = 0 ]; then
            partial=$((partial + 1))
            bad "kill $k (merge): OUT half-written: $(cd "$set_" && ls -A | tr '\n' ' ')"
        fi
    fi
    # the next writer takes the dead one's lock over, and finishes the job
    if [ -f "$set_/.rbdiff.lock" ]; then
        if [ $op = 0 ]; then
            "$R" sweep --N 1 --batch-ms 1 $F --out "$set_" >/dev/null 2>"$T/take.err"
            grep -q "taking over a stale lock" "$T/take.err" && takeovers=$((takeovers + 1))
        fi
    fi
    case $op in
        0) n=$(rows "$set_")
           [ "$n" -ge "$sweep_rows" ] || { lost=$((lost + 1)); bad "kill $k (sweep): rows $sweep_rows -> $n"; }
           sweep_rows=$n
           if [ "$n" -gt 0 ]; then readable "$set_" || { unreadable=$((unreadable + 1)); bad "kill $k (sweep): $(cat "$T/compare.err")"; }; fi ;;
        1) [ "$(rows "$set_")" = "$base_rows" ] && [ "$(samples "$set_")" = "$base_samples" ] ||
               { lost=$((lost + 1)); bad "kill $k (pack): rows $(rows "$set_")/$(samples "$set_"), want $base_rows/$base_samples"; }
           readable "$set_" || { unreadable=$((unreadable + 1)); bad "kill $k (pack): $(cat "$T/compare.err")"; }
           "$R" pack "$set_" >/dev/null 2>&1 || bad "kill $k (pack): packing again failed" ;;
        2) [ "$(rows "$T/base")" = "$base_rows" ] || { lost=$((lost + 1)); bad "kill $k (merge): an input lost rows"; }
           if [ -f "$set_/timings.csv" ]; then
               readable "$set_" || { unreadable=$((unreadable + 1)); bad "kill $k (merge): $(cat "$T/compare.err")"; }
           fi ;;
    esac
    # a killed writer cannot clean up; the next one (holding the lock) does
    [ $op = 2 ] && "$R" merge "$set_" "$T/base" "$T/base2" >/dev/null 2>&1
    for f in "$set_"/*.tmp* "$T"/.mg.stage-*; do
        [ -e "$f" ] && { leftover=$((leftover + 1)); bad "kill $k: $f left after the next writer"; }
    done
done
echo "kill -9: $KILLS runs (sweep, pack, merge in turn; kill within ${d_sweep}/${d_pack}/${d_merge} ms), $killed killed" \
     "before they ended: $unreadable sets unreadable, $lost with rows lost, $partial merges half-written," \
     "$leftover .tmp files or stagings left after the next writer, $takeovers stale locks taken over"

# ---- 2b. SIGINT at random moments of merge: 130 with nothing of it in OUT
# (no file, no staging beside it), or 0 with the whole set
ints=0
int_stopped=0
int_whole=0
int_bad=0
for k in $(seq $(( (KILLS + 2) / 3 ))); do
    rm -rf "$T/mi"
    "$R" merge "$T/mi" "$T/base" "$T/base2" >/dev/null 2>"$T/int.err" &
    pid=$!
    sleep "$(awk -v d="$d_merge" -v s="$RANDOM" 'BEGIN { srand(s); printf "%.3f", rand() * d / 1000 }')"
    kill -INT "$pid" 2>/dev/null
    wait "$pid"
    st=$?
    ints=$((ints + 1))
    own=0
    [ -d "$T/mi" ] && own=$(find "$T/mi" -mindepth 1 ! -name .rbdiff.lock | grep -c '')
    stages=$(find "$T" -maxdepth 1 -name '.mi.stage-*' | grep -c '')
    if [ $st = 130 ] && [ "$own" = 0 ] && [ "$stages" = 0 ]; then int_stopped=$((int_stopped + 1))
    elif [ $st = 0 ] && [ -f "$T/mi/meta.json" ] && [ -f "$T/mi/timings.csv" ] && [ "$stages" = 0 ]; then
        int_whole=$((int_whole + 1))
    else
        int_bad=$((int_bad + 1))
        bad "SIGINT $k (merge): exit $st, $own files in OUT, $stages stagings: $(head -c 300 "$T/int.err")"
    fi
done
echo "SIGINT: $ints merges interrupted at random moments: $int_stopped stopped with 130 leaving nothing," \
     "$int_whole had finished (whole set), $int_bad otherwise (want 0)"

# ---- 3. resume with each setting changed
B="--N 1:2 --methods rnea --base no --batches 3 --batch-ms 0.2 --warmup-ms 0 --counters no"
"$R" sweep $B --out "$T/res" >/dev/null 2>&1 || bad "cannot make the resume set"
n0=$(rows "$T/res")
refused=0
separated=0
mixed=0
cases=0
for change in "--seed 2" "--pool 8" "--batches 4" "--batch-ms 0.3" "--warmup-ms 1" "--pin 0" "--blas-threads 2" \
              "--counters yes" "--minv lapack" "--fdsva-crossover 50" "--fdsva-dmm rule" "--zeros-preset yes" \
              "--skew 0.1" "--taper 0.9"; do
    cases=$((cases + 1))
    key=${change%% *}
    # the flag replaces the base's own value of the same key
    args=$(printf '%s\n' $B | awk -v k="$key" 'skip { skip = 0; next } $0 == k { skip = 1; next } { printf "%s ", $0 }')
    before=$(rows "$T/res")
    # shellcheck disable=SC2086
    "$R" sweep $args $change --out "$T/res" >/dev/null 2>"$T/resume.err"
    rc=$?
    after=$(rows "$T/res")
    if [ $rc = 2 ] && [ "$after" = "$before" ] && grep -q "other settings" "$T/resume.err"; then refused=$((refused + 1))
    elif [ $rc = 0 ] && [ "$after" -gt "$before" ]; then separated=$((separated + 1))
    else mixed=$((mixed + 1)); bad "resume with $change: exit $rc, rows $before -> $after: $(head -c 300 "$T/resume.err")"; fi
done
echo "resume with a setting changed: $cases settings, $refused refused with 2, $separated written as rows of their own," \
     "$mixed mixed in (want 0)"
[ "$n0" -gt 0 ] || bad "the resume set has no rows"
# the audit's rows likewise (accuracy_settings: states, seed; accuracy_sweep.h)
A="--N 2 --methods idsva --base no --cache $T/cache"
"$R" accuracy $A --states 1 --out "$T/acc" >/dev/null 2>&1 || bad "cannot make the audit set"
acc_rows() { tail -n +2 "$T/acc/accuracy.csv" | grep -c ''; }
a0=$(acc_rows)
acases=0
arefused=0
for run in "accuracy $A --states 2" "accuracy $A --states 1 --seed 2" \
           "sweep --N 1 --methods rnea --base no --batches 1 --batch-ms 0.1 --warmup-ms 0 --counters no --accuracy-N 2 --accuracy-states 3 --cache $T/cache"; do
    acases=$((acases + 1))
    # shellcheck disable=SC2086
    "$R" $run --out "$T/acc" >/dev/null 2>"$T/resume.err"
    rc=$?
    if [ $rc = 2 ] && [ "$(acc_rows)" = "$a0" ] && grep -q "accuracy_settings" "$T/resume.err"; then arefused=$((arefused + 1))
    else bad "audit resumed with $run: exit $rc, rows $a0 -> $(acc_rows): $(head -c 300 "$T/resume.err")"; fi
done
echo "audit resumed with a setting changed: $acases runs, $arefused refused with 2 (want $acases)"
# sets written before a setting was recorded (resume.c): a setting meta.json
# lacks is adopted only where the tables it shapes hold no row
drop_key() { python3 -c 'import json, sys; p = sys.argv[1]; m = json.load(open(p)); del m[sys.argv[2]]
json.dump(m, open(p, "w"), indent=2)' "$1/meta.json" "$2"; }
cp -r "$T/res" "$T/old-res"
drop_key "$T/old-res" batches
cp -r "$T/acc" "$T/old-acc"
drop_key "$T/old-acc" accuracy_settings
"$R" sweep $B --out "$T/fresh" >/dev/null 2>&1 || bad "cannot make a set without an audit"
ocases=0
orefused=0
oadopted=0
for run in "2 sweep $B --out $T/old-res" "2 accuracy $A --states 1 --out $T/old-acc" "0 accuracy $A --states 1 --out $T/fresh"; do
    ocases=$((ocases + 1))
    want=${run%% *}
    # shellcheck disable=SC2086
    "$R" ${run#* } >/dev/null 2>"$T/resume.err"
    rc=$?
    if [ $rc = 2 ] && [ $want = 2 ] && grep -q "records no" "$T/resume.err"; then orefused=$((orefused + 1))
    elif [ $rc = 0 ] && [ $want = 0 ] && grep -q accuracy_settings "$T/fresh/meta.json"; then oadopted=$((oadopted + 1))
    else bad "${run#* }: exit $rc, want $want: $(head -c 300 "$T/resume.err")"; fi
done
echo "sets from before a setting was recorded: $ocases runs, $orefused refused with 2 (rows of unknown settings)," \
     "$oadopted adopted (no row it shapes) (want 2 and 1)"
[ $fail = 0 ] && echo "faults: all passed"
exit $((fail > 0))
