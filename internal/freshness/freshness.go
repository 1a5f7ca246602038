// Package freshness says whether an index still matches its repository:
// the program that wrote it, HEAD, and the files changed since it was built.
// Check answers once; a Monitor keeps a recent answer per repository for
// servers, refreshed in the background so that tool calls never wait for git.
package freshness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gitnexus.dev/gitnexus/internal/repofiles"
)

// Index is what a check needs to know of an index.
type Index struct {
	// ToolVersion is the version of the program that wrote the index.
	ToolVersion string
	// Commit is HEAD when the index was built ("" outside git or before
	// the first commit); Dirty says the work tree had changes then.
	Commit string
	Dirty  bool
	// DirtyPaths are the files git saw changed when the index was built
	// (store.Meta.DirtyPaths).
	DirtyPaths []string
	// DirtyHashes are the SHA-256 (hex) of the content indexed of the
	// source files among them (store.Meta.DirtyHashes).
	DirtyHashes map[string]string
	IndexedAt   time.Time
	// Generation counts the writes of the index; with IndexedAt it tells
	// one build from the next.
	Generation int64
	// HasFile reports whether the index holds a file (slash-separated,
	// relative to the root).
	HasFile func(rel string) bool
	// Missing lists the indexed files that no longer exist under root;
	// only called outside git (in git, status reports deletions).
	Missing func(root string) ([]string, error)
}

// Report is the answer of a check.
type Report struct {
	Fresh   bool     `json:"fresh"`
	Reasons []string `json:"reasons,omitempty"`
	// Head is the commit checked out now ("" outside git).
	Head string `json:"head,omitempty"`
	// Branch is the branch checked out now ("" when detached).
	Branch string `json:"branch,omitempty"`
	// Changed counts the files changed since the index was built.
	Changed int `json:"changed,omitempty"`
}

// maxListed is how many changed files a reason names.
const maxListed = 5

// Check compares an index with the repository at root: the version that
// wrote it (when tool is not ""), HEAD, and the files changed in the work
// tree since it was built (by modification time, except that a file whose
// indexed content the index recorded counts only when its content differs:
// git stash && git stash pop changes no answer; a deleted file counts when
// the index has it). gs is what git says about root now.
func Check(ctx context.Context, root string, idx Index, tool string, gs GitState) Report {
	var reasons []string
	if tool != "" && idx.ToolVersion != tool {
		reasons = append(reasons, fmt.Sprintf("it was written by gitnexus %s, this is %s", idx.ToolVersion, tool))
	}
	var changed, restored []string
	if gs.Git {
		if idx.Commit != gs.Commit {
			reasons = append(reasons, fmt.Sprintf("HEAD moved from %s to %s", orNone(ShortHash(idx.Commit)), orNone(ShortHash(gs.Commit))))
		}
		changed = gs.Changed
		if idx.Dirty && !gs.Dirty && idx.Commit == gs.Commit {
			reasons = append(reasons, "the working-tree changes it indexed are gone")
		}
		// A file that was changed when the index was built and that git no
		// longer lists is back to HEAD's (restored, stashed): not what the
		// index holds, whatever its time.
		now := make(map[string]bool, len(gs.Changed))
		for _, p := range gs.Changed {
			now[p] = true
		}
		for _, p := range idx.DirtyPaths {
			if !now[p] {
				restored = append(restored, p)
			}
		}
	} else {
		listed, err := repofiles.List(ctx, root)
		if err != nil {
			reasons = append(reasons, "cannot list files: "+err.Error())
		} else {
			changed = listed.Files
		}
	}
	newer := restored
	for _, rel := range changed {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case err == nil && fi.ModTime().After(idx.IndexedAt):
			if h, ok := idx.DirtyHashes[rel]; ok && sameContent(filepath.Join(root, filepath.FromSlash(rel)), h) {
				continue // touched, but as indexed
			}
			newer = append(newer, rel)
		case err != nil && os.IsNotExist(err) && idx.HasFile != nil && idx.HasFile(rel):
			newer = append(newer, rel+" (deleted)")
		}
	}
	if !gs.Git && idx.Missing != nil {
		if deleted, err := idx.Missing(root); err == nil {
			for _, rel := range deleted {
				newer = append(newer, rel+" (deleted)")
			}
		}
	}
	if len(newer) > 0 {
		shown := newer[:min(len(newer), maxListed)]
		more := ""
		if len(newer) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(newer)-len(shown))
		}
		reasons = append(reasons, fmt.Sprintf("%d file(s) changed since it was built: %s%s", len(newer), strings.Join(shown, ", "), more))
	}
	return Report{Fresh: len(reasons) == 0, Reasons: reasons, Head: gs.Commit, Branch: gs.Branch, Changed: len(newer)}
}

// sameContent reports whether the file at path has the SHA-256 (hex) h.
func sameContent(path, h string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) == h
}

// ShortHash is the first ten digits of a commit hash.
func ShortHash(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}

func orNone(s string) string {
	if s == "" {
		return "(no commit)"
	}
	return s
}
