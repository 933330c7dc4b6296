#!/usr/bin/env python3
"""Which commits scripts/history-backfill times (issue 31): the longest line
of descent ending at REV (default HEAD) in which every commit has the
`worker` command (harness/commands/cmd_worker.c: `rbdiff pair` drives each
commit's own program) and each commit's library (methods/ without its .md
files) differs from the one before it.

  history_commits.py [--rev REV]     prints the commits, newest first (REV first)

Why a line of descent and not every commit by date: branches were worked on
side by side and merged often, so commits ordered by date alternate between
branches that do and do not have a change, and a step from one point of
the trend to the next would not be one change.  Along the line each commit
is an ancestor of the next, so a step that the paired test calls real is a
change between two commits that `git log A..B -- methods` lists.  The
longest such line is found over the ancestry graph (each commit's
ancestors as a bit set; O(n^2) for the n commits that have the worker).
"""
import argparse, subprocess, sys


def git(*a):
    r = subprocess.run(["git"] + list(a), capture_output=True, text=True)
    if r.returncode != 0:
        print("history_commits: git %s: %s" % (" ".join(a), r.stderr.strip()), file=sys.stderr)
        sys.exit(2)
    return r.stdout


def has_worker(c):
    return subprocess.run(["git", "cat-file", "-e", c + ":harness/commands/cmd_worker.c"],
                          capture_output=True).returncode == 0


def library_key(c):
    """methods/ as the compiler sees it: the tree listing without text files"""
    t = git("ls-tree", "-r", c, "methods").splitlines()
    return "\n".join(line for line in t if not line.endswith(".md"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD")
    a = ap.parse_args()
    tip = git("rev-parse", "--verify", a.rev + "^{commit}").strip()
    if not has_worker(tip):
        print("history_commits: %s has no 'rbdiff worker'" % a.rev, file=sys.stderr)
        sys.exit(2)
    order, parents = [], {}
    for line in git("rev-list", "--topo-order", "--reverse", "--parents", tip).splitlines():
        f = line.split()
        order.append(f[0])
        parents[f[0]] = f[1:]
    idx = {c: i for i, c in enumerate(order)}
    anc = {}
    for c in order:   # parents come first in --topo-order --reverse
        s = 0
        for p in parents[c]:
            s |= anc[p] | (1 << idx[p])
        anc[c] = s
    w = [c for c in order if has_worker(c)]
    key = {c: library_key(c) for c in w}
    length, prev = {}, {}
    for j, c in enumerate(w):
        length[c], prev[c] = 1, None
        for b in w[:j]:
            if anc[c] >> idx[b] & 1 and key[b] != key[c] and length[b] + 1 > length[c]:
                length[c], prev[c] = length[b] + 1, b
    c = tip
    while c:
        print(c)
        c = prev[c]


if __name__ == "__main__":
    main()
