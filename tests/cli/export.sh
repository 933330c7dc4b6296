#!/usr/bin/env bash
# `rbdiff models export`: a model written as URDF and loaded back through
# urdf: is the same model.  autoTree with skew and taper (bf = 1, where the
# URDF joint order is the user order): RNEA's tau identical to the last bit;
# HyQ with a free-flyer (floating joint, fixed joints merged on load, so
# origins go through rpy twice): tau to 1e-12 of its largest entry.  Also:
# bad input leaves no file behind.   Usage: export.sh RBDIFF SRCDIR TMPDIR
set -u
RBDIFF=$1
SRC=$2
TMP=$3
. "$(dirname "$0")/lib.sh"
scratch "$TMP"

spec='autotree:N=5,bf=1,skew=0.7,taper=0.9'
printf 'q 0.1 -0.2 0.3 0.4 -0.5\nv 0.3 0.1 -0.2 0.5 0.7\na 0.2 -0.1 0.4 -0.3 0.6\n' >"$TMP/t.state"
"$RBDIFF" models export "$spec" --out "$TMP/t.urdf" || fail "export $spec"
"$RBDIFF" eval rnea --model "$spec" --state "$TMP/t.state" >"$TMP/t1" || fail "eval on $spec"
"$RBDIFF" eval rnea --model "urdf:$TMP/t.urdf" --state "$TMP/t.state" >"$TMP/t2" || fail "eval on the exported URDF"
grep -q '^tau 5 1$' "$TMP/t1" || fail "no tau block"
cmp -s "$TMP/t1" "$TMP/t2" || { fail "tau differs after the URDF round trip"; paste "$TMP/t1" "$TMP/t2"; }
# stdout and --out write the same bytes
"$RBDIFF" models export "$spec" >"$TMP/t_stdout.urdf" || fail "export to stdout"
cmp -s "$TMP/t.urdf" "$TMP/t_stdout.urdf" || fail "stdout and --out differ"

printf 'q 0.1 0.2 0.3 0 0 0.3826834323650898 0.9238795325112867 0.1 -0.2 0.3 0.4 -0.5 0.6 -0.7 0.8 0.2 -0.3 0.4 0.5\n' >"$TMP/h.state"
printf 'v 0.3 0.1 -0.2 0.5 0.7 0.1 0.2 -0.1 0.4 -0.3 0.6 0.1 0.2 0.3 -0.4 0.5 0.6 -0.7\n' >>"$TMP/h.state"
printf 'a 0.2 -0.1 0.4 -0.3 0.6 0.3 0.1 -0.2 0.5 0.7 0.1 0.2 -0.1 0.4 -0.3 0.6 0.1 0.2\n' >>"$TMP/h.state"
hyq="urdf:$SRC/tests/models/hyq.urdf,freeflyer"
"$RBDIFF" models export "$hyq" --out "$TMP/h.urdf" || fail "export hyq"
grep -q 'type="floating"' "$TMP/h.urdf" || fail "hyq's free-flyer is not a floating joint"
"$RBDIFF" eval rnea --model "$hyq" --state "$TMP/h.state" >"$TMP/h1" || fail "eval hyq"
"$RBDIFF" eval rnea --model "urdf:$TMP/h.urdf" --state "$TMP/h.state" >"$TMP/h2" || fail "eval exported hyq"
paste "$TMP/h1" "$TMP/h2" | awk 'NR == 1 { if ($1 != "tau" || $2 != 18) bad = 1; next }
    { d = $1 - $2; if (d < 0) d = -d; if (d > e) e = d; x = $1 < 0 ? -$1 : $1; if (x > mx) mx = x; n++ }
    END { if (bad || n != 18 || e > 1e-12 * mx) { printf "hyq tau: max error %g of %g\n", e, mx; exit 1 } }' ||
    fail "hyq tau differs after the URDF round trip"

# bad input: nothing written
"$RBDIFF" models export 'autotree:N=0' --out "$TMP/bad.urdf" 2>"$TMP/err"
[ $? = 2 ] || fail "export of N=0: want status 2"
grep -qF "rbdiff models: model spec 'autotree:N=0'" "$TMP/err" || fail "no message naming the spec"
[ -e "$TMP/bad.urdf" ] && fail "a file was written for a bad spec"
"$RBDIFF" models export "$spec" --out "$TMP/nodir/x.urdf" 2>"$TMP/err"
[ $? = 1 ] || fail "export into a missing directory: want status 1"
grep -qF "$TMP/nodir" "$TMP/err" || fail "no message naming the path"
"$RBDIFF" models export 2>/dev/null
[ $? = 2 ] || fail "export without a spec: want status 2"
ls "$TMP" | grep -q '\.tmp' && fail "a temporary file was left behind"

passed "export checks passed"
