#!/usr/bin/env python3
"""Checks a merged (or resumed) results set against an unsharded run of the
same config on everything that is not a timing (tests/cli/slurm.sh,
tests/cli/parallel.sh).

  shardcheck.py ALL MERGED [--shard DIR]... [--keep ROWS.csv]... [--skip COLUMN]...

timings.csv: every cell (method, kind, model) exactly once, the same cells as
ALL, and per cell the same bf, N, nv, nq, batches and flops (the columns a
timing does not decide); accuracy.csv: the same rows, figures included, each
key once; crossover.csv: the same searches (A, B, bf, range), each once.
--shard DIR: the shard directories merged: each timing cell and crossover
search was measured by exactly one of them (merge keeps one of two
duplicates silently, so this is checked on the shards).
--keep ROWS.csv: every data row of that file (rows a shard had finished
before it was stopped) is in MERGED/timings.csv unchanged, field for field.
--skip COLUMN: a timings column not to compare (batches, when MERGED ran a
copy of the config with more batches).
Prints one line per problem; exit status 1 if there is any.
"""
import csv
import sys

NOT_TIMED = ["bf", "N", "nv", "nq", "batches", "flops"]


def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return r[0], r[1:]


def keyed(path, nkey, problems):
    head, body = rows(path)
    out = {}
    for row in body:
        k = tuple(row[:nkey])
        if k in out:
            problems.append("%s: cell %s appears twice" % (path, "/".join(k)))
        out[k] = dict(zip(head, row))
    return out


def main(argv):
    all_dir, merged = argv[1], argv[2]
    keep = [argv[i + 1] for i, a in enumerate(argv) if a == "--keep"]
    skip = [argv[i + 1] for i, a in enumerate(argv) if a == "--skip"]
    shards = [argv[i + 1] for i, a in enumerate(argv) if a == "--shard"]
    problems = []
    for name, nkey, cols in (("timings.csv", 3, [c for c in NOT_TIMED if c not in skip]), ("accuracy.csv", 4, None),
                             ("crossover.csv", 4, [])):
        a = keyed("%s/%s" % (all_dir, name), nkey, problems)
        m = keyed("%s/%s" % (merged, name), nkey, problems)
        for k in sorted(set(a) - set(m)):
            problems.append("%s: missing cell %s" % (name, "/".join(k)))
        for k in sorted(set(m) - set(a)):
            problems.append("%s: extra cell %s" % (name, "/".join(k)))
        for k in sorted(set(a) & set(m)):
            for c in (a[k].keys() if cols is None else cols):
                if a[k][c] != m[k][c]:
                    problems.append("%s: %s: %s = %s, unsharded %s" % (name, "/".join(k), c, m[k][c], a[k][c]))
        if not a:
            problems.append("%s/%s is empty: nothing was compared" % (all_dir, name))
    for name, nkey in (("timings.csv", 3), ("crossover.csv", 4)):
        if not shards:
            break
        owner = {}
        for d in shards:
            try:
                _, body = rows("%s/%s" % (d, name))
            except FileNotFoundError:
                continue
            for row in body:
                k = tuple(row[:nkey])
                if k in owner:
                    problems.append("%s: cell %s measured by two shards: %s and %s" % (name, "/".join(k), owner[k], d))
                owner[k] = d
        missing = set(keyed("%s/%s" % (all_dir, name), nkey, [])) - set(owner)
        for k in sorted(missing):
            problems.append("%s: cell %s measured by no shard" % (name, "/".join(k)))
    _, mrows = rows("%s/timings.csv" % merged)
    have = set(map(tuple, mrows))
    for path in keep:
        head, kept = rows(path)
        for row in kept:
            if len(row) != len(head):   # a line cut short by a kill: dropped by design
                continue
            if tuple(row) not in have:
                problems.append("a row finished before the stop is lost or changed: %s" % ",".join(row))
    for p in problems:
        print("shardcheck: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
