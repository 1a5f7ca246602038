// Package history reads a repository's git history into plain records
// (graph.History) and links them to the code graph at HEAD.
//
// Everything comes from the git binary, in three processes per run:
//
//   - `git log --no-walk --stdin --raw -z -M` lists each commit's metadata
//     and the files it changed (status, paths, blobs): the file-level
//     history, which reads trees only and runs at thousands of commits a
//     second.
//   - `git diff-tree --stdin -p -U0` gives the changed lines of the commits
//     that are not over the file guard: the line counts of every file, and
//     the hunks of source files.
//   - one long-lived `git cat-file --batch` hands out the blobs: a source
//     file's version before and after a commit, parsed by the language's
//     extractor (symbols and their lines only, no resolution), each blob
//     once while it is in the parse cache, by a pool of workers. For
//     languages whose top-level declarations stand alone, the version
//     before a commit is derived from the version after it: only the
//     declarations the commit touched are read again (derive.go). A
//     version after a commit that no commit read before it (a branch's
//     last version of a file, read after the merge) is derived likewise
//     from the latest version read of its path, through a line diff made
//     in-process (linediff.go).
//
// Which commits: the first-parent history of HEAD (merges diffed against
// their first parent, so a merge stands for its branch), or with
// AllBranches every branch, remote branch and tag (merges then add no
// changes of their own). A run reuses the records of the previous index for
// the commits it already has and reads only the others; commits that left
// the history (a rebase, a force push) are dropped, so a rewritten history
// is read again where it differs.
//
// A hunk's lines are attributed to the innermost symbol holding them, in
// the version of the file they belong to: deleted lines to the symbol
// before the commit, added lines to the symbol after it. Link then follows
// each file through its renames to HEAD and connects the records to the
// nodes there.
package history
