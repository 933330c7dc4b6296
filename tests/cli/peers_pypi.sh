#!/usr/bin/env bash
# The peers that the pinned PyPI wheels give (harness/peers/requirements.txt:
# libpinocchio -> pinocchio and pinocchio-cg, mujoco-core -> mujoco), as
# scripts/peers left them in PEER_DIR (default SOURCE/build/peers):
#  - each built at the pinned version (its module there, peers.txt "found"): pass;
#  - where scripts/peers could not install the wheels (PyPI not reachable,
#    no python3-venv), or RBD_PEER_CG=OFF left the generated code out:
#    skipped (77), each peer named with the reason peers.txt gives;
#  - a peer whose wheel was installed but which did not build, or that
#    peers.txt says nothing of: fail.
# Whether each built peer agrees with ours is test_harness_peers' and
# test_harness_peer_cg's job; this one says which of them could not run.
# Usage: peers_pypi.sh SOURCE_DIR
set -u
SRC=$1
dir=${RBD_PEER_DIR:-$SRC/build/peers}
req=$SRC/harness/peers/requirements.txt
status=$dir/peers.txt
fails=0 skips=0
if [ ! -f "$status" ]; then
    echo "SKIPPED: no $status: scripts/peers has not run (scripts/test runs it)"
    exit 77
fi
pin=$(sed -n 's/^libpinocchio==//p' "$req")
muj=$(sed -n 's/^mujoco-core==//p' "$req")
[ -n "$pin" ] && [ -n "$muj" ] || { echo "FAIL: $req pins no libpinocchio or mujoco-core"; exit 1; }
for name in "pinocchio@$pin" "pinocchio-cg@$pin" "mujoco@$muj"; do
    # its line, or its family's where the build said no version (RBD_PEER_CG=OFF)
    line=$(grep -e "^$name " -e "^${name%@*} " "$status" | tail -1)
    case $line in
    "$name found"*)
        if [ -f "$dir/rbdpeer-$name.so" ]; then
            echo "built: $name"
        else
            echo "FAIL: $status says $name was found, but there is no $dir/rbdpeer-$name.so"
            fails=$((fails + 1))
        fi ;;
    "$name skipped"* | "${name%@*} skipped"*)
        echo "SKIPPED: $line"
        skips=$((skips + 1)) ;;
    "")
        echo "FAIL: $status says nothing of $name (pinned in $req)"
        fails=$((fails + 1)) ;;
    *)
        echo "FAIL: $line"
        fails=$((fails + 1)) ;;
    esac
done
[ $fails -gt 0 ] && exit 1
[ $skips -gt 0 ] && exit 77
echo "the pinned PyPI peers are built"
