#!/usr/bin/env python3
"""The run history of rbdiff (issue 31): one CSV file per run under
results/history/runs/, every row one cell (method x model) of one build.

  history.py add --pair DIR --builds FILE --kind KIND [--history DIR]
      a `rbdiff pair --out DIR` run; FILE (tab-separated, a header line
      `label commit commit_date build`) says what each --build label was
  history.py add-sweep --results DIR --kind KIND [--history DIR]
      a sweep's timings.csv and meta.json (scripts/run): absolute times, no
      reference
  history.py trend [--history DIR] [--out DIR] [--threshold PCT] [--alpha P]
      per model, each method's time relative to the reference across
      commits (median per-round ratio, IQR band), the changes between
      neighbouring commits that the paired test calls real marked

Columns are read and written by name through HISTORY_COLS.  Why files and not
SQLite: README.md, "Tracking a regression".
"""
import argparse, csv, datetime, math, os, platform, subprocess, sys
from collections import defaultdict

HISTORY_COLS = ["commit", "commit_date", "build", "cpu", "date", "kind", "reference_commit", "reference_build",
                "method", "model", "rounds", "ratio_median", "ratio_q1", "ratio_q3", "slower_rounds", "p_slower",
                "p_faster", "t_ns", "t_ref_ns", "verdict", "pair_run"]


def die(msg, code=2):
    print("history: " + msg, file=sys.stderr)
    sys.exit(code)


def cpu_name():
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name:"):
                return "%s x%d" % (line.split(":", 1)[1].strip(), os.cpu_count())
    except OSError:
        pass
    return platform.processor() or "unknown"


def read_csv(path, need):
    try:
        with open(path, newline="") as f:
            r = csv.DictReader(f)
            missing = [c for c in need if c not in (r.fieldnames or [])]
            if missing:
                die("%s: line 1: no column %s" % (path, ", ".join(missing)))
            return list(r)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))


def write_run(hist, name, rows):
    d = os.path.join(hist, "runs")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name + ".csv")
    if os.path.exists(path):
        die("%s exists: a run is written once" % path, 1)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=HISTORY_COLS)
        w.writeheader()
        for r in rows:
            w.writerow(r)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    print(path)


def add_pair(a):
    builds = {}
    with open(a.builds, newline="") as f:
        r = csv.DictReader(f, delimiter="\t")
        for c in ("label", "commit", "commit_date", "build"):
            if c not in (r.fieldnames or []):
                die("%s: line 1: no column %s" % (a.builds, c))
        for row in r:
            builds[row["label"]] = row
    pairs = read_csv(os.path.join(a.pair, "pair.csv"), ["method", "model", "build", "reference", "verdict"])
    now = datetime.datetime.now(datetime.timezone.utc)
    run = now.strftime("%Y-%m-%dT%H%M%SZ")
    cpu = cpu_name()
    rows = []
    for p in pairs:
        for lab in (p["build"], p["reference"]):
            if lab not in builds:
                die("%s: build label %s is not in %s" % (os.path.join(a.pair, "pair.csv"), lab, a.builds))
        b, ref = builds[p["build"]], builds[p["reference"]]
        rows.append({"commit": b["commit"], "commit_date": b["commit_date"], "build": b["build"], "cpu": cpu,
                     "date": now.isoformat(timespec="seconds"), "kind": a.kind, "reference_commit": ref["commit"],
                     "reference_build": ref["build"], "method": p["method"], "model": p["model"],
                     "rounds": p["rounds"], "ratio_median": p["ratio_median"], "ratio_q1": p["ratio_q1"],
                     "ratio_q3": p["ratio_q3"], "slower_rounds": p["slower_rounds"], "p_slower": p["p_slower"],
                     "p_faster": p["p_faster"], "t_ns": p["t_build_ns"], "t_ref_ns": p["t_ref_ns"],
                     "verdict": p["verdict"], "pair_run": run})
    # the reference's own rows (ratio 1), so the trend has its point
    seen = set()
    for p in pairs:
        ref = builds[p["reference"]]
        if (p["method"], p["model"]) in seen:
            continue
        seen.add((p["method"], p["model"]))
        rows.append({"commit": ref["commit"], "commit_date": ref["commit_date"], "build": ref["build"], "cpu": cpu,
                     "date": now.isoformat(timespec="seconds"), "kind": a.kind, "reference_commit": ref["commit"],
                     "reference_build": ref["build"], "method": p["method"], "model": p["model"],
                     "rounds": p["rounds"], "ratio_median": "1", "ratio_q1": "1", "ratio_q3": "1",
                     "slower_rounds": "", "p_slower": "", "p_faster": "", "t_ns": p["t_ref_ns"],
                     "t_ref_ns": p["t_ref_ns"], "verdict": "reference", "pair_run": run})
    # the samples, for the neighbour-to-neighbour tests of `trend`
    samples = os.path.join(a.pair, "pair_samples.csv")
    sd = os.path.join(a.history, "samples")
    os.makedirs(sd, exist_ok=True)
    if os.path.exists(samples):
        srows = read_csv(samples, ["method", "model", "build", "round", "ns_per_call"])
        tmp = os.path.join(sd, run + ".csv.tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["commit", "build", "method", "model", "round", "ns_per_call"])
            w.writeheader()
            for s in srows:
                b = builds[s["build"]]
                w.writerow({"commit": b["commit"], "build": b["build"], "method": s["method"], "model": s["model"],
                            "round": s["round"], "ns_per_call": s["ns_per_call"]})
        os.replace(tmp, os.path.join(sd, run + ".csv"))
    write_run(a.history, "%s-%s-%s" % (run, a.kind, builds[pairs[0]["reference"]]["commit"][:10] if pairs else "none"), rows)


def add_sweep(a):
    import json
    try:
        meta = json.load(open(os.path.join(a.results, "meta.json")))
    except (OSError, ValueError) as e:
        die("%s/meta.json: %s" % (a.results, e))
    t = read_csv(os.path.join(a.results, "timings.csv"), ["method", "model", "median_ns", "q1_ns", "q3_ns"])
    commit = str(meta.get("git_commit", meta.get("commit", "unknown")))
    build = str(meta.get("compiler", "")) + " " + str(meta.get("flags", ""))
    now = datetime.datetime.now(datetime.timezone.utc)
    cpu = "%s x%s" % (meta["cpu_model"], meta.get("cpus_online", "?")) if meta.get("cpu_model") else cpu_name()
    rows = [{"commit": commit, "commit_date": "", "build": build.strip(), "cpu": cpu,
             "date": now.isoformat(timespec="seconds"), "kind": a.kind, "reference_commit": "", "reference_build": "",
             "method": r["method"], "model": r["model"], "rounds": r.get("batches", ""), "ratio_median": "",
             "ratio_q1": "", "ratio_q3": "", "slower_rounds": "", "p_slower": "", "p_faster": "",
             "t_ns": r["median_ns"], "t_ref_ns": "", "verdict": "", "pair_run": ""} for r in t]
    write_run(a.history, "%s-%s-%s" % (now.strftime("%Y-%m-%dT%H%M%SZ"), a.kind, commit[:10]), rows)


def sign_tail(k, n):
    return min(1.0, sum(math.comb(n, j) for j in range(k, n + 1)) / 2.0 ** n) if k > 0 else 1.0


def median(x):
    s = sorted(x)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def trend(a):
    import trend_plot
    trend_plot.draw(a, HISTORY_COLS, read_csv, sign_tail, median)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("add")
    p.add_argument("--pair", required=True)
    p.add_argument("--builds", required=True)
    p.add_argument("--kind", required=True)
    p.add_argument("--history", default="results/history")
    s = sub.add_parser("add-sweep")
    s.add_argument("--results", required=True)
    s.add_argument("--kind", required=True)
    s.add_argument("--history", default="results/history")
    t = sub.add_parser("trend")
    t.add_argument("--history", default="results/history")
    t.add_argument("--out", default=None)
    t.add_argument("--threshold", type=float, default=3.0)
    t.add_argument("--alpha", type=float, default=0.05)
    a = ap.parse_args()
    {"add": add_pair, "add-sweep": add_sweep, "trend": trend}[a.cmd](a)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
