"""Source files of a repository that the Python oracle reads.

The list matches what the indexer reads: files git lists (tracked plus
untracked-but-not-ignored), or every file under the root when the root is
not a git work tree, less vendored trees and test-data trees.
"""

import os
import subprocess

# Directory names whose trees are third-party, generated or test data.
SKIPPED_DIRS = {
    "vendor", "node_modules", "third_party", "site-packages",
    "testdata", "test_data", "fixtures", "__fixtures__", "__pycache__",
}


def _git_files(root):
    out = subprocess.run(
        ["git", "-c", "core.quotePath=false", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=root, capture_output=True, check=True,
    ).stdout
    return sorted({p.decode() for p in out.split(b"\0") if p})


def _walked_files(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            found.append(rel.replace(os.sep, "/"))
    return sorted(found)


def skipped(rel):
    """Reports whether a repository-relative path lies in a skipped tree."""
    parts = rel.split("/")[:-1]
    return any(p in SKIPPED_DIRS or p.startswith(".") for p in parts)


def source_files(root, suffixes=(".py",)):
    """Repository-relative paths of the source files under root, sorted."""
    try:
        listed = _git_files(root)
    except (subprocess.CalledProcessError, FileNotFoundError):
        listed = _walked_files(root)
    return [
        rel for rel in listed
        if rel.endswith(suffixes) and not skipped(rel)
        and os.path.isfile(os.path.join(root, rel))
        and not os.path.islink(os.path.join(root, rel))
    ]


def import_roots(root, files):
    """Directories that hold top-level packages: the root, src/, and every
    directory with its own project file (examples often have one)."""
    roots = []
    if os.path.isdir(os.path.join(root, "src")):
        roots.append(os.path.join(root, "src"))
    roots.append(root)
    try:
        listed = _git_files(root)
    except (subprocess.CalledProcessError, FileNotFoundError):
        listed = _walked_files(root)
    for rel in listed:
        base = rel.rsplit("/", 1)[-1]
        if base in ("pyproject.toml", "setup.py", "setup.cfg") and "/" in rel and not skipped(rel):
            d = os.path.join(root, rel.rsplit("/", 1)[0])
            for cand in (os.path.join(d, "src"), d):
                if os.path.isdir(cand) and cand not in roots:
                    roots.append(cand)
    return roots
