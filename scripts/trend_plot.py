"""The trend figure of `history.py trend` (issue 31): per model a panel,
x = the commits of one paired run in commit order, y = each method's time
over the reference commit's in the same rounds (median over rounds, the
quartiles as a band).  A marker sits on every step from one commit to the
next that the paired test calls real: the per-round ratio of the two
neighbours (both were timed in every round) beyond 1 +/- threshold with a
one-sided sign test p <= alpha.  Writes OUT/trend.{svg,png}, OUT/trend.md
and the data files in OUT/data/."""
import csv, glob, os, subprocess, sys
from collections import defaultdict

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def load_runs(hist, cols, read_csv):
    rows = []
    for p in sorted(glob.glob(os.path.join(hist, "runs", "*.csv"))):
        rows += read_csv(p, cols)
    return [r for r in rows if r["ratio_median"] and r["pair_run"]]


def neighbour_steps(hist, run, commits, sign_tail, median, thr, alpha):
    """{(method, model, i)}: the step commits[i-1] -> commits[i] that is real, +1 slower / -1 faster."""
    path = os.path.join(hist, "samples", run + ".csv")
    if not os.path.exists(path):
        return {}
    ns = defaultdict(dict)
    with open(path, newline="") as f:
        for s in csv.DictReader(f):
            ns[(s["method"], s["model"], s["commit"])][int(s["round"])] = float(s["ns_per_call"])
    steps = {}
    for (m, model) in {(k[0], k[1]) for k in ns}:
        for i in range(1, len(commits)):
            a, b = ns.get((m, model, commits[i - 1])), ns.get((m, model, commits[i]))
            if not a or not b:
                continue
            r = [b[k] / a[k] for k in sorted(set(a) & set(b))]
            if not r:
                continue
            w, K, med = sum(x > 1 for x in r), len(r), median(r)
            if med > 1 + thr and sign_tail(w, K) <= alpha:
                steps[(m, model, i)] = (1, med, w, K)
            elif med < 1 - thr and sign_tail(K - w, K) <= alpha:
                steps[(m, model, i)] = (-1, med, w, K)
    return steps


def gnuplot(out, models, methods, commits, labels):
    gp = os.path.join(out, "data", "trend.gp")
    n = len(models)
    with open(gp, "w") as f:
        for fmt, term in (("svg", "svg size 1100,%d dynamic font 'Sans,10'" % (300 * n + 80)),
                          ("png", "pngcairo size 1100,%d font 'Sans,10'" % (300 * n + 80))):
            f.write("set terminal %s\nset output '%s/trend.%s'\n" % (term, out, fmt))
            f.write("set multiplot layout %d,1 title 'time relative to the reference commit, paired rounds "
                    "(line: median over rounds; band: quartiles; triangles: a real step from the previous commit)'\n" % n)
            f.write("set xtics rotate by 45 right font ',8'\nset grid ytics\nset key outside right\n")
            f.write("set xrange [-0.5:%g]\n" % (len(commits) - 0.5))
            f.write("set xtics (%s)\n" % ", ".join("'%s' %d" % (labels[c], i) for i, c in enumerate(commits)))
            for model in models:
                f.write("set title '%s'\nset ylabel 't / t_{ref}'\n" % model.replace("_", "\\\\_"))
                plots = []
                for j, m in enumerate(methods):
                    d = os.path.join(out, "data", "%s__%s.dat" % (safe(model), m))
                    if not os.path.exists(d):
                        continue
                    c = COLOURS[j % len(COLOURS)]
                    plots.append("'%s' u 1:3:4 w filledcurves lc rgb '%s' fs transparent solid 0.15 notitle" % (d, c))
                    plots.append("'%s' u 1:2 w lp lc rgb '%s' pt 7 ps 0.5 title '%s'" % (d, c, m))
                    plots.append("'%s' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '%s' pt 9 ps 1.6 notitle" % (d, c))
                    plots.append("'%s' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '%s' pt 11 ps 1.6 notitle" % (d, c))
                f.write("plot " + ", \\\n     ".join(plots) + "\n")
            f.write("unset multiplot\n")
    subprocess.run(["gnuplot", gp], check=True)


def commit_order(rows):
    """Oldest first: by commit date, ties (a merge made in the same second as
    its parent) by their place in git's topological order where the commit
    is in this repository."""
    topo = subprocess.run(["git", "rev-list", "--topo-order", "--reverse", "HEAD"], capture_output=True,
                          text=True).stdout.split()
    pos = {c: i for i, c in enumerate(topo)}
    date = {}
    for r in rows:
        date[r["commit"]] = min(date.get(r["commit"], r["commit_date"]), r["commit_date"])
    return sorted(date, key=lambda c: (date[c], pos.get(c, -1)))


def subject(c):
    return subprocess.run(["git", "log", "-1", "--format=%s", c], capture_output=True, text=True).stdout.strip()


def write_table(path, a, run, rows, commits, models, methods, by, steps):
    """trend.md: the numbers the figure draws (per model, per commit, each
    method's median ratio and quartiles, the step marks), then the steps."""
    ref = rows[0]["reference_commit"]
    mark = {1: " ▲", -1: " ▼", 0: ""}
    with open(path, "w") as f:
        f.write("# Trend over %d commits (paired run %s, reference %s, %s, %s)\n\n" %
                (len(commits), run, ref[:10], rows[0]["reference_build"], rows[0]["cpu"]))
        f.write("Each cell: the commit's time over the reference commit's in the same rounds, median over %s "
                "rounds [quartiles], as trend.svg draws it; ▲ / ▼: a step from the previous commit that the paired "
                "test calls real (median per-round ratio of the two beyond 1 +/- %g%%, one-sided sign test "
                "p <= %g), slower / faster.\n" % (rows[0]["rounds"], a.threshold, a.alpha))
        for model in models:
            f.write("\n## %s\n\n| commit | %s |\n|---|%s\n" % (model, " | ".join(methods), "---:|" * len(methods)))
            for i, c in enumerate(commits):
                cells = []
                for m in methods:
                    r = by.get((m, model, c))
                    cells.append("%.3f [%.3f, %.3f]%s" % (float(r["ratio_median"]), float(r["ratio_q1"]),
                                                          float(r["ratio_q3"]), mark[steps.get((m, model, i), (0,))[0]])
                                 if r else "")
                f.write("| %s %s | %s |\n" % (c[:10], subject(c)[:50].replace("|", "/"), " | ".join(cells)))
        f.write("\n## Steps\n\n| commit | method | model | t(commit) / t(previous) | w/K |\n|---|---|---|---:|---:|\n")
        for (m, model, i), (sgn, med, w, K) in sorted(steps.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
            f.write("| %s %s | %s | %s | %.4f | %d/%d |\n" % (commits[i][:10], subject(commits[i])[:70].replace("|", "/"),
                                                             m, model, med, w, K))
        if not steps:
            f.write("| (none) | | | | |\n")
        f.write("\nCommits, oldest first: %s\n" % ", ".join(c[:10] for c in commits))


def safe(s):
    return "".join(ch if ch.isalnum() else "_" for ch in s)


def draw(a, cols, read_csv, sign_tail, median):
    rows = load_runs(a.history, cols, read_csv)
    if not rows:
        print("history: no paired runs in %s/runs" % a.history, file=sys.stderr)
        sys.exit(2)
    run = max(r["pair_run"] for r in rows if r["kind"] == "backfill") if any(r["kind"] == "backfill" for r in rows) \
        else max(r["pair_run"] for r in rows)
    rows = [r for r in rows if r["pair_run"] == run]
    commits = commit_order(rows)
    models = sorted({r["model"] for r in rows})
    methods = sorted({r["method"] for r in rows})
    out = a.out or os.path.join(a.history, "trend")
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    steps = neighbour_steps(a.history, run, commits, sign_tail, median, a.threshold / 100, a.alpha)
    labels = {c: c[:8] for c in commits}
    by = {(r["method"], r["model"], r["commit"]): r for r in rows}
    for model in models:
        for m in methods:
            pts = [(i, by[(m, model, c)]) for i, c in enumerate(commits) if (m, model, c) in by]
            if not pts:
                continue
            with open(os.path.join(out, "data", "%s__%s.dat" % (safe(model), m)), "w") as f:
                f.write("# commit_index ratio_median q1 q3 step(+1 slower, -1 faster than the previous commit)\n")
                for i, r in pts:
                    f.write("%d %s %s %s %d\n" % (i, r["ratio_median"], r["ratio_q1"], r["ratio_q3"],
                                                   steps.get((m, model, i), (0,))[0]))
    gnuplot(out, models, methods, commits, labels)
    write_table(os.path.join(out, "trend.md"), a, run, rows, commits, models, methods, by, steps)
    print(os.path.join(out, "trend.svg"))
