#!/usr/bin/env python3
"""Check the history tools' answers against git's own.

Usage:
    go build -tags sqlite_fts5 -o /tmp/gn-check ./cmd/gitnexus
    git clone -q <source> /tmp/gn-check-repos/raft          # a clone: analyze writes .gitnexus/ there
    GITNEXUS_HOME=/tmp/gn-check-home /tmp/gn-check analyze --wait-history -q /tmp/gn-check-repos/raft
    bench/history/check_git.py --bin /tmp/gn-check --home /tmp/gn-check-home \
        [--samples 60] [--seed 1] [--source-samples 3] [--workers 3] [--examples 2] \
        [--json out.json] /tmp/gn-check-repos/raft [more clones...]

Two checks per repository (Python 3 standard library only; it drives the built binary and git;
a few minutes for four repositories of 1-3,000 commits):

1. File history. For every blob at HEAD (`git ls-tree -r HEAD`), every page of
   `gitnexus get-file-history --path <p> --json --limit 100` is compared with
   `git log --first-parent --follow --format=%H -- <p>`, restricted to the commits the index holds
   (the `commits` view of .gitnexus/graph.db), as ordered lists. A differing file is classified by
   where the two path chains part: a commit we list twice; git's --follow takes a copy (`C`) where
   we record an add; git and we pair a rename with different sources; git goes on past an add under
   the same name (an earlier, deleted file); we stop at a rename (the file at HEAD is not in the
   graph); we list an earlier, unrelated file at a path of the chain; or `unexplained`.

2. Symbol history. For a seeded sample of functions, methods and constructors at HEAD (the `nodes`
   view), every page of `gitnexus get-symbol-history --uid <id> --json --include-source` (pages of
   20, so that every merge of a page gets its mergedFrom looked up) is compared with
   `git log -L<start>,<end>:<path> HEAD`. Our set is our non-merge commits, every mergedFrom
   commit, and the merges whose mergedFrom is empty. Each commit only one side names is
   classified, using the index (symbolsSkipped, symbol_changes, file_changes) and git -L's hunks:
   not indexed; symbolsSkip; older than our `added` (the symbol was renamed or moved; git -L keeps a
   boundary line; git -L's range is wider; git -L keeps lines of older code); branch-side merge;
   branch commit whose merge does not carry the change; mergedFrom commit git -L from HEAD does not
   reach; nested symbol (innermost attribution); range tracking (git -L's range wider, narrower, or
   shrunk to the surviving lines); or `unexplained`. For 3 entries per symbol, `source` is compared
   with `git show <sourceRev>:<path>` at the recorded lines.

It prints, per repository, a summary table and examples of each class of difference.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from collections import Counter, defaultdict

HEX40 = re.compile(r"^[0-9a-f]{40}$")


def run(args, cwd=None, env=None, check=True):
    p = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args[:6]), p.returncode, p.stderr.decode(errors="replace")[:500]))
    return p.stdout.decode("utf-8", errors="surrogateescape")


def git(repo, *args):
    return run(["git", "-C", repo] + list(args))


class Tool:
    def __init__(self, binary, home, repo):
        self.binary, self.repo = binary, repo
        self.env = dict(os.environ, GITNEXUS_HOME=home)

    def pages(self, cmd, args, limit, extra=()):
        out, offset = [], 0
        while True:
            raw = run([self.binary, cmd] + args + ["--repo", self.repo, "--json", "--limit", str(limit), "--offset", str(offset)] + list(extra),
                      cwd=self.repo, env=self.env, check=False)
            try:
                d = json.loads(raw)
            except ValueError:
                return {"status": "error", "raw": raw[:300]}, out
            if d.get("status") != "found":
                return d, out
            out.extend(d.get("commits") or [])
            if not d.get("truncated"):
                return d, out
            offset = d["nextOffset"]


class Index:
    """What the index holds, read from the stable views of .gitnexus/graph.db."""

    def __init__(self, repo):
        db = sqlite3.connect(os.path.join(repo, ".gitnexus", "graph.db"))
        self.parents, self.skipped = {}, {}
        for h, parents, skipped in db.execute("SELECT hash, parents, symbols_skipped FROM commits"):
            self.parents[h] = (parents or "").split()
            if skipped:
                self.skipped[h] = skipped
        self.symbols = [dict(id=r[0], kind=r[1], qn=r[2], path=r[3], start=r[4], end=r[5]) for r in db.execute(
            "SELECT id, kind, qualified_name, file_path, start_line, end_line FROM nodes "
            "WHERE kind IN ('Function','Method','Constructor') AND start_line > 0 ORDER BY id")]
        self.files = {r[0] for r in db.execute("SELECT file_path FROM nodes WHERE kind = 'File'")}
        self.by_file = defaultdict(list)
        for r in db.execute("SELECT id, file_path, start_line, end_line FROM nodes WHERE start_line > 0 AND kind NOT IN ('File','Folder','Package','Community','Process','Commit','HistoricalSymbol')"):
            self.by_file[r[1]].append(r)
        self.sym_changes = defaultdict(list)  # commit hash -> [(symbol_id, path, qualified_name, change)]
        for cid, sid, path, qn, ch in db.execute("SELECT commit_id, symbol_id, path, qualified_name, change FROM symbol_changes"):
            self.sym_changes[cid[len("Commit:"):]].append((sid, path, qn, ch))
        self.file_changes = defaultdict(set)  # commit hash -> paths (after and before)
        for cid, path, old in db.execute("SELECT commit_id, path, old_path FROM file_changes"):
            s = self.file_changes[cid[len("Commit:"):]]
            s.add(path)
            if old:
                s.add(old)
        db.close()


# ---------------------------------------------------------------- file history

def git_follow(repo, path):
    """[(hash, status, path_after, path_before)] newest first, first-parent, --follow."""
    out = git(repo, "log", "--first-parent", "--follow", "--name-status", "--format=%x01%H", "--", path)
    res, cur = [], None
    for line in out.split("\n"):
        if line.startswith("\x01"):
            cur = line[1:]
            res.append([cur, "", "", ""])
        elif line.strip() and cur:
            f = line.split("\t")
            st = f[0][:1]
            if res[-1][1]:
                continue
            if st in "RC" and len(f) >= 3:
                res[-1][1:] = [st, f[2], f[1]]
            else:
                res[-1][1:] = [st, f[-1], ""]
    return [tuple(r) for r in res]


def check_file(repo, tool, idx, path, order):
    d, ours = tool.pages("get-file-history", ["--path", path], 100)
    if d.get("status") != "found":
        return dict(path=path, cls="not-found", detail=str(d)[:200])
    ghist = [r for r in git_follow(repo, path) if r[0] in idx.parents]
    g = [r[0] for r in ghist]
    o = [c["hash"] for c in ours]
    dups = sorted({h for h in o if o.count(h) > 1})
    if dups:
        c = [x for x in ours if x["hash"] == dups[0]]
        return dict(path=path, cls="ours lists a commit twice", git_n=len(g), ours_n=len(o),
                    example="%s listed %d times: %s" % (dups[0][:10], len(c), ", ".join("%s %s" % (x["changeType"], x["path"]) for x in c)))
    if g == o:
        return dict(path=path, cls="equal")
    gs, os_ = set(g), set(o)
    gonly = [h for h in g if h not in os_]
    oonly = [h for h in o if h not in gs]
    res = dict(path=path, git_only=gonly, ours_only=oonly, git_n=len(g), ours_n=len(o))
    if not gonly and not oonly:
        res["cls"] = "order"
        return res
    opath = {c["hash"]: (c.get("changeType"), c.get("path"), c.get("oldPath", "")) for c in ours}
    classes, examples = [], []
    # 1. git's chain leaves ours at a copy or rename we do not make
    for h, st, p, old in ghist:
        if st in "RC" and h in opath and opath[h][0] != "R":
            classes.append("git --follow takes a copy (C), we record an add" if st == "C" else "git --follow pairs a rename we do not")
            examples.append("%s: git %s %s -> %s; ours %s %s" % (h[:10], st, old, p, opath[h][0], opath[h][2] or opath[h][1]))
            break
        if st == "R" and h in opath and opath[h][0] == "R" and opath[h][2] != old:
            classes.append("git --follow and we pick different rename sources")
            examples.append("%s: git R %s -> %s; ours R %s -> %s" % (h[:10], old, p, opath[h][2], opath[h][1]))
            break
    # 2. git continues past our oldest add under the same name (an earlier file of that name)
    if o and opath[o[-1]][0] == "A" and o[-1] in gs:
        older = g[g.index(o[-1]) + 1:]
        if older and not classes:
            classes.append("git --follow goes on past the add (an earlier, deleted file of the same name)")
            examples.append("%s: ours and git: A %s; git then lists %d older commits, e.g. %s" % (o[-1][:10], opath[o[-1]][1], len(older), older[0][:10]))
    # 3. we stop at a rename git follows on past
    if o and opath[o[-1]][0] == "R" and o[-1] in gs and g[g.index(o[-1]) + 1:]:
        older = g[g.index(o[-1]) + 1:]
        classes.append("we stop at a rename (file at HEAD is not in the graph: %s)" % ("binary, too large or skipped" if path not in idx.files else "indexed"))
        examples.append("%s: ours R %s -> %s is our oldest; git lists %d older commits under the old name, e.g. %s" % (o[-1][:10], opath[o[-1]][2], opath[o[-1]][1], len(older), older[0][:10]))
    # 4. ours lists commits at a path of the chain made when the file had another name
    gname_before = []  # (first-parent position, the name git follows below that commit)
    for h, st, p, old in ghist:
        gname_before.append((order.get(h, -1), old if st in "RC" else p))

    def git_name_at(h):
        pos, name = order.get(h, -1), path
        for gp, nm in gname_before:
            if gp < pos:
                name = nm
        return name

    for h in (oonly if not classes else []):
        ct, p, old = opath[h]
        if ct == "R" and old not in {r[2] for r in ghist} | {r[3] for r in ghist}:
            classes.append("we follow a rename git --follow does not")
            examples.append("%s: ours R %s -> %s; git does not list it" % (h[:10], old, p))
            break
        if p != git_name_at(h) and old != git_name_at(h):
            classes.append("ours lists an earlier, unrelated file at a path of the chain")
            examples.append("%s: ours %s %s; git follows %s at that point" % (h[:10], ct, p, git_name_at(h)))
            break
    res["cls"] = " + ".join(classes) if classes else "unexplained"
    res["example"] = "; ".join(examples) if examples else "git only %s; ours only %s" % ([x[:10] for x in gonly[:3]], [x[:10] for x in oonly[:3]])
    return res


# ---------------------------------------------------------------- symbol history

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def git_L(repo, start, end, path, rev="HEAD"):
    """git log -L: [hash] newest first, and {hash: [old lines, new lines, added lines]} of the range's first hunk."""
    out = git(repo, "log", "-L%d,%d:%s" % (start, end, path), "--format=%x01%H", rev)
    hashes, hunk, cur, inhunk = [], {}, None, False
    for l in out.split("\n"):
        if l.startswith("\x01"):
            cur, inhunk = l[1:], False
            hashes.append(cur)
        elif cur and l.startswith("@@ ") and cur not in hunk:
            m = HUNK.match(l)
            if m:
                hunk[cur] = [int(m.group(2) if m.group(2) is not None else 1), int(m.group(4) if m.group(4) is not None else 1), 0]
                inhunk = True
        elif inhunk and l.startswith("+"):
            hunk[cur][2] += 1
        elif inhunk and l.startswith("diff --git"):
            inhunk = False
    return hashes, hunk


def nested_in(idx, sym, h):
    """Does our index attribute commit h to a symbol nested inside sym?"""
    inner = {r[0] for r in idx.by_file[sym["path"]] if r[0] != sym["id"] and r[2] >= sym["start"] and r[3] <= sym["end"]}
    qn = sym["id"].split(":", 2)[2]
    qn = re.sub(r"\(.*$", "", qn)  # overload suffix
    outer = qn.rsplit(".", 1)[0] if "." in qn else None
    for sid, path, q, _ in idx.sym_changes.get(h, []):
        if sid in inner:
            return True
        if sid.startswith("HistoricalSymbol:") and (q.startswith(qn + ".") or q.startswith(qn + "$")):
            return True
        # a Java anonymous class (Outer.$2.run) sits inside some method of Outer
        if outer and path == sym["path"] and q.startswith(outer + ".$"):
            return True
    return False


def check_symbol(repo, tool, idx, sym, merge_of, first_parent, source_samples):
    d, ours = tool.pages("get-symbol-history", ["--uid", sym["id"]], 20, ["--include-source"] if source_samples else [])
    if d.get("status") != "found":
        return dict(sym=sym["id"], cls=["not-found"], detail=str(d)[:200])
    gl, hunk = git_L(repo, sym["start"], sym["end"], sym["path"])
    hashes = [c["hash"] for c in ours]
    dup = sorted({h for h in hashes if hashes.count(h) > 1})
    gset = set(gl)
    oset, merges_empty = set(), set()
    our_merge = {}
    for c in ours:
        h = c["hash"]
        if len(idx.parents.get(h, [])) > 1:
            mf = [m["hash"] for m in c.get("mergedFrom") or []]
            our_merge[h] = mf
            if mf:
                oset.update(mf)
            else:
                oset.add(h)
                merges_empty.add(h)
        else:
            oset.add(h)
    res = dict(sym=sym["id"], path=sym["path"], lines="%d-%d" % (sym["start"], sym["end"]), git_n=len(gset), ours_n=len(oset), diffs=[])
    order = {h: i for i, h in enumerate(first_parent)}  # first-parent position, 0 = HEAD

    def fp_pos(h):
        if h in order:
            return order[h]
        m = merge_of.get(h)
        return order.get(m, 10 ** 9)

    # where our history starts: our oldest entry (an 'added' one, normally)
    oldest = ours[-1] if ours else None
    oldest_pos = fp_pos(oldest["hash"]) if oldest else -1
    skipped_in_git = [h for h in gl if h in idx.skipped or merge_of.get(h) in idx.skipped]
    git_oldest_pos = max((fp_pos(h) for h in gset), default=-1)
    ours_by = {c["hash"]: c for c in ours}

    def past_add_note():
        """Why git -L goes on past the commit where we say the symbol was added."""
        a = oldest["hash"]
        kind = sym["id"].split(":", 1)[0]
        if any(ch == "deleted" and sid.startswith("HistoricalSymbol:" + kind + ":") for sid, _, _, ch in idx.sym_changes.get(a, [])):
            return "the symbol was renamed or moved there (we match by name, git -L follows lines)"
        at = a if a in hunk else next((m["hash"] for m in oldest.get("mergedFrom") or [] if m["hash"] in hunk), None)
        if at:  # git's hunk at our 'added' commit, or at the branch commit of a merge that made it
            old_n, new_n, plus = hunk[at]
            ext = oldest["endLine"] - oldest["startLine"] + 1
            if new_n - plus <= 2:
                return "git -L keeps a boundary line (blank, decorator, brace) past the add"
            if new_n > ext:
                return "git -L's range there is larger than the symbol (takes in older neighbouring lines)"
            return "git -L's diff keeps some of the new symbol's lines from older code (a body extracted or copied from, or aligned with, another symbol)"
        return "other"

    def range_note(h, git_side):
        """Compare git -L's range with our symbol's extent around commit h."""
        pos = fp_pos(h)
        if git_side:
            g_len = hunk.get(h, (0, 0, 0))[1]  # git's range after h
            newer = [c for c in ours if fp_pos(c["hash"]) < pos]
            ext = (newer[-1]["endLine"] - newer[-1]["startLine"] + 1) if newer else 0
            if ext and g_len > ext:
                return "git -L's range is larger than the symbol there: it takes in neighbouring lines"
            return "the commit's changed lines git -L puts in the range lie outside the symbol as we parse it"
        newer = [x for x in gl if fp_pos(x) < pos]
        g_len = hunk.get(newer[-1], (0, 0, 0))[0] if newer else 0  # git's range before its next-newer commit
        c = ours_by.get(h)
        ext = (c["endLine"] - c["startLine"] + 1) if c and c.get("startLine") else 0
        if ext and g_len < ext:
            return "git -L's range has shrunk to the lines that survived later rewrites"
        return "the change lies in the symbol as we parse it but outside git -L's range (boundary lines, diff alignment)"

    for h in gl:
        if h in oset:
            continue
        m = merge_of.get(h)
        pos = fp_pos(h)
        is_merge = len(git(repo, "rev-list", "--parents", "-1", h).split()) > 2 if m is not None else False
        if h not in idx.parents and m is None:
            cls = "git only: not indexed"
        elif h in idx.skipped or (m is not None and m in idx.skipped):
            cls = "git only: symbolsSkip (%s)" % idx.skipped.get(h, idx.skipped.get(m))
        elif oldest is None and skipped_in_git:
            cls = "git only: older than a guarded commit that added the symbol"
        elif oldest is not None and pos > oldest_pos and oldest.get("change") == "added":
            cls = "git only: older than our 'added': " + past_add_note()
        elif oldest is None:
            cls = "git only: we list nothing; symbol renamed/extracted/moved"
        elif is_merge:
            cls = "git only: branch-side merge (mergedFrom is --no-merges)"
        elif m is not None and m not in our_merge and nested_in(idx, sym, m):
            cls = "git only: change in a nested symbol (innermost attribution)"
        elif m is not None and m not in our_merge:
            cls = "git only: branch commit whose merge does not change the symbol against its first parent"
        elif m is not None:
            cls = "git only: branch commit missing from the merge's mergedFrom"
        elif nested_in(idx, sym, h):
            cls = "git only: change in a nested symbol (innermost attribution)"
        elif h in idx.file_changes:
            cls = "git only: range tracking (%s)" % range_note(h, True)
        else:
            cls = "git only: unexplained"
        res["diffs"].append((cls, h))
    for h in sorted(oset - gset, key=fp_pos):
        if h in merges_empty:
            cls = "ours only: merge with empty mergedFrom"
        elif oldest is not None and h == oldest["hash"] and oldest.get("change") == "added":
            cls = "ours only: our 'added', git -L sees no change there: " + past_add_note()
        elif gset and fp_pos(h) > git_oldest_pos:
            cls = "ours only: older than git -L's start (git -L's range was created later)"
        elif merge_of.get(h) is not None:
            cls = "ours only: mergedFrom commit that git -L from HEAD does not list"
        else:
            cls = "ours only: range tracking (%s)" % range_note(h, False)
        res["diffs"].append((cls, h))
    if dup:
        res["diffs"].append(("ours lists a commit twice", dup[0]))
    res["cls"] = sorted({c for c, _ in res["diffs"]}) or ["equal"]
    # source check
    src = []
    withsrc = [c for c in ours if "source" in c or c.get("sourceMissing")]
    rnd = random.Random(sym["id"])
    for c in rnd.sample(withsrc, min(source_samples, len(withsrc))):
        if c.get("sourceMissing"):
            src.append(("missing", c["hash"], ""))
            continue
        rev = c.get("sourceRev") or c["hash"]
        try:
            blob = git(repo, "show", "%s:%s" % (rev, c["path"]))
        except RuntimeError as e:
            src.append(("git-show-failed", c["hash"], str(e)[:200]))
            continue
        lines = blob.split("\n")
        want = "\n".join(lines[c["startLine"] - 1:c["endLine"]][:300])
        got = c["source"]
        if got.rstrip("\n") == want.rstrip("\n"):
            src.append(("equal", c["hash"], ""))
        else:
            src.append(("differs", c["hash"], "%s %s:%d-%d rev %s" % (c["change"], c["path"], c["startLine"], c["endLine"], rev[:10])))
    res["source"] = src
    return res


# ---------------------------------------------------------------- driver

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+")
    ap.add_argument("--bin", default="gitnexus")
    ap.add_argument("--home", default=os.environ.get("GITNEXUS_HOME", ""))
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--source-samples", type=int, default=3, help="entries per symbol whose source is checked")
    ap.add_argument("--workers", type=int, default=3)
    ap.add_argument("--examples", type=int, default=2, help="examples printed per class")
    ap.add_argument("--skip-files", action="store_true")
    ap.add_argument("--json", help="write every result to this file")
    a = ap.parse_args()
    everything = {}
    for repo in a.repos:
        repo = os.path.abspath(repo)
        name = os.path.basename(repo)
        idx = Index(repo)
        tool = Tool(a.bin, a.home, repo)
        first_parent = git(repo, "rev-list", "--first-parent", "HEAD").split()
        merge_of = {}
        for h in first_parent:
            ps = idx.parents.get(h, [])
            if len(ps) > 1:
                for b in git(repo, "rev-list", h, "^" + ps[0]).split():
                    if b != h:
                        merge_of.setdefault(b, h)
        print("== %s: %d commits indexed, %d first-parent, %d reached through merges, %d guarded" % (
            name, len(idx.parents), len(first_parent), len(merge_of), len(idx.skipped)), flush=True)
        out = everything[name] = {}
        with concurrent.futures.ThreadPoolExecutor(a.workers) as pool:
            if not a.skip_files:
                files = [l.split("\t", 1)[1] for l in git(repo, "ls-tree", "-r", "--full-tree", "HEAD").split("\n")
                         if l and l.split()[1] == "blob"]
                order = {h: i for i, h in enumerate(first_parent)}
                fres = list(pool.map(lambda p: check_file(repo, tool, idx, p, order), files))
                out["files"] = fres
                cnt = Counter(r["cls"] for r in fres)
                print("\nfile history: %d files" % len(fres))
                for cls, n in cnt.most_common():
                    print("  %-40s %5d" % (cls, n))
                for cls in cnt:
                    if cls == "equal":
                        continue
                    for r in [r for r in fres if r["cls"] == cls][:a.examples]:
                        print("  [%s] %s: git %s, ours %s; %s" % (cls, r["path"], r.get("git_n"), r.get("ours_n"), r.get("example") or r.get("detail", "")))
            rnd = random.Random("%s:%d" % (name, a.seed))
            sample = rnd.sample(idx.symbols, min(a.samples, len(idx.symbols)))
            sres = list(pool.map(lambda s: check_symbol(repo, tool, idx, s, merge_of, first_parent, a.source_samples), sample))
        out["symbols"] = sres
        symcls, commitcls, ex = Counter(), Counter(), defaultdict(list)
        for r in sres:
            for c in r["cls"]:
                symcls[c] += 1
            for c, h in r.get("diffs", []):
                commitcls[c] += 1
                ex[c].append("%s %s (%s): %s; git %d commits, ours %d" % (h[:10], r["sym"], r["lines"], c, r["git_n"], r["ours_n"]))
        print("\nsymbol history: %d symbols sampled, %d equal" % (len(sres), symcls.get("equal", 0)))
        print("  %-62s %8s %8s" % ("class", "symbols", "commits"))
        for c, n in symcls.most_common():
            print("  %-62s %8d %8d" % (c, n, commitcls.get(c, 0)))
        for c in ex:
            for e in ex[c][:a.examples]:
                print("  [%s] %s" % (c, e))
        srcs = Counter(s[0] for r in sres for s in r.get("source", []))
        print("\nsource: %s" % dict(srcs))
        for r in sres:
            for s in r.get("source", []):
                if s[0] != "equal":
                    print("  [%s] %s %s %s" % (s[0], r["sym"], s[1][:10], s[2]))
        print(flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(everything, f, indent=1, default=list)


if __name__ == "__main__":
    main()
