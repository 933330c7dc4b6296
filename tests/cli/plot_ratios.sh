#!/usr/bin/env bash
# The speed-up figures plot the paired ratios of tables.md: on a small real
# sweep, every ratio in the data of fig3/4/6/7 and so_id/so_fd (plots/data/speedup_A_over_B_bfX.dat:
# N, medians, t_B / t_A as the median of per-round ratios, its quartiles,
# w, K) equals tables.md's cell for B against A at that model, to the
# table's 3 digits, with the same w/K; and the interquartile band holds
# the ratio.
# Usage: plot_ratios.sh RBDIFF TMPDIR
set -u
RBDIFF=$1
TMP=$2
. "$(dirname "$0")/lib.sh"
scratch "$TMP"
"$RBDIFF" sweep --methods idsva,idsva-body,pin26,fdsva,pin26-fd,fdsva-aza,fdsva-dmm,dgemm --base no --N 2,5,9 --bf 1,2 \
    --so-methods idsva-so,id2-fd,id2-cs,fdsva-so,fd2-fd \
    --batches 5 --batch-ms 0.3 --warmup-ms 0.5 --counters no --peers none --out "$TMP/r" >/dev/null 2>"$TMP/err" ||
    { fail "sweep"; cat "$TMP/err"; }
"$RBDIFF" plot "$TMP/r" >"$TMP/out" 2>"$TMP/err" || { fail "plot"; cat "$TMP/err"; }
checked=0
for f in "$TMP"/r/plots/data/speedup_*_over_*_bf*.dat; do
    [ -e "$f" ] || { fail "no speedup data files"; break; }
    b=$(basename "$f" .dat); b=${b#speedup_}
    A=${b%%_over_*}; rest=${b#*_over_}; B=${rest%_bf*}; bf=${rest##*_bf}
    case $A in
        idsva | fdsva | idsva-so | fdsva-so) section="## Paired ratios to $A" ;;
        fdsva-aza) section="## Paired ratios DMM over AZA" ;;
        *) fail "$b: no table for A = $A"; continue ;;
    esac
    out=$(awk -v sec="$section" -v col="$B" -v bf="$bf" -v dat="$f" '
        BEGIN { while ((getline l < dat) > 0) if (l !~ /^#/) { n++; split(l, d, " "); N[n] = d[1]; q[n] = d[4]; q1[n] = d[5]; q3[n] = d[6]; w[n] = d[7]; K[n] = d[8] } }
        /^## / { on = index($0, sec) == 1; c = 0; next }
        on && /^\| model \|/ { nf = split($0, h, "|"); for (i = 2; i < nf; i++) { gsub(/ /, "", h[i]); if (h[i] == col) c = i } next }
        on && c && /^\| N=/ { split($0, cell, "|"); m = cell[2]; gsub(/ /, "", m); t[m] = cell[c] }
        END {
            for (i = 1; i <= n; i++) {
                m = "N=" N[i] ",bf=" bf ",skew=0,taper=1"
                if (!(m in t)) { print "no table cell for " m; continue }
                want = sprintf(" %.3g (%d/%d) ", q[i], w[i], K[i])
                if (t[m] != want) print m ": plot" want "table" t[m]
                if (!(q1[i] <= q[i] && q[i] <= q3[i])) print m ": ratio " q[i] " outside its band [" q1[i] ", " q3[i] "]"
                ok++
            }
            print "checked " ok
        }' "$TMP/r/tables.md")
    bad=$(printf '%s\n' "$out" | grep -v '^checked')
    [ -z "$bad" ] || fail "$b: $bad"
    checked=$((checked + $(printf '%s\n' "$out" | awk '/^checked/ { print $2 + 0 }')))
done
# tables.md's timings: a table per kind of method (issue 29: one of 42 columns did not fit a screen)
awk '/^## bf = 1/ { s = 1 } /^## bf = 2/ { s = 0 } s && /^\| N \|/ { print }' "$TMP/r/tables.md" >"$TMP/heads"
[ "$(wc -l <"$TMP/heads")" = 4 ] || fail "bf = 1 timings: not one table each for ID, FD, second order and the base algorithms: $(cat "$TMP/heads")"
sotab=$(grep ' idsva-so ' "$TMP/heads")
for m in idsva-so id2-fd id2-cs fdsva-so fd2-fd; do echo "$sotab" | grep -q " $m |" || fail "the second-order table lacks $m: $sotab"; done
[ "$(echo "$sotab" | tr -cd '|' | wc -c)" = 7 ] || fail "the second-order table has other columns: $sotab"
idtab=$(grep ' idsva-body ' "$TMP/heads")
for m in idsva idsva-body pin26; do echo "$idtab" | grep -q " $m |" || fail "the ID table lacks $m: $idtab"; done
[ "$(echo "$idtab" | tr -cd '|' | wc -c)" = 5 ] || fail "the ID table has other columns: $idtab"
grep '^| N |.* idsva |' "$TMP/heads" | grep -q ' fdsva |' && fail "ID and FD methods share a table"
grep -q '^| N | dgemm |$' "$TMP/heads" || fail "no base-algorithm table of dgemm: $(cat "$TMP/heads")"

# tables.md's "% dgemm peak": over the run's best dgemm rate, so the best dgemm row reads 100 and none more
peak=$(awk -F'|' '/^\| dgemm \|/ { v = $10 + 0; if (v > m) m = v } END { print m + 0 }' "$TMP/r/tables.md")
[ "$peak" = 100 ] || fail "the best dgemm row reads $peak % of the dgemm peak, expected 100"
grep -q "best rate of OpenBLAS dgemm in this run (.* GFLOP/s at n = [0-9]" "$TMP/r/tables.md" ||
    fail "tables.md does not name the n of the dgemm peak"
# fig3 (idsva-body), fig4 (pin26), fig6 (pin26-fd), fig7 (fdsva-dmm), so_id_speedup (id2-fd, id2-cs),
# so_fd_speedup (fd2-fd): 3 N x 2 bf each
[ "$checked" -eq 42 ] || fail "compared $checked plotted ratios with the table, expected 42"
passed "plot ratio checks passed ($checked ratios)"
