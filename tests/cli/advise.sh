#!/usr/bin/env bash
# rbdiff advise (README.md, first screen): on a user's URDF loaded with the
# model options nonphysical and freeflyer, it times every ID and FD method
# (and the peers that load) in paired rounds, scores them against the MPFR
# reference and names the fastest of each kind within --tol, in seconds and
# writing nothing.  The choice must be within tol and must be one of the
# table's rows; a method beyond tol is marked and never chosen; the options
# are needed (without nonphysical the model is refused with 2); with the
# peers scripts/test built, the choice carries its ratio to each.
# Usage: advise.sh RBDIFF SOURCE_DIR TMPDIR
set -u
RBDIFF=$1
SRC=$2
TMP=$3
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
arm="$SRC/tests/catalog/inputs/nonphysical_arm.urdf"
cd "$TMP" || exit 1

start=$(date +%s)
"$RBDIFF" advise --model "urdf:$arm,nonphysical,freeflyer" --cache "$TMP/cache" >out 2>err
st=$?
took=$(( $(date +%s) - start ))
cat out
[ $st -eq 0 ] || fail "advise: status $st ($(cat err))"
[ "$took" -le 120 ] || fail "advise took $took s (its default run is meant to take seconds)"
grep -qF "urdf:$arm,nonphysical,freeflyer  (nq = 10, nv = 9)" out || fail "no model line with nq 10, nv 9 (free-flyer + 3 joints)"
grep -q "not a physical body, loaded as given (model option 'nonphysical')" err || fail "the nonphysical notice is not shown"
for m in idsva fdsva pin26 fd-fd; do grep -q "^$m " out || fail "no row for $m"; done
for kind in ID FD; do
    line=$(grep "^fastest $kind derivatives within 1e-08: " out)
    [ -n "$line" ] || { fail "no choice for $kind"; continue; }
    name=$(echo "$line" | sed 's/.*: \([^,]*\), .*/\1/')
    err=$(echo "$line" | sed 's/.*error \([^ ]*\)$/\1/')
    awk -v e="$err" 'BEGIN { exit !(e + 0 <= 1e-8) }' || fail "$kind choice $name has error $err > tol"
    grep -q "^$name  *$kind " out || fail "$kind choice $name is not a $kind row of the table"
done
# a tolerance finite differences cannot meet: fd-fd marked, never chosen
"$RBDIFF" advise --model "urdf:$arm,nonphysical,freeflyer" --cache "$TMP/cache" --tol 1e-12 \
    --methods fd-fd,fdsva,idsva,id-fd --peers none >out2 2>err2 || fail "advise --tol 1e-12: $(cat err2)"
grep -q "^fd-fd .*(beyond tol)" out2 || fail "fd-fd not marked beyond tol 1e-12: $(grep '^fd-fd' out2)"
grep -q "^fastest FD derivatives within 1e-12: fdsva," out2 || fail "with tol 1e-12 the FD choice is not fdsva: $(grep fastest out2)"
"$RBDIFF" advise --model "urdf:$arm,nonphysical,freeflyer" --cache "$TMP/cache" --tol 1e-30 \
    --methods fd-fd,idsva --peers none >out3 2>err3 || fail "advise --tol 1e-30: $(cat err3)"
grep -q "^fastest FD derivatives within 1e-30: none" out3 || fail "no method meets 1e-30, yet: $(grep fastest out3)"
# the options are what loads it
"$RBDIFF" advise --model "urdf:$arm,freeflyer" --cache "$TMP/cache" >/dev/null 2>err4
st=$?
[ $st -eq 2 ] || fail "advise on the arm without nonphysical: status $st, want 2"
grep -q "violate the triangle inequality" err4 || fail "the refusal does not say why: $(cat err4)"
# the same through --robots PATH:OPTION:OPTION
"$RBDIFF" advise --robots "$arm:nonphysical:freeflyer" --methods idsva,fdsva --peers none --cache "$TMP/cache" >out5 2>&1 ||
    fail "advise --robots PATH:nonphysical:freeflyer: $(tail -3 out5)"
[ -z "$(ls "$TMP" | grep -v -e '^out' -e '^err' -e '^cache$')" ] || fail "advise wrote files: $(ls "$TMP")"
# the peers scripts/test built: the choice against each
for p in ${RBD_PEERS_EXPECTED:-}; do
    grep -q "^$p\." out || fail "peer $p expected (scripts/peers built it) but not in the table"
    # a peer may refuse the model (MuJoCo refuses the triangle inequality's
    # violators that 'nonphysical' loads): then its first row says so and
    # why, on one line, and the others "the same"
    if grep -q "^$p\.[A-Za-z_]* *not timed: peer $p cannot take .*: " out; then
        grep "^$p\." out | grep -v "not timed: peer $p cannot take" | grep -qv "not timed: the same$" &&
            fail "peer $p both timed and refused"
        [ "$(grep -c "not timed: peer $p cannot take" out)" = 1 ] || fail "peer $p: the reason is not said once"
        grep -q '^Element\|^Object' out && fail "a peer's reason broke the table's lines"
        continue
    fi
    grep -q "/ $p\.[A-Za-z_]* = " out || fail "no ratio of the choice to $p"
done

passed "advise: all checks passed"
