#!/usr/bin/env bash
# The peers in the accuracy audit (harness/accuracy/accuracy_peer.h):
#  - without any peer module, `accuracy --peers all` says so in one line per
#    peer, audits ours (exit 0) and writes no peer row and no peer_eps.csv;
#  - with the peers built (those of $RBD_PEERS_EXPECTED, which scripts/test
#    sets and which must then all be there, else every module in the peer
#    directory), every function of every peer version has a row per output
#    on ur5 and on hyq with its free-flyer root (the conventions the peers
#    convert: joint order, x y z w quaternion, body-frame velocity; for
#    pinocchio-cg on ur5, whose code scripts/test generates), and no row is
#    above its bound:
#      analytical functions (Pinocchio's, MuJoCo's rne, crb, forward; and
#      Pinocchio's ComputeRNEASecondOrderDerivatives, whose four tensors are
#      scored against the 256-bit second-order reference, a row each: its
#      bound is also 10x idsva-so's rms_rel on the same tensor and model,
#      as hyq's dM/dq has entries near 1e-12 of its largest whose rounding
#      is a 1e-5 relative error for either; normwise <= 1e-12) and the
#      nominal output (tau, qdd) of finite differences: rms_rel <= 1e-10
#      (a wrong convention gives O(1); measured <= 1e-14 here);
#      MuJoCo's finite differences at its step 1e-6: <= 1e-3 (rms_rel counts
#      entries down to 1e-12 of the largest, where the differences' absolute
#      error is a large relative one: transitionFD measured 1.3e-4 on ur5 and
#      2.7e-4 on hyq, its normwise error 1e-9) and at the best step of the
#      sweep (row .best_eps) no worse than at 1e-6 (peer_eps.csv);
#    with no module built the second half is skipped (exit 77), saying why.
# Usage: accuracy_peers.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
audit=(--robots ur5,hyq:freeflyer --states 2 --methods idsva,fdsva,idsva-so --base no --cache "$TMP/cache")

# ---- no peer built: one line each, the audit goes on
RBD_PEER_DIR="$TMP/none" "$RBDIFF" accuracy "${audit[@]}" --peers all --out "$TMP/a0" >/dev/null 2>"$TMP/err"
st=$?
[ $st -eq 0 ] || fail "accuracy --peers all without peers: status $st ($(cat "$TMP/err"))"
for p in pinocchio mujoco; do
    n=$(grep -c "peer $p not found" "$TMP/err")
    [ "$n" -eq 1 ] || fail "$n lines saying that $p is not built, want 1: $(cat "$TMP/err")"
done
grep -q '^idsva,' "$TMP/a0/accuracy.csv" || fail "no idsva rows without peers"
grep -qE '^(pinocchio|mujoco)' "$TMP/a0/accuracy.csv" && fail "peer rows without peers"
[ -e "$TMP/a0/peer_eps.csv" ] && fail "peer_eps.csv without peers"

# ---- the peers built
dir=${RBD_PEER_DIR:-$("$RBDIFF" --version | sed -n 's/^data: //p')/build/peers}
peers=${RBD_PEERS_EXPECTED:-}
if [ -z "$peers" ]; then
    for f in "$dir"/rbdpeer-*@*.so; do [ -e "$f" ] && peers="$peers $(basename "$f" .so | sed 's/^rbdpeer-//')"; done
fi
if [ -z "${peers// /}" ]; then
    [ "$fails" -eq 0 ] || exit 1
    echo "SKIP: no peer module in $dir (scripts/peers builds them); the audit without peers passed"
    exit 77
fi
list=$(echo $peers | tr ' ' ',')
"$RBDIFF" accuracy "${audit[@]}" --peers "$list" --out "$TMP/a1" >"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] || fail "accuracy --peers $list: status $st ($(cat "$TMP/err"))"
# pinocchio-cg on a model whose code was not generated (hyq here) is said so, not an error
grep "not audited" "$TMP/err" | grep -v "pinocchio-cg@.*no generated code for this model" &&
    fail "a peer function was left out of the audit (above)"
# each of those lines, one per peer and model, is kept in accuracy.json's not_audited
python3 - "$TMP/a1/accuracy.json" "$TMP/err" <<'PY' || fail "accuracy.json's not_audited is not the lines the audit printed"
import json, sys
kept = json.load(open(sys.argv[1])).get("not_audited", [])
said = [l.split(": ", 1)[1].rstrip("\n") for l in open(sys.argv[2]) if ": not audited: " in l]
if kept != said:
    print("not_audited:", kept, "\nprinted:", said)
    sys.exit(1)
PY
python3 - "$TMP/a1" $peers <<'PY' || fails=$((fails + 1))
import csv, sys
d, peers = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(d + "/accuracy.csv")))
eps = list(csv.DictReader(open(d + "/peer_eps.csv")))
fd = ("fd_forward", "fd_inverse", "transitionFD", "inverseFD")
nominal = ("tau", "qdd")
bad = 0
for p in peers:
    mine = [r for r in rows if r["method"].startswith(p + ".")]
    models = {r["model"] for r in mine}
    if p.startswith("pinocchio-cg@"):   # scripts/test generates UR3's and UR5's code, not HyQ's (minutes)
        if not any(m.endswith("/ur5.urdf") for m in models):
            print(f"FAIL: {p}: rows on {sorted(models)}, want ur5 (scripts/codegen ur5)"); bad += 1
    elif len(models) != 2:
        print(f"FAIL: {p}: rows on {sorted(models)}, want ur5 and hyq"); bad += 1
    for r in mine:
        fn = r["method"][len(p) + 1:]
        base = fn.split(".")[0]
        e = float(r["rms_rel"])
        bound = 1e-3 if base in fd and r["output"] not in nominal else 1e-10
        if base == "ComputeRNEASecondOrderDerivatives":
            ours = [float(o["rms_rel"]) for o in rows if o["method"] == "idsva-so" and o["model"] == r["model"]
                    and o["output"] == r["output"]]
            bound = max(bound, 10 * ours[0]) if ours else 0
            if not float(r["normwise"]) <= 1e-12:
                print(f"FAIL: {r['method']} {r['output']} on {r['model']}: normwise {r['normwise']} > 1e-12"); bad += 1
        if not e <= bound:
            print(f"FAIL: {r['method']} {r['output']} on {r['model']}: rms_rel {e:.3g} > {bound:g}"); bad += 1
        print(f"{r['method']:48s} {r['output']:10s} {r['model'].split('/')[-1]:28s} {e:.2e}")
    so = [r for r in mine if r["method"] == p + ".ComputeRNEASecondOrderDerivatives"]
    if p.startswith("pinocchio@") and sorted({r["output"] for r in so}) != ["d2tau_dq2", "d2tau_dqdv", "d2tau_dv2", "dM_dq"]:
        print(f"FAIL: {p}: ComputeRNEASecondOrderDerivatives rows {sorted({r['output'] for r in so})}, want the four tensors"); bad += 1
    fdf = {r["method"] for r in mine if r["method"][len(p) + 1:] in fd}
    for m in sorted(fdf):
        for model in models:
            best = [r for r in rows if r["method"] == m + ".best_eps" and r["model"] == model]
            if not best:
                print(f"FAIL: {m} on {model}: no .best_eps rows"); bad += 1
            sw = [r for r in eps if r["method"] == m and r["model"] == model]
            d_ = [float(r["rms_rel"]) for r in sw if "default" in r["role"]]
            b_ = [(float(r["rms_rel"]), r["eps"]) for r in sw if "best" in r["role"]]
            if len(d_) != 1 or len(b_) != 1 or not b_[0][0] <= d_[0]:
                print(f"FAIL: {m} on {model}: peer_eps.csv default {d_}, best {b_}"); bad += 1
            else:
                print(f"{m:48s} step sweep on {model.split('/')[-1]}: 1e-06 -> {d_[0]:.2e}, best {b_[0][1]} -> {b_[0][0]:.2e}")
sys.exit(1 if bad else 0)
PY
passed "accuracy of the peers checked (peers: $peers)"
