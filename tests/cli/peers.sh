#!/usr/bin/env bash
# The live peers from the command line (harness/peers/README.md):
#  - without any peer module, `time --peers all` says that none was found and
#    times ours alone (exit 0), a sweep goes on and `anchors` falls back to
#    the stored figures, saying so;
#  - with the peers of $RBD_PEERS_EXPECTED (scripts/test), `time` prints each
#    peer function with its check and ours / peer, a sweep writes
#    peer_checks.csv and meta.json's peers, and `anchors` writes
#    vs-<peer>.md from the live rounds.
# Usage: peers.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
quick=(--batches 3 --batch-ms 1 --warmup-ms 1 --counters no)

# ---- no peer built
RBD_PEER_DIR="$TMP/none" "$RBDIFF" time --N 3 --methods idsva --peers all "${quick[@]}" >"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] || fail "time without peers: status $st ($(cat "$TMP/err"))"
grep -qF "peer pinocchio not found: no $TMP/none/rbdpeer-pinocchio@*.so" "$TMP/err" || fail "no message naming the missing module: $(cat "$TMP/err")"
grep -qF "no peer found; timing rbdiff's methods alone" "$TMP/err" || fail "time does not say that no peer was found"
grep -q '^idsva ' "$TMP/out" || fail "time without peers printed no idsva row"
RBD_PEER_DIR="$TMP/none" "$RBDIFF" sweep --N 3 --methods idsva --peers all "${quick[@]}" --out "$TMP/s0" >/dev/null 2>"$TMP/err" ||
    fail "sweep without peers failed: $(cat "$TMP/err")"
[ -f "$TMP/s0/peer_checks.csv" ] && fail "a sweep without peers wrote peer_checks.csv"
# a peer asked for by name that cannot be loaded: exit 1 before timing, naming it, nothing written
RBD_PEER_DIR="$TMP/none" "$RBDIFF" time --N 3 --methods idsva --peers pinocchio "${quick[@]}" >"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 1 ] || fail "time --peers pinocchio without the module: status $st, want 1"
grep -qF "peer pinocchio not found: no $TMP/none/rbdpeer-pinocchio@*.so" "$TMP/err" || fail "no message naming the missing peer: $(cat "$TMP/err")"
grep -q '^idsva ' "$TMP/out" && fail "time timed although the peer asked for is missing"
RBD_PEER_DIR="$TMP/none" "$RBDIFF" sweep --N 3 --methods idsva --peers mujoco "${quick[@]}" --out "$TMP/s1" >/dev/null 2>"$TMP/err"
st=$?
[ $st -eq 1 ] || fail "sweep --peers mujoco without the module: status $st, want 1"
[ -e "$TMP/s1" ] && fail "sweep without its named peer left $TMP/s1 behind"
"$RBDIFF" anchors "$TMP/s0" >/dev/null 2>&1 || fail "anchors on a run without peers failed"
grep -qF "**Fallback:** this run has no live Pinocchio peer" "$TMP/s0/vs-pinocchio.md" || fail "the fallback table does not say it is one"
[ -f "$TMP/s0/vs-mujoco.md" ] && fail "vs-mujoco.md without a MuJoCo peer"

# ---- the peers scripts/test built (idsva-so: a second-order peer function is
# timed only beside one of ours)
ours=idsva,fdsva,rnea,aba,minv,crba,idsva-so
for p in ${RBD_PEERS_EXPECTED:-}; do
    "$RBDIFF" time --robots ur5 --methods "$ours" --peers "$p" "${quick[@]}" >"$TMP/out.$p" 2>"$TMP/err" ||
        fail "time --peers $p: $(cat "$TMP/err")"
    # every function the peer offers (rbdiff methods lists them)
    want=$("$RBDIFF" methods 2>/dev/null | grep -c "^  $p\.")
    [ "$want" -ge 5 ] || fail "rbdiff methods lists $want functions of $p"
    n=$(grep -c "^$p\.[A-Za-z_]* *[0-9.e+-]* *[0-9.]* [a-z0-9-]* *[0-9.]* *[0-9]*/3" "$TMP/out.$p")
    [ "$n" -ge "$want" ] || fail "time --peers $p printed $n timed peer rows, want $want: $(cat "$TMP/out.$p")"
    # the peer table's columns stay put under names with a version (38 characters and more; issue 29)
    awk -v p="$p." '/^peer function / { match($0, /^peer function +check/); h = RLENGTH }
        index($0, p) == 1 && !/not timed/ { match($0, /^[^ ]+ +[^ ]+/); if (RLENGTH != h) bad = 1 }
        END { exit bad || !h }' "$TMP/out.$p" || fail "time --peers $p: the peer table's columns shift: $(cat "$TMP/out.$p")"
    # the sweep also times idsva-emit (methods/emit), which vs-<peer>.md
    # puts in a column of its own beside idsva's
    "$RBDIFF" sweep --robots ur5 --methods "$ours,idsva-emit" --peers "$p" "${quick[@]}" --out "$TMP/s.$p" \
        >/dev/null 2>"$TMP/err" || fail "sweep --peers $p: $(cat "$TMP/err")"
    [ "$(grep -c ",yes," "$TMP/s.$p/peer_checks.csv")" -eq "$want" ] || fail "$p: peer_checks.csv lacks $want timed checks"
    grep -q "\"$p\"" "$TMP/s.$p/meta.json" || fail "$p: meta.json does not describe the peer"
    "$RBDIFF" anchors "$TMP/s.$p" >/dev/null 2>&1 || fail "anchors on a run with $p failed"
    grep -qF "measured live" "$TMP/s.$p/vs-${p%@*}.md" || fail "vs-${p%@*}.md is not the live table"
    if grep -q '"ours": *"idsva"' "$TMP/s.$p/meta.json"; then
        grep -q "^| tests/models/ur5.urdf .*| [0-9.]* ([0-9]*/[0-9]*) |$" "$TMP/s.$p/vs-${p%@*}.md" &&
            grep -q "| idsva-emit / [^|]* | 1 |" "$TMP/s.$p/vs-${p%@*}.md" ||
            fail "vs-${p%@*}.md has no idsva-emit column timed on ur5"
    fi
done
passed "peers checks passed (live: ${RBD_PEERS_EXPECTED:-none})"
