"""Tests of gitnexus_history.py against the real server.

A fixture repository is built with real git and fixed dates (so its hashes
never change), indexed by `gitnexus analyze` with its own GITNEXUS_HOME,
and served by `gitnexus serve --port 0` on 127.0.0.1. The degraded paths run
with no server at all, or with one that cannot answer.

The binary is $GITNEXUS_BIN, else bin/gitnexus at the root of this
repository (`make build`). Run: python3 -m unittest -v test_gitnexus_history
"""

import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gitnexus_history as gh  # noqa: E402

BIN = os.path.abspath(os.environ.get("GITNEXUS_BIN") or os.path.join(HERE, "..", "..", "bin", "gitnexus"))

LOGIN_GO = """// Package auth signs users in.
package auth

import "errors"

// ErrDenied is returned for a wrong password.
var ErrDenied = errors.New("denied")

// Users maps names to passwords.
type Users map[string]string

// Login checks a user's password.
func Login(u Users, name, password string) error {
	if u[name] != password {
		return ErrDenied
	}
	return nil
}
"""

CART_GO = """// Package cart holds what a customer buys.
package cart

// Line is one product in the cart.
type Line struct {
	SKU   string
	Price int
	Qty   int
}

// Cart is a list of lines.
type Cart struct {
	Lines []Line
}

// Add puts a line in the cart.
func (c *Cart) Add(l Line) {
	c.Lines = append(c.Lines, l)
}

// Total sums the lines.
func (c *Cart) Total() int {
	t := 0
	for _, l := range c.Lines {
		t += l.Price * l.Qty
	}
	return t
}
"""

# Each step: date, message, then edits (path, old text, new text; old ""
# appends), or ("mv", from, to).
STEPS = [
    ("2024-03-02", "auth: retry login with backoff", [
        ("auth/login.go", 'import "errors"\n', 'import (\n\t"errors"\n\t"time"\n)\n'),
        ("auth/login.go", "", "\n// retryDelay is how long to wait before another try.\n"
                              "func retryDelay(attempt int) time.Duration {\n\treturn 100 * time.Millisecond\n}\n"
                              "\n// LoginRetry tries Login up to tries times.\n"
                              "func LoginRetry(u Users, name, password string, tries int) error {\n"
                              "\tvar err error\n\tfor i := 0; i < tries; i++ {\n"
                              "\t\tif err = Login(u, name, password); err == nil {\n\t\t\treturn nil\n\t\t}\n"
                              "\t\ttime.Sleep(retryDelay(i))\n\t}\n\treturn err\n}\n"),
    ]),
    ("2024-03-03", "cart: apply discount codes", [
        ("cart/cart.go", "", "\n// Discount is the percentage a code takes off.\n"
                             "func (c *Cart) Discount(code string) int {\n"
                             "\tif code == \"SPRING\" {\n\t\treturn 10\n\t}\n\treturn 0\n}\n"
                             "\n// TotalWith is the total after the discount of code.\n"
                             "func (c *Cart) TotalWith(code string) int {\n"
                             "\treturn c.Total() * (100 - c.Discount(code)) / 100\n}\n"),
    ]),
    ("2024-03-04", "auth: double the backoff per retry", [
        ("auth/login.go", "\treturn 100 * time.Millisecond\n", "\treturn (100 << attempt) * time.Millisecond\n"),
    ]),
    ("2024-03-05", "cart: discount codes expire", [
        ("cart/cart.go", '\tif code == "SPRING" {\n', '\tif code == "SPRING" && !Expired(code) {\n'),
        ("cart/cart.go", "", "\n// Expired reports whether a discount code is over.\n"
                             "func Expired(code string) bool {\n\treturn code == \"WINTER\"\n}\n"),
    ]),
    ("2024-03-06", "cart: rename cart.go to basket.go", [("mv", "cart/cart.go", "cart/basket.go")]),
    ("2024-03-07", "cart: remove lines by sku", [
        ("cart/basket.go", "", "\n// Remove drops the lines of sku.\n"
                               "func (c *Cart) Remove(sku string) {\n\tkept := c.Lines[:0]\n"
                               "\tfor _, l := range c.Lines {\n\t\tif l.SKU != sku {\n\t\t\tkept = append(kept, l)\n"
                               "\t\t}\n\t}\n\tc.Lines = kept\n}\n"),
    ]),
    ("2024-03-08", "auth: cap the login retry backoff", [
        ("auth/login.go", "\treturn (100 << attempt) * time.Millisecond\n",
         "\tif attempt > 5 {\n\t\tattempt = 5\n\t}\n\treturn (100 << attempt) * time.Millisecond\n"),
    ]),
    ("2024-03-09", "cart: round discounted totals", [
        ("cart/basket.go", "\treturn c.Total() * (100 - c.Discount(code)) / 100\n",
         "\treturn (c.Total()*(100-c.Discount(code)) + 50) / 100\n"),
    ]),
    ("2024-03-10", "cart: remove reports whether a line was there", [
        ("cart/basket.go", "func (c *Cart) Remove(sku string) {\n", "func (c *Cart) Remove(sku string) bool {\n"),
        ("cart/basket.go", "\tc.Lines = kept\n}\n", "\tfound := len(kept) < len(c.Lines)\n\tc.Lines = kept\n\treturn found\n}\n"),
    ]),
    ("2024-03-11", "cart: discount rounding for empty carts", [
        ("cart/basket.go", "func (c *Cart) TotalWith(code string) int {\n",
         "func (c *Cart) TotalWith(code string) int {\n\tif len(c.Lines) == 0 {\n\t\treturn 0\n\t}\n"),
    ]),
]


def git(repo, *args, date=None):
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.com",
               GIT_COMMITTER_NAME="Ada", GIT_COMMITTER_EMAIL="ada@example.com")
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date + "T12:00:00+00:00"
    return subprocess.run(["git", "-C", repo] + list(args), env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def write(repo, rel, text):
    p = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def build_fixture(repo):
    """The shop: sign-in (auth/login.go, 4 commits) and a cart
    (cart/cart.go renamed to cart/basket.go, 8 commits), 11 commits in all.
    Returns {subject: hash}."""
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    write(repo, "go.mod", "module example.com/shop\n\ngo 1.22\n")
    write(repo, "auth/login.go", LOGIN_GO)
    write(repo, "cart/cart.go", CART_GO)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial: sign-in and cart", date="2024-03-01")
    for date, message, edits in STEPS:
        for e in edits:
            if e[0] == "mv":
                git(repo, "mv", e[1], e[2])
                continue
            rel, old, new = e
            with open(os.path.join(repo, rel)) as f:
                text = f.read()
            if old:
                assert old in text, "%s has no %r" % (rel, old)
                text = text.replace(old, new, 1)
            else:
                text += new
            write(repo, rel, text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", message, date=date)
    log = git(repo, "log", "--format=%H %s")
    return {line.split(" ", 1)[1]: line.split(" ", 1)[0] for line in log.splitlines()}


def free_port():
    """A loopback port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Fixture:
    """The fixture repository, indexed once for all tests."""
    tmp = repo = home = None
    hashes = {}
    history_error = None  # "" when the index has history

    @classmethod
    def build(cls):
        if cls.repo:
            return
        if not os.access(BIN, os.X_OK):
            raise RuntimeError("no gitnexus binary at %s: run `make build` (or set GITNEXUS_BIN)" % BIN)
        cls.tmp = tempfile.mkdtemp(prefix="gitnexus-skill-")
        cls.repo = os.path.join(cls.tmp, "shop")
        cls.home = os.path.join(cls.tmp, "home")
        cls.hashes = build_fixture(cls.repo)
        res = subprocess.run([BIN, "analyze", "-q", cls.repo], env=dict(os.environ, GITNEXUS_HOME=cls.home),
                             capture_output=True, text=True, timeout=120)
        if res.returncode != 0:
            raise RuntimeError("gitnexus analyze failed: %s" % res.stderr)

    @classmethod
    def remove(cls):
        if cls.tmp:
            shutil.rmtree(cls.tmp, ignore_errors=True)
            cls.tmp = cls.repo = None


def setUpModule():
    Fixture.build()


def tearDownModule():
    Fixture.remove()


class Server:
    """`gitnexus serve --port 0` on 127.0.0.1 over the fixture's registry,
    under timeout(1) so that it stops by itself even if the tests die."""

    def __init__(self, *flags, home=None):
        self.log = tempfile.TemporaryFile(mode="w+")
        cmd = [BIN, "serve", "--host", "127.0.0.1", "--port", "0"] + list(flags)
        if shutil.which("timeout"):
            cmd = ["timeout", "300"] + cmd
        env = dict(os.environ, GITNEXUS_HOME=home or Fixture.home)
        env.pop("GITNEXUS_AUTH_TOKEN", None)
        self.proc = subprocess.Popen(cmd, env=env, cwd=Fixture.tmp, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        self.url = None
        deadline = time.monotonic() + 20
        while self.url is None:
            self.log.seek(0)
            m = re.search(r"msg=listening url=(\S+)", self.log.read())
            if m:
                self.url = m.group(1)
            elif self.proc.poll() is not None or time.monotonic() > deadline:
                self.log.seek(0)
                text = self.log.read()
                self.stop()
                raise RuntimeError("gitnexus serve did not start: %s" % text)
            else:
                time.sleep(0.02)

    def access_log(self):
        """(method, path, status) of every request the server logged."""
        self.log.seek(0)
        return re.findall(r"msg=request method=(\S+) path=(\S+) status=(\d+)", self.log.read())

    def stop(self):
        if self.log.closed:
            return
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def run_cli(*argv, env=None):
    """Runs the client's main in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    try:
        os.environ.pop("GITNEXUS_AUTH_TOKEN", None)
        os.environ.update(env or {})
        status = gh.main(list(argv), stdout=out, stderr=err)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return status, out.getvalue(), err.getvalue()


def run_json(testcase, *argv):
    status, out, err = run_cli(*(argv + ("--json",)))
    testcase.assertEqual(status, 0, err)
    return json.loads(out), err


def require_history(testcase):
    """Fails the test when `gitnexus analyze` did not index the fixture's
    history (asked once, of a server over the fixture)."""
    if Fixture.history_error is None:
        server = Server()
        try:
            gh.Client(server.url, retries=0).file_commits("auth/login.go", 1, 0)
            Fixture.history_error = ""
        except gh.ServerError as e:
            Fixture.history_error = e.message
        finally:
            server.stop()
    if Fixture.history_error:
        testcase.fail("`gitnexus analyze` did not index the fixture's git history (%s): %s reads no history; "
                      "these tests need a binary whose analyze reads it by default" % (Fixture.history_error, BIN))


class LiveServerTest(unittest.TestCase):
    """The two commands answered by the server."""

    def setUp(self):
        require_history(self)
        self.h = Fixture.hashes
        self.server = Server()

    def tearDown(self):
        self.server.stop()

    def test_search_aggregates_files_and_functions(self):
        out, err = run_json(self, "search", "login", "retry", "backoff", "--url", self.server.url, "--repo", "shop",
                            "--repo-path", Fixture.repo)
        self.assertEqual(err, "")
        self.assertFalse(out["degraded"])
        self.assertEqual(out["source"], "semantic_search")
        got = [(self.subject(c["hash"]), [f["path"] for f in c["files"]]) for c in out["commits"]]
        self.assertEqual(got, [
            ("auth: retry login with backoff", ["auth/login.go"]),
            ("auth: cap the login retry backoff", ["auth/login.go"]),
            ("auth: double the backoff per retry", ["auth/login.go"]),
            ("initial: sign-in and cart", ["auth/login.go", "cart/cart.go", "go.mod"]),
        ])
        self.assertEqual([(f["path"], f["commits"]) for f in out["files"]],
                         [("auth/login.go", 4), ("cart/cart.go", 1), ("go.mod", 1)])
        # Every symbol the commits changed, by how many of them changed it;
        # ties in the order of file (as the commit named it) and id.
        self.assertEqual([(fn["id"], fn["file"], fn["commits"]) for fn in out["functions"]], [
            ("Function:auth/login.go:retryDelay", "auth/login.go", 3),
            ("Function:auth/login.go:Login", "auth/login.go", 1),
            ("Function:auth/login.go:LoginRetry", "auth/login.go", 1),
            ("TypeAlias:auth/login.go:Users", "auth/login.go", 1),
            ("Variable:auth/login.go:ErrDenied", "auth/login.go", 1),
            ("Method:cart/basket.go:Cart.Add", "cart/cart.go", 1),
            ("Method:cart/basket.go:Cart.Total", "cart/cart.go", 1),
            ("Property:cart/basket.go:Cart.Lines", "cart/cart.go", 1),
            ("Property:cart/basket.go:Line.Price", "cart/cart.go", 1),
            ("Property:cart/basket.go:Line.Qty", "cart/cart.go", 1),
            ("Property:cart/basket.go:Line.SKU", "cart/cart.go", 1),
            ("Struct:cart/basket.go:Cart", "cart/cart.go", 1),
            ("Struct:cart/basket.go:Line", "cart/cart.go", 1),
        ])
        # One semantic_search, then the files of each commit.
        self.assertEqual(out["requests"], 1 + len(out["commits"]))

    def subject(self, h):
        return next(s for s, x in self.h.items() if x == h)

    def test_file_few_commits_lists_functions(self):
        out, _ = run_json(self, "file", "auth/login.go", "--url", self.server.url, "--repo-path", Fixture.repo)
        self.assertIsNone(out["clusters"])
        self.assertEqual(out["total"], 4)
        self.assertFalse(out["truncated"])
        got = [(c["subject"], c["time"], [f["id"] + " " + f["change_type"] for f in c["functions"]])
               for c in out["commits"]]
        self.assertEqual(got, [
            ("auth: cap the login retry backoff", "2024-03-08T12:00:00Z", ["Function:auth/login.go:retryDelay modified"]),
            ("auth: double the backoff per retry", "2024-03-04T12:00:00Z", ["Function:auth/login.go:retryDelay modified"]),
            ("auth: retry login with backoff", "2024-03-02T12:00:00Z",
             ["Function:auth/login.go:LoginRetry added", "Function:auth/login.go:retryDelay added"]),
            ("initial: sign-in and cart", "2024-03-01T12:00:00Z", [
                "Variable:auth/login.go:ErrDenied added", "Function:auth/login.go:Login added",
                "TypeAlias:auth/login.go:Users added"]),
        ])

    def test_file_clusters_by_intent_across_a_rename(self):
        out, _ = run_json(self, "file", "cart/basket.go", "--page-size", "3", "--url", self.server.url,
                          "--repo-path", Fixture.repo)
        self.assertEqual(out["total"], 8)
        self.assertEqual([c["path"] for c in out["commits"]], ["cart/basket.go"] * 5 + ["cart/cart.go"] * 3)
        clusters = [(cl["label"], [self.subject(h) for h in cl["commits"]], self.subject(cl["representative"]["hash"]),
                     [f["id"] + " " + f["change_type"] for f in cl["representative"]["functions"]],
                     cl["functions_from"], [(f["name"], f["commits"]) for f in cl["functions"]])
                    for cl in out["clusters"]]
        self.assertEqual(clusters, [
            ("discount codes total",
             ["cart: discount rounding for empty carts", "cart: discount codes expire", "cart: apply discount codes"],
             "cart: apply discount codes",
             ["Method:cart/basket.go:Cart.Discount added", "Method:cart/basket.go:Cart.TotalWith added"],
             3, [("Discount", 2), ("TotalWith", 2), ("Expired", 1)]),
            ("remove line lines",
             ["cart: remove reports whether a line was there", "cart: remove lines by sku",
              "cart: rename cart.go to basket.go"],
             "cart: remove reports whether a line was there",
             ["Method:cart/basket.go:Cart.Remove modified"],
             3, [("Remove", 2)]),
            ("total line lines",
             ["cart: round discounted totals", "initial: sign-in and cart"],
             "initial: sign-in and cart",
             ["Struct:cart/basket.go:Cart added", "Method:cart/basket.go:Cart.Add added",
              "Property:cart/basket.go:Cart.Lines added", "Method:cart/basket.go:Cart.Total added",
              "Struct:cart/basket.go:Line added", "Property:cart/basket.go:Line.Price added",
              "Property:cart/basket.go:Line.Qty added", "Property:cart/basket.go:Line.SKU added"],
             2, [("Add", 1), ("Total", 1), ("TotalWith", 1), ("Lines", 1), ("Price", 1), ("Qty", 1), ("SKU", 1),
                 ("Cart", 1), ("Line", 1)]),
        ])
        # 3 pages of 3 commits, the clustering, then the functions of the 8
        # commits (each once).
        self.assertEqual(out["requests"], 3 + 1 + 8)

    def test_file_window_and_cap(self):
        # A date window of 5 commits: listed, not clustered.
        out, _ = run_json(self, "file", "cart/basket.go", "--since", "2024-03-05", "--until", "2024-03-10",
                          "--url", self.server.url)
        self.assertIsNone(out["clusters"])
        self.assertEqual([(c["subject"], [f["name"] for f in c["functions"]]) for c in out["commits"]], [
            ("cart: remove reports whether a line was there", ["Remove"]),
            ("cart: round discounted totals", ["TotalWith"]),
            ("cart: remove lines by sku", ["Remove"]),
            ("cart: rename cart.go to basket.go", []),
            ("cart: discount codes expire", ["Discount", "Expired"]),
        ])
        # The newest 6 of 8: clustered from the commits read, not the file.
        out, _ = run_json(self, "file", "cart/basket.go", "--max-commits", "6", "--url", self.server.url)
        self.assertEqual((out["total"], out["truncated"], len(out["commits"])), (8, True, 6))
        self.assertEqual([(cl["label"], [self.subject(h) for h in cl["commits"]]) for cl in out["clusters"]], [
            ("discount total", ["cart: discount rounding for empty carts", "cart: round discounted totals",
                                "cart: rename cart.go to basket.go", "cart: discount codes expire"]),
            ("remove", ["cart: remove reports whether a line was there", "cart: remove lines by sku"]),
        ])

    def test_file_text_output(self):
        status, text, err = run_cli("file", "cart/basket.go", "--url", self.server.url, "--show", "2")
        self.assertEqual((status, err), (0, ""))
        h = {s: x[:10] for s, x in self.h.items()}
        self.assertEqual(text.splitlines()[:9], [
            "History of cart/basket.go: 8 commits",
            "3 clusters by intent:",
            "",
            "[1] discount codes total (3 commits)",
            "    representative %s  2024-03-03  cart: apply discount codes" % h["cart: apply discount codes"],
            "      added Method:cart/basket.go:Cart.Discount",
            "      added Method:cart/basket.go:Cart.TotalWith",
            "    functions changed (in 3 of its commits): Discount x2, TotalWith x2",
            "    %s  2024-03-11  cart: discount rounding for empty carts" % h["cart: discount rounding for empty carts"],
        ])

    def test_server_refusal_is_not_retried_nor_degraded(self):
        status, out, err = run_cli("file", "cart/nope.go", "--url", self.server.url, "--repo-path", Fixture.repo,
                                   "--backoff", "0.01")
        self.assertEqual(status, 1)
        self.assertEqual(out, "")
        self.assertIn("no indexed commit changed", err)
        self.assertNotIn("retrying", err)
        self.assertNotIn("falling back", err)


class ServerConditionsTest(unittest.TestCase):
    """A token, a server that fails with 5xx, an index without history."""

    server = None

    def setUp(self):
        require_history(self)

    def tearDown(self):
        if self.server:
            self.server.stop()

    def test_token_is_sent_as_bearer(self):
        self.server = Server("--auth-token", "s3cret")
        argv = ("file", "auth/login.go", "--url", self.server.url, "--backoff", "0.01", "--json")
        status, out, err = run_cli(*argv, env={"GITNEXUS_AUTH_TOKEN": "s3cret"})
        self.assertEqual((status, err), (0, ""))
        self.assertEqual(json.loads(out)["total"], 4)
        status, out, err = run_cli(*argv)
        self.assertEqual((status, out), (1, ""))
        self.assertIn("401: missing bearer token", err)
        status, out, err = run_cli(*argv, env={"GITNEXUS_AUTH_TOKEN": "wrong"})
        self.assertEqual((status, out), (1, ""))
        self.assertIn("403", err)
        self.assertEqual([s for _, _, s in self.server.access_log()], ["200"] * 5 + ["401", "403"])

    def test_5xx_is_retried_then_degraded(self):
        # Every request outlives a timeout of 1ns: the server answers 504.
        self.server = Server("--request-timeout", "1ns")
        out, err = run_json(self, "search", "discount", "--url", self.server.url, "--backoff", "0.01",
                            "--repo-path", Fixture.repo)
        self.assertEqual(self.server.access_log(), [("POST", "/api/v1/semantic_search", "504")] * 4)
        self.assertEqual(out["requests"], 4)
        self.assertEqual(len(re.findall(r"retrying POST /api/v1/semantic_search in .* \(HTTP 504: ", err)), 3)
        self.assertTrue(out["degraded"])
        self.assertEqual(out["source"], "git log --grep")
        self.assertIn("HTTP 504", out["reason"])

    def test_index_without_history_degrades(self):
        tmp = tempfile.mkdtemp(prefix="gitnexus-skill-nohist-", dir=Fixture.tmp)
        repo, home = os.path.join(tmp, "shop"), os.path.join(tmp, "home")
        shutil.copytree(Fixture.repo, repo, ignore=shutil.ignore_patterns(".gitnexus"))
        res = subprocess.run([BIN, "analyze", "-q", "--no-history", repo], env=dict(os.environ, GITNEXUS_HOME=home),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.server = Server(home=home)
        out, err = run_json(self, "file", "auth/login.go", "--url", self.server.url, "--repo-path", repo)
        self.assertIn("the server's index has no history", err)
        self.assertTrue(out["degraded"])
        self.assertEqual(out["source"], "git log --follow")
        self.assertEqual(out["requests"], 1)  # a 404 is not retried
        self.assertEqual([c["subject"] for c in out["commits"]], [
            "auth: cap the login retry backoff", "auth: double the backoff per retry",
            "auth: retry login with backoff", "initial: sign-in and cart"])


class DegradedTest(unittest.TestCase):
    """No server: git on the local repository answers, and says so."""

    def setUp(self):
        self.url = "http://127.0.0.1:%d" % free_port()

    def test_search_falls_back_to_git_log_grep(self):
        out, err = run_json(self, "search", "Login RETRY the backoff", "--url", self.url, "--retries", "0",
                            "--repo-path", Fixture.repo)
        self.assertTrue(out["degraded"])
        self.assertEqual(out["source"], "git log --grep")
        self.assertIn("falling back to git log --grep", err)
        self.assertEqual(out["words"], ["login", "retry", "backoff"])
        self.assertEqual([(c["summary"], c["score"]) for c in out["commits"]], [
            ("auth: cap the login retry backoff", 3),
            ("auth: retry login with backoff", 3),
            ("auth: double the backoff per retry", 2),
        ])
        self.assertEqual([(f["path"], f["commits"]) for f in out["files"]], [("auth/login.go", 3)])
        self.assertEqual(out["functions"], [])

    def test_file_falls_back_to_git_log_follow(self):
        status, text, err = run_cli("file", "cart/basket.go", "--url", self.url, "--retries", "0",
                                    "--repo-path", Fixture.repo)
        self.assertEqual(status, 0)
        self.assertIn("falling back to git log --follow", err)
        self.assertIn("(degraded: git log --follow; no clusters, no functions)", text)
        out, _ = run_json(self, "file", "cart/basket.go", "--url", self.url, "--retries", "0",
                          "--repo-path", Fixture.repo)
        self.assertEqual(out["source"], "git log --follow")
        self.assertEqual([(c["subject"], c["path"]) for c in out["commits"]], [
            ("cart: discount rounding for empty carts", "cart/basket.go"),
            ("cart: remove reports whether a line was there", "cart/basket.go"),
            ("cart: round discounted totals", "cart/basket.go"),
            ("cart: remove lines by sku", "cart/basket.go"),
            ("cart: rename cart.go to basket.go", "cart/basket.go"),
            ("cart: discount codes expire", "cart/cart.go"),
            ("cart: apply discount codes", "cart/cart.go"),
            ("initial: sign-in and cart", "cart/cart.go"),
        ])
        self.assertEqual([c["hash"] for c in out["commits"]][-1], Fixture.hashes["initial: sign-in and cart"])

    def test_retries_with_backoff_then_falls_back(self):
        start = time.monotonic()
        out, err = run_json(self, "search", "discount", "--url", self.url, "--backoff", "0.05",
                            "--repo-path", Fixture.repo)
        elapsed = time.monotonic() - start
        self.assertEqual(out["requests"], 4)  # the first try and 3 retries
        self.assertEqual(len(re.findall(r"retrying POST /api/v1/semantic_search in", err)), 3)
        self.assertIn("in 0.05s", err)
        self.assertIn("in 0.10s", err)
        self.assertIn("in 0.20s", err)
        self.assertGreaterEqual(elapsed, 0.35)
        self.assertTrue(out["degraded"])
        self.assertIn("(4 attempts)", out["reason"])
        self.assertEqual([c["summary"] for c in out["commits"]], [
            "cart: discount rounding for empty carts", "cart: round discounted totals",
            "cart: discount codes expire", "cart: apply discount codes"])

    def test_fallback_outside_a_repository_fails(self):
        with tempfile.TemporaryDirectory() as d:
            status, out, err = run_cli("search", "discount", "--url", self.url, "--retries", "0", "--repo-path", d)
        self.assertEqual(status, 1)
        self.assertEqual(out, "")
        self.assertIn("the fallback failed too", err)


if __name__ == "__main__":
    unittest.main()
