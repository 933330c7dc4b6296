#!/usr/bin/env bash
# The accuracy audit from the command line: `sweep` with accuracy_* keys
# writes accuracy.csv (idsva within 1e-12 of the MPFR reference), the
# summary in tables.md and accuracy.json; a rerun adds no row; `accuracy`
# on robots; bad input is refused before anything is written.
# Usage: accuracy.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
quick="--batches 1 --batch-ms 0.5 --warmup-ms 0 --counters no --pool 2"

# shellcheck disable=SC2086
"$RBDIFF" sweep --N 2 --methods idsva,rnea $quick --accuracy-N 3,7 --accuracy-states 2 --cache "$TMP/cache" \
    --out "$TMP/s" >"$TMP/out" 2>"$TMP/err" || { fail "sweep with the audit"; cat "$TMP/err"; }
csv=$TMP/s/accuracy.csv
[ "$(head -1 "$csv")" = "method,output,model,bf,N,nv,states,rms_rel,max_abs,normwise,zero_max" ] || fail "accuracy.csv header"
# idsva: tau, dtau_dq, dtau_dv at N = 3, 7; rnea: tau at N = 3, 7
[ "$(grep -c '^idsva,' "$csv")" = 6 ] || fail "want 6 idsva rows"; 
[ "$(grep -c '^rnea,tau,' "$csv")" = 2 ] || fail "want 2 rnea rows"
awk -F, 'NR > 1 && $1 == "idsva" { n++; if (!($(NF - 3) < 1e-12) || $(NF - 4) != 2) bad = 1 } END { exit bad || n != 6 }' \
    "$csv" || { fail "idsva rms_rel >= 1e-12 or states != 2"; cat "$csv"; }
grep -q '^# Accuracy' "$TMP/s/tables.md" || fail "no accuracy summary in tables.md"
grep -q '| idsva | dtau_dq |' "$TMP/s/tables.md" || fail "no idsva row in the summary"
grep -q '"rows"' "$TMP/s/accuracy.json" || fail "accuracy.json has no rows"
# cond(M) per model: conditioning.csv, its rows above the normwise table, in accuracy.json
cond=$TMP/s/conditioning.csv
[ "$(head -1 "$cond")" = "model,bf,N,nv,states,cond_M,cond_M_min" ] || fail "conditioning.csv header"
[ "$(grep -c '^"autotree:' "$cond")" = 2 ] || { fail "want 2 conditioning rows"; cat "$cond"; }
awk -F, 'NR > 1 { if (!($(NF - 1) >= $NF && $NF >= 1)) bad = 1 } END { exit bad }' "$cond" || fail "cond_M < cond_M_min or < 1"
grep -q '^| cond(M) | max over states |' "$TMP/s/tables.md" || fail "no cond(M) row in tables.md"
grep -q '"cond_M"' "$TMP/s/accuracy.json" || fail "accuracy.json has no cond_M"
[ "$(ls "$TMP/cache" | grep -c '^rbdref-')" = 4 ] || fail "want 4 cached references (2 models x 2 states)"
rows=$(wc -l <"$csv")
# shellcheck disable=SC2086
"$RBDIFF" sweep --N 2 --methods idsva,rnea $quick --accuracy-N 3,7 --accuracy-states 2 --cache "$TMP/cache" \
    --out "$TMP/s" >"$TMP/out" 2>"$TMP/err" || { fail "rerun"; cat "$TMP/err"; }
[ "$(wc -l <"$csv")" = "$rows" ] || fail "the rerun added rows"

"$RBDIFF" accuracy --robots ur5,hyq:freeflyer --methods idsva --states 1 --cache "$TMP/cache" --out "$TMP/r" \
    >"$TMP/out" 2>"$TMP/err" || { fail "accuracy on robots"; cat "$TMP/err"; }
grep -q '| idsva | dtau_dq | .* | .* |' "$TMP/out" || { fail "no robot summary on stdout"; cat "$TMP/out"; }
grep -q '"urdf:tests/models/hyq.urdf,freeflyer"' "$TMP/r/accuracy.csv" || fail "robot spec not as given"

expect() {
    local want=$1 pat=$2 dir=$3
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" != "$want" ] || ! grep -qF -- "$pat" "$TMP/err"; then
        fail "$* (want $want and '$pat')"; echo "  got $got:"; sed 's/^/    /' "$TMP/err"
    fi
    [ -e "$dir" ] && fail "$dir exists after a refused command"
}
expect 2 "nothing to audit" "$TMP/b1" "$RBDIFF" accuracy --out "$TMP/b1"
expect 2 "rbdiff accuracy: --methods: methods: unknown method 'nosuch' (valid: " "$TMP/b2" \
    "$RBDIFF" accuracy --N 3 --methods nosuch --out "$TMP/b2"
expect 2 "robots: 'ur5:floating': unknown model option 'floating' after the robot name" "$TMP/b3" \
    "$RBDIFF" accuracy --robots ur5:floating --out "$TMP/b3"
expect 2 "tests/models/nosuchbot.urdf" "$TMP/b4" "$RBDIFF" accuracy --robots nosuchbot --out "$TMP/b4"
expect 2 "--accuracy-N: accuracy_N: 0 is out of range" "$TMP/b5" "$RBDIFF" sweep --accuracy-N 0 --out "$TMP/b5"

# second-order methods: scored against the second-order reference, tensor by tensor
"$RBDIFF" accuracy --N 4 --bf 2 --methods idsva-so,fdsva-so,fd2-fd --base no --states 1 --cache "$TMP/cache" \
    -o "$TMP/so" >"$TMP/out" 2>"$TMP/err" || { fail "accuracy of second-order methods"; cat "$TMP/err"; }
so=$TMP/so/accuracy.csv
[ "$(grep -c '^idsva-so,' "$so")" = 5 ] || { fail "want 5 idsva-so rows (tau and 4 tensors)"; cat "$so"; }
[ "$(grep -c '^fdsva-so,d2qdd_dqdtau,' "$so")" = 1 ] || fail "no fdsva-so d2qdd_dqdtau row"
awk -F, 'NR > 1 && ($1 == "idsva-so" || $1 == "fdsva-so") { n++; if (!($(NF - 3) < 1e-11)) bad = 1 } END { exit bad || n != 10 }' \
    "$so" || { fail "idsva-so/fdsva-so rms_rel >= 1e-11"; cat "$so"; }
awk -F, 'NR > 1 && $1 == "fd2-fd" && $2 != "qdd" && $2 != "d2qdd_dv2" { if ($(NF - 1) < 1e-13 || $(NF - 1) > 1e-6) bad = 1 } END { exit bad }' \
    "$so" || { fail "fd2-fd normwise not in (1e-13, 1e-6): the audit would not see a difference method's error"; cat "$so"; }
# without -o (issue 29): results/<date>-accuracy under the working
# directory, not the source tree's, and the command says where it wrote
mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$RBDIFF" accuracy --N 2 --methods idsva --base no --states 1 --cache "$TMP/cache") >/dev/null 2>"$TMP/err" ||
    fail "accuracy without -o: $(cat "$TMP/err")"
d="results/$(date +%Y-%m-%d)-accuracy"
[ -s "$TMP/cwd/$d/accuracy.csv" ] || fail "accuracy without -o did not write $d/accuracy.csv under the working directory: $(ls -R "$TMP/cwd" | head)"
grep -qF "rows in $d/accuracy.csv" "$TMP/err" || fail "accuracy does not say where it wrote: $(cat "$TMP/err")"
passed "accuracy checks passed"
