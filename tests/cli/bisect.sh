#!/usr/bin/env bash
# scripts/bisect-slow finds an injected slow commit (issue 31).  A test
# repository is generated from this source tree: a base commit, then six
# commits of which the fourth makes idsva run its forward pass twice (about
# 30% more time) and the others change comments only (one of them in a
# methods/ source, so it is rebuilt).  bisect-slow must name the fourth.
# Builds go to TMPDIR/ab (scripts/ab-build, incremental after the first).
# Usage: bisect.sh SOURCE_DIR TMPDIR
set -u
SRC=$1 TMP=$2
rm -rf "$TMP"
mkdir -p "$TMP/repo"
repo="$TMP/repo"
git -C "$SRC" ls-files -z | (cd "$SRC" && tar --null -T - -cf -) | tar -xf - -C "$repo"
g() { git -C "$repo" -c user.name=bisect-test -c user.email=bisect@test "$@"; }
g init -q
g add -A
g commit -qm "base"
idsva=methods/derivatives/id/idsva.c
grep -q '    rbd_idg_forward(w->m, &w->g, x->q, x->v, x->a);' "$repo/$idsva" ||
    { echo "FAIL: $idsva no longer has the line the test injects into"; exit 1; }
for i in 1 2 3 4 5 6; do
    if [ $i -eq 4 ]; then
        sed -i 's|^    rbd_idg_forward(w->m, &w->g, x->q, x->v, x->a);$|&\n    rbd_idg_forward(w->m, \&w->g, x->q, x->v, x->a);   /* injected slow-down */|' "$repo/$idsva"
        msg="injected: idsva runs its forward pass twice"
    elif [ $i -eq 2 ]; then
        echo "/* comment change $i */" >>"$repo/methods/derivatives/id/rneacr.c"; msg="comment in rneacr.c"
    else
        echo "<!-- change $i -->" >>"$repo/methods/README.md"; msg="README change $i"
    fi
    g commit -qam "$msg"
done
want=$(g rev-parse HEAD~2)
export AB_DIR="$TMP/ab"
out=$("$SRC/scripts/bisect-slow" --repo "$repo" --rounds 12 HEAD~6 HEAD idsva "autotree:N=30,bf=1" 2>"$TMP/bisect.err")
st=$?
echo "$out"
if [ $st -eq 0 ] && [ "$(echo "$out" | awk '{ print $4 }')" = "$want" ]; then
    echo "ok: bisect-slow named the injected commit ${want:0:10}"
    exit 0
fi
echo "FAIL: wanted ${want:0:10} (exit $st)"; cat "$TMP/bisect.err"
exit 1
