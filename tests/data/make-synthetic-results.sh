#!/usr/bin/env bash
# Writes a synthetic rbdiff results directory (timings.csv, accuracy.csv,
# crossover.csv) whose numbers follow made-up cost models shaped like the
# paper's (O(N d) analytic methods, O(N^2 d) chain rules, an O(N^3) dense
# DMM against an O(N^2) AZA).  It exercises `rbdiff plot` and `compare`
# before real methods exist; it is NOT a measurement.
# Usage: make-synthetic-results.sh DIR
set -euo pipefail
dir=${1:?usage: make-synthetic-results.sh DIR}
mkdir -p "$dir"
awk -v dir="$dir" 'BEGIN {
    nN = split("1 2 3 5 7 10 15 20 30 50 70 100", Ns, " ")
    nb = split("1 2 5", bfs, " ")
    nm = split("idsva idsva-body rneacr pin26 fdsva fdcr abacr pin26-fd fdsva-dmm fdsva-aza rnea", ms, " ")
    t = dir "/timings.csv"; a = dir "/accuracy.csv"; x = dir "/crossover.csv"
    print "method,kind,model,bf,N,nv,median_ns,min_ns,q1_ns,q3_ns,iqr_ns,batches,calls_per_batch,instructions,cycles,nq" > t
    print "method,output,model,bf,N,nv,states,rms_rel,max_abs,normwise,zero_max" > a
    srand(1)
    for (b = 1; b <= nb; b++) for (i = 1; i <= nN; i++) {
        N = Ns[i]; bf = bfs[b]
        d = (bf == 1) ? N : int(log(N * (bf - 1) + 1) / log(bf)) + 1       # tree depth
        id = 250 * N + 6 * N * d
        minv = 120 * N + 2.5 * N * d
        cost["idsva"] = id
        cost["idsva-body"] = 1.5 * id
        cost["rneacr"] = 500 * N + 90 * N * d
        cost["pin26"] = 300 * N + 14 * N * d
        cost["fdsva"] = id + minv + 1.5 * N * N
        cost["fdcr"] = cost["rneacr"] + minv + 1.5 * N * N * 4
        cost["abacr"] = 700 * N + 120 * N * d
        cost["pin26-fd"] = 1.8 * cost["fdsva"]
        cost["fdsva-dmm"] = id + minv + 0.06 * N * N * N
        cost["fdsva-aza"] = id + minv + 2.5 * N * N + 50 * N
        cost["rnea"] = 150 * N
        for (k = 1; k <= nm; k++) {
            m = ms[k]; c = cost[m]
            kind = (m == "rnea") ? "base" : (m ~ /^fd|abacr|pin26-fd/) ? "FD" : "ID"
            if (m == "pin26-fd") kind = "FD"
            med = c * (1 + 0.02 * (rand() - 0.5))
            printf "%s,%s,\"autotree:N=%d,bf=%s,skew=0,taper=1\",%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,11,%d,%.6g,%.6g,%d\n", \
                m, kind, N, bf, bf, N, N, med, 0.97 * med, 0.99 * med, 1.02 * med, 0.03 * med, int(1e7 / med) + 1, \
                3.1 * med, 2.6 * med, N > t
        }
        split("idsva:dtau_dq idsva:dtau_dv rneacr:dtau_dq fdsva:dqdd_dq fdsva:dqdd_dv", acc, " ")
        for (k = 1; k <= 5; k++) {
            split(acc[k], mo, ":")
            e = 1e-15 * sqrt(N) * (mo[1] == "fdsva" ? 10 : 1) * (mo[2] ~ /dv/ ? 0.5 : 1)
            printf "%s,%s,\"autotree:N=%d,bf=%s,skew=1.0471975511965976,taper=0.9\",%s,%d,%d,5,%.4g,%.4g,%.4g,0\n", \
                mo[1], mo[2], N, bf, bf, N, N, e, 30 * e, 2 * e > a
        }
    }
    # robots (Fig. 5): cost by nv, the same made-up models at N = nv
    split("urdf:tests/models/ur5.urdf urdf:tests/models/hyq.urdf,freeflyer", rob, " ")
    split("6 18", rnv, " "); split("6 19", rnq, " "); split("6 13", rnb, " ")
    split("idsva pin26 rneacr fdsva pin26-fd abacr", rm, " ")
    for (r = 1; r <= 2; r++) for (k = 1; k <= 6; k++) {
        N = rnv[r]; d = 4
        c = (rm[k] == "idsva") ? 250 * N + 6 * N * d : (rm[k] == "pin26") ? 300 * N + 14 * N * d : \
            (rm[k] == "rneacr") ? 500 * N + 90 * N * d : (rm[k] == "fdsva") ? 400 * N + 9 * N * d : \
            (rm[k] == "pin26-fd") ? 720 * N + 16 * N * d : 700 * N + 120 * N * d
        kind = (rm[k] ~ /^fd|abacr|pin26-fd/) ? "FD" : "ID"
        printf "%s,%s,\"%s\",,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,11,%d,,,%d\n", rm[k], kind, rob[r], rnb[r], N, c, \
            0.97 * c, 0.99 * c, 1.02 * c, 0.03 * c, int(1e7 / c) + 1, rnq[r] > t
    }
    print "A,B,bf,range,N_cross,bracket_lo,bracket_hi,status,probes,repetitions,confidence" > x
    # fdsva-aza faster than fdsva-dmm once 0.06 N^3 > 2.5 N^2 + 50 N, i.e. N >= 57 (in every bf)
    print "fdsva-aza,fdsva-dmm,1,2:200,57,56,57,found,10,84,0.9297" > x
    print "fdsva-aza,fdsva-dmm,2,2:200,57,56,57,found,10,91,0.9219" > x
    print "fdsva-aza,fdsva-dmm,5,2:200,,40,60,unresolved@50,6,240,0.9531" > x
}'
