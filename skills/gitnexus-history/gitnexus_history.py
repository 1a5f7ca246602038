#!/usr/bin/env python3
"""Ask a GitNexus server about a repository's history.

Two questions, one command each:

  search "<feature>"   which commits implemented a feature, and which files and
                       functions they touched most
  file <path>          how a file evolved: its commits, grouped by intent when
                       there are more than five, with the functions each group
                       changed

The answers come from the REST API of `gitnexus serve` (docs/http.md). When
the server cannot be reached (after retries) or its index has no history,
the commands fall back to git on the local repository and say so: on stderr,
and in the JSON output as "degraded": true with the "source" used.

Standard library only. Exit status: 0 answered (degraded or not), 1 the
server refused the request (4xx) or the fallback failed, 2 bad usage.
"""

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8910"
DEFAULT_TIMEOUT = 10.0
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 0.5
CLUSTER_ABOVE = 5  # a file with more commits than this is clustered
MAX_CLUSTER_COMMITS = 300  # the server clusters at most this many
NO_HISTORY = "has no git history"  # the server's 404 for an index without history


class ServerError(Exception):
    """The server answered with a 4xx status: the request itself is wrong."""

    def __init__(self, status, message):
        super().__init__("%d: %s" % (status, message))
        self.status = status
        self.message = message


class Unreachable(Exception):
    """No answer after every attempt: connection errors, timeouts or 5xx."""

    def __init__(self, reason, attempts):
        super().__init__("%s (%d attempts)" % (reason, attempts))
        self.reason = reason
        self.attempts = attempts


class Client:
    """The REST API of `gitnexus serve`, with a timeout per request and
    retries with exponential backoff for connection errors and 5xx answers
    (never for 4xx)."""

    def __init__(self, base_url=DEFAULT_URL, token=None, repo=None, timeout=DEFAULT_TIMEOUT,
                 retries=DEFAULT_RETRIES, backoff=DEFAULT_BACKOFF, log=None):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.repo = repo
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.log = log
        self.requests = 0  # HTTP requests sent, retries included

    def request(self, method, path, query=None, body=None):
        """Sends one request and returns (decoded JSON, headers)."""
        params = dict(query or {})
        if self.repo:
            params["repo"] = self.repo
        url = self.base_url + path
        params = {k: v for k, v in params.items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        attempts = self.retries + 1
        reason = ""
        for attempt in range(attempts):
            if attempt > 0:
                delay = self.backoff * (2 ** (attempt - 1))
                if self.log:
                    self.log("retrying %s %s in %.2fs (%s)" % (method, path, delay, reason))
                time.sleep(delay)
            self.requests += 1
            req = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read().decode("utf-8")), resp.headers
            except urllib.error.HTTPError as e:
                message = error_message(e)
                if e.code < 500:
                    raise ServerError(e.code, message) from None
                reason = "HTTP %d: %s" % (e.code, message)
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, TimeoutError) as e:
                reason = str(getattr(e, "reason", e)) or type(e).__name__
            except ValueError as e:  # an answer that is not JSON
                reason = "not a JSON answer: %s" % e
        raise Unreachable("%s %s: %s" % (method, url, reason), attempts)

    def semantic_search(self, query, top_k):
        hits, _ = self.request("POST", "/api/v1/semantic_search", body={"query": query, "top_k": top_k})
        return hits

    def commit_files(self, commit):
        ans, _ = self.request("GET", "/api/v1/commit/%s/files" % quote_segment(commit))
        return ans["files"]

    def commit_functions(self, commit, filter_file=None):
        ans, _ = self.request("GET", "/api/v1/commit/%s/functions" % quote_segment(commit),
                              query={"filter_file": filter_file})
        return ans

    def file_commits(self, path, limit, offset, since=None, until=None):
        """One page of a file's commits: (commits, total, next offset or None)."""
        ans, headers = self.request("GET", "/api/v1/file/%s/commits" % urllib.parse.quote(path, safe="/"),
                                    query={"limit": limit, "offset": offset, "since": since, "until": until})
        total = int(headers.get("X-Total-Count", len(ans)))
        nxt = headers.get("X-Next-Offset")
        return ans, total, (int(nxt) if nxt else None)

    def cluster(self, file=None, commits=None):
        body = {"file": file} if file is not None else {"commits": commits}
        ans, _ = self.request("POST", "/api/v1/commit/cluster", body=body)
        return ans["clusters"]


def error_message(e):
    """The "error" of a JSON error body, else the status text."""
    try:
        return json.loads(e.read().decode("utf-8"))["error"]
    except Exception:  # not our JSON: a proxy's page, an empty body
        return e.reason if isinstance(e.reason, str) else str(e.code)


def quote_segment(s):
    return urllib.parse.quote(s, safe="")


def subject(message):
    return message.split("\n", 1)[0]


# --- search: feature -> commits -> files and functions ---------------------


def search(client, query, top_k):
    """Commits matching the feature, the files and functions they changed,
    and which of those the commits touched most."""
    commits = []
    for hit in client.semantic_search(query, top_k):
        files = []
        for f in client.commit_files(hit["commit_hash"]):
            files.append({
                "path": f["path"],
                "change_type": f["change_type"],
                "additions": f["additions"],
                "deletions": f["deletions"],
                "functions": [{"id": fn["id"], "name": fn["name"]} for fn in f["functions"]],
            })
        commits.append({"hash": hit["commit_hash"], "score": hit["score"], "summary": hit["summary"], "files": files})
    out = {"query": query, "degraded": False, "source": "semantic_search", "commits": commits}
    out.update(aggregate(commits))
    return out


def aggregate(commits):
    """How many of the commits touched each file and each function, most
    touched first (ties by path, then id)."""
    files, functions = {}, {}
    for c in commits:
        seen_files, seen_functions = set(), set()
        for f in c["files"]:
            if f["path"] not in seen_files:
                seen_files.add(f["path"])
                entry = files.setdefault(f["path"], {"path": f["path"], "commits": 0, "additions": 0, "deletions": 0})
                entry["commits"] += 1
            entry = files[f["path"]]
            entry["additions"] += f["additions"]
            entry["deletions"] += f["deletions"]
            for fn in f.get("functions", []):
                if fn["id"] in seen_functions:
                    continue
                seen_functions.add(fn["id"])
                e = functions.setdefault(fn["id"], {"id": fn["id"], "name": fn["name"], "file": f["path"], "commits": 0})
                e["commits"] += 1
    return {
        "files": sorted(files.values(), key=lambda e: (-e["commits"], e["path"])),
        "functions": sorted(functions.values(), key=lambda e: (-e["commits"], e["file"], e["id"])),
    }


# --- file: file -> commits -> clusters -> functions ------------------------


def file_history(client, path, max_commits, page_size, since=None, until=None, cluster_functions=10):
    """A file's commits (newest first, following renames, up to max_commits),
    clustered by intent when there are more than CLUSTER_ABOVE."""
    commits, total, offset = [], 0, 0
    while offset is not None and len(commits) < max_commits:
        page, total, offset = client.file_commits(path, min(page_size, max_commits - len(commits)), offset, since, until)
        commits.extend(page)
        if not page:
            break
    out = {
        "path": path,
        "degraded": False,
        "source": "file/{path}/commits",
        "total": total,
        "truncated": len(commits) < total,
        "commits": [{
            "hash": c["hash"], "subject": subject(c["message"]), "author": c["author"], "time": c["time"],
            "change_type": c["change_type"], "path": c["path"], "additions": c["additions"], "deletions": c["deletions"],
        } for c in commits],
        "clusters": None,
    }
    path_at = {c["hash"]: c["path"] for c in commits}
    by_hash = {c["hash"]: c for c in out["commits"]}
    if len(commits) <= CLUSTER_ABOVE:
        for c in out["commits"]:
            c["functions"] = functions_of(client, c["hash"], path_at[c["hash"]])
        return out
    if not since and not until and not out["truncated"] and total <= MAX_CLUSTER_COMMITS:
        clusters = client.cluster(file=path)
    else:
        clusters = client.cluster(commits=[{"hash": c["hash"], "message": c["message"]} for c in commits[:MAX_CLUSTER_COMMITS]])
    out["clusters"] = []
    for cl in clusters:
        rep = cl["representative"]
        rep_functions = functions_of(client, rep, path_at.get(rep, path))
        counted = {}
        looked = cl["commits"][:cluster_functions]
        for h in looked:
            fns = rep_functions if h == rep else functions_of(client, h, path_at.get(h, path))
            for fn in fns:
                e = counted.setdefault(fn["id"], {"id": fn["id"], "name": fn["name"], "commits": 0})
                e["commits"] += 1
        r = by_hash.get(rep, {})
        out["clusters"].append({
            "label": cl["label"],
            "terms": cl["terms"],
            "commits": cl["commits"],
            "representative": {"hash": rep, "subject": r.get("subject", ""), "time": r.get("time", ""),
                               "functions": rep_functions},
            "functions": sorted(counted.values(), key=lambda e: (-e["commits"], e["id"])),
            "functions_from": len(looked),
        })
    return out


def functions_of(client, commit, path):
    return [{"id": f["function_id"], "name": f["name"], "change_type": f["change_type"]}
            for f in client.commit_functions(commit, filter_file=path)]


# --- degraded mode: git on the local repository ----------------------------

STOP_WORDS = {"a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it", "of",
              "on", "or", "that", "the", "this", "to", "with"}
FIELD, RECORD = "\x1f", "\x1e"


def git(repo_path, *args):
    try:
        res = subprocess.run(["git", "-C", repo_path] + list(args), capture_output=True, text=True,
                             encoding="utf-8", errors="replace")
    except OSError as e:
        raise FallbackError("cannot run git: %s" % e) from None
    if res.returncode != 0:
        raise FallbackError("git %s in %s: %s" % (args[0], repo_path, res.stderr.strip()))
    return res.stdout


class FallbackError(Exception):
    """The local fallback could not answer either."""


def query_words(query):
    """The words git log --grep looks for: lower-cased, without stop words
    (all of them when only stop words are left)."""
    words = [w for w in re.findall(r"[\w-]+", query.lower()) if w.strip("-")]
    kept = [w for w in words if w not in STOP_WORDS]
    return list(dict.fromkeys(kept or words))


def grep_search(repo_path, query, top_k, reason, max_scan=5000):
    """search without the server: commits whose message holds any of the
    query's words (case-insensitive), most words first, then newest; files
    from git's numstat; no functions."""
    words = query_words(query)
    if not words:
        raise FallbackError("the query %r has no words to look for" % query)
    args = ["log", "-i", "-F", "--no-color", "--numstat", "--no-renames", "-n", str(max_scan),
            "--format=" + RECORD + "%H" + FIELD + "%an" + FIELD + "%aI" + FIELD + "%B" + FIELD]
    args += ["--grep=" + w for w in words]
    found = []
    for order, rec in enumerate(git(repo_path, *args).split(RECORD)[1:]):
        h, author, when, message, numstat = rec.split(FIELD, 4)
        text = message.lower()
        score = sum(1 for w in words if w in text)
        files = []
        for line in numstat.strip().splitlines():
            parts = line.split("\t", 2)
            if len(parts) == 3:
                files.append({"path": parts[2], "additions": to_int(parts[0]), "deletions": to_int(parts[1]),
                              "functions": []})
        found.append((-score, order, {"hash": h, "score": score, "summary": subject(message.strip()),
                                      "author": author, "time": when, "files": files}))
    found.sort(key=lambda t: (t[0], t[1]))
    commits = [c for _, _, c in found[:top_k]]
    out = {"query": query, "degraded": True, "source": "git log --grep", "reason": reason, "words": words,
           "commits": commits}
    out.update(aggregate(commits))
    out["note"] = "functions need the server: git log --grep reads only commit messages and file names"
    return out


def to_int(s):
    return int(s) if s.isdigit() else 0  # "-" for binary files


def follow_history(repo_path, path, max_commits, reason, since=None, until=None):
    """file without the server: git log --follow, newest first; no clusters,
    no functions."""
    args = ["log", "--follow", "--no-color", "--name-status", "-n", str(max_commits),
            "--format=" + RECORD + "%H" + FIELD + "%an" + FIELD + "%aI" + FIELD + "%s" + FIELD]
    if since:
        args.append("--since=" + since)
    if until:
        args.append("--until=" + until + " 23:59:59")
    args += ["--", path]
    commits = []
    for rec in git(repo_path, *args).split(RECORD)[1:]:
        h, author, when, subj, status = rec.split(FIELD, 4)
        change, at = "", path
        for line in status.strip().splitlines():
            parts = line.split("\t")
            change, at = parts[0][:1], parts[-1]
        commits.append({"hash": h, "subject": subj, "author": author, "time": when, "change_type": change, "path": at})
    if not commits:
        raise FallbackError("git log --follow finds no commit of %s in %s" % (path, repo_path))
    return {"path": path, "degraded": True, "source": "git log --follow", "reason": reason, "total": len(commits),
            "truncated": len(commits) == max_commits, "commits": commits, "clusters": None,
            "note": "clusters and functions need the server: git log --follow lists only the commits"}


def repo_relative(repo_path, path):
    """path relative to the repository root: an absolute path inside it is
    made relative, a leading ./ dropped."""
    if os.path.isabs(path):
        top = git(repo_path, "rev-parse", "--show-toplevel").strip()
        rel = os.path.relpath(os.path.realpath(path), os.path.realpath(top))
        if rel.startswith(".."):
            raise FallbackError("%s is outside the repository %s" % (path, top))
        return rel.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def git_root(repo_path):
    return git(repo_path, "rev-parse", "--show-toplevel").strip()


def should_degrade(err):
    """Whether an error calls for the local fallback: no server, or a server
    whose index has no history."""
    if isinstance(err, Unreachable):
        return "server unreachable: %s" % err
    if isinstance(err, ServerError) and err.status == 404 and NO_HISTORY in err.message:
        return "the server's index has no history: %s" % err.message
    return None


# --- output ----------------------------------------------------------------


def print_search(out, w, show):
    head = "Commits matching %r" % out["query"]
    if out["degraded"]:
        head += " (degraded: %s, words %s; no functions)" % (out["source"], ", ".join(out["words"]))
    w.write("%s: %d\n" % (head, len(out["commits"])))
    for c in out["commits"]:
        score = ("%.2f" % c["score"]) if isinstance(c["score"], float) else str(c["score"])
        w.write("  %s  %-6s %s\n" % (c["hash"][:10], score, c["summary"]))
    if not out["commits"]:
        return
    w.write("\nFiles the matching commits touched most:\n")
    for f in out["files"][:show]:
        w.write("  %3d  %s  (+%d -%d)\n" % (f["commits"], f["path"], f["additions"], f["deletions"]))
    more(w, out["files"], show)
    if out["functions"]:
        w.write("\nFunctions they changed most:\n")
        for fn in out["functions"][:show]:
            w.write("  %3d  %s  %s\n" % (fn["commits"], fn["name"], fn["id"]))
        more(w, out["functions"], show)


def print_file(out, w, show):
    head = "History of %s: %d commits" % (out["path"], out["total"])
    if out["truncated"]:
        head += " (%d read)" % len(out["commits"])
    if out["degraded"]:
        head += " (degraded: %s; no clusters, no functions)" % out["source"]
    w.write(head + "\n")
    if out["clusters"] is None:
        for c in out["commits"]:
            w.write("  %s  %s  %s%s\n" % (c["hash"][:10], c["time"][:10], c["subject"], renamed(c, out["path"])))
            for fn in c.get("functions", []):
                w.write("      %s %s\n" % (fn["change_type"], fn["id"]))
        return
    subjects = {c["hash"]: c for c in out["commits"]}
    w.write("%d clusters by intent:\n" % len(out["clusters"]))
    for i, cl in enumerate(out["clusters"], 1):
        rep = cl["representative"]
        w.write("\n[%d] %s (%d commits)\n" % (i, cl["label"] or "(no common terms)", len(cl["commits"])))
        w.write("    representative %s  %s  %s\n" % (rep["hash"][:10], rep["time"][:10], rep["subject"]))
        for fn in rep["functions"]:
            w.write("      %s %s\n" % (fn["change_type"], fn["id"]))
        if cl["functions"]:
            w.write("    functions changed (in %d of its commits): %s\n" % (cl["functions_from"], ", ".join(
                "%s x%d" % (fn["name"], fn["commits"]) for fn in cl["functions"][:show])))
        for h in cl["commits"][:show]:
            c = subjects.get(h, {"time": "", "subject": ""})
            w.write("    %s  %s  %s\n" % (h[:10], c["time"][:10], c["subject"]))
        more(w, cl["commits"], show, indent="    ")


def renamed(c, path):
    return "  (as %s)" % c["path"] if c.get("path") and c["path"] != path else ""


def more(w, items, show, indent="  "):
    if len(items) > show:
        w.write("%s... %d more (--json for all)\n" % (indent, len(items) - show))


# --- command line ----------------------------------------------------------


def parse_args(argv):
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--url", default=os.environ.get("GITNEXUS_URL", DEFAULT_URL),
                        help="server base URL (default $GITNEXUS_URL or %s)" % DEFAULT_URL)
    common.add_argument("--repo", help="repository on the server: id, name or path (default: the server's choice)")
    common.add_argument("--repo-path", default=".", help="local repository for the git fallback (default: .)")
    common.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per request (default 10)")
    common.add_argument("--retries", type=int, default=DEFAULT_RETRIES,
                        help="retries after a connection error or 5xx (default 3)")
    common.add_argument("--backoff", type=float, default=DEFAULT_BACKOFF,
                        help="first retry delay in seconds, doubled each time (default 0.5)")
    common.add_argument("--json", action="store_true", help="print the answer as JSON")
    common.add_argument("--show", type=int, default=15, help="rows per list in the text output (default 15)")
    p = argparse.ArgumentParser(prog="gitnexus_history.py", description=__doc__.split("\n\n")[0],
                                epilog="The token, if the server has one, comes from $GITNEXUS_AUTH_TOKEN.")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("search", parents=[common], help="feature -> commits -> files and functions")
    s.add_argument("feature", nargs="+", help="words describing the feature")
    s.add_argument("--top-k", type=int, default=10, help="commits to take (1-100, default 10)")
    f = sub.add_parser("file", parents=[common], help="file -> commits, clustered by intent")
    f.add_argument("path", help="file path, relative to the repository root")
    f.add_argument("--max-commits", type=int, default=MAX_CLUSTER_COMMITS, help="commits to read at most (default 300)")
    f.add_argument("--page-size", type=int, default=100, help="commits per request (1-100, default 100)")
    f.add_argument("--since", help="only commits on or after this date (YYYY-MM-DD)")
    f.add_argument("--until", help="only commits on or before this date (YYYY-MM-DD)")
    f.add_argument("--cluster-functions", type=int, default=10,
                   help="commits per cluster whose functions are counted (default 10)")
    args = p.parse_args(argv)
    if args.retries < 0 or args.backoff < 0 or args.timeout <= 0 or args.show < 1:
        p.error("--retries and --backoff must not be negative, --timeout and --show must be positive")
    if args.command == "search" and not 1 <= args.top_k <= 100:
        p.error("--top-k must be between 1 and 100")
    if args.command == "file" and (args.max_commits < 1 or not 1 <= args.page_size <= 100 or args.cluster_functions < 0):
        p.error("--max-commits must be positive, --page-size between 1 and 100, --cluster-functions not negative")
    return args


def main(argv=None, stdout=None, stderr=None):
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = parse_args(sys.argv[1:] if argv is None else argv)

    def log(msg):
        stderr.write("gitnexus-history: %s\n" % msg)

    client = Client(args.url, token=os.environ.get("GITNEXUS_AUTH_TOKEN") or None, repo=args.repo,
                    timeout=args.timeout, retries=args.retries, backoff=args.backoff, log=log)
    try:
        if args.command == "search":
            query = " ".join(args.feature)
            try:
                out = search(client, query, args.top_k)
            except (Unreachable, ServerError) as e:
                reason = should_degrade(e)
                if not reason:
                    raise
                log("%s; falling back to git log --grep in %s" % (reason, os.path.abspath(args.repo_path)))
                out = grep_search(args.repo_path, query, args.top_k, reason)
            printer = print_search
        else:
            path = repo_relative(args.repo_path, args.path)
            try:
                out = file_history(client, path, args.max_commits, args.page_size, args.since, args.until,
                                   args.cluster_functions)
            except (Unreachable, ServerError) as e:
                reason = should_degrade(e)
                if not reason:
                    raise
                log("%s; falling back to git log --follow in %s" % (reason, os.path.abspath(args.repo_path)))
                out = follow_history(git_root(args.repo_path), path, args.max_commits, reason, args.since, args.until)
            printer = print_file
    except ServerError as e:
        log("the server refused the request: %s" % e)
        return 1
    except FallbackError as e:
        log("the fallback failed too: %s" % e)
        return 1
    out["requests"] = client.requests
    if args.json:
        json.dump(out, stdout, indent=2, ensure_ascii=False, sort_keys=True)
        stdout.write("\n")
    else:
        printer(out, stdout, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
