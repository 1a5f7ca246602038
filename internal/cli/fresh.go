package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gitnexus.dev/gitnexus/internal/ingest"
	"gitnexus.dev/gitnexus/internal/store"
)

// freshness says whether an index still matches the repository, and if
// not, why.
type freshness struct {
	Fresh   bool     `json:"fresh"`
	Reasons []string `json:"reasons,omitempty"`
}

// checkFreshness compares an index with the repository: the tool and schema
// that wrote it, HEAD, and files changed in the working tree since it was
// built (by modification time; deleted files count when the index has them).
func checkFreshness(ctx context.Context, root string, r *store.Reader, gs gitState) freshness {
	meta := r.Meta()
	var reasons []string
	if meta.ToolVersion != Version() {
		reasons = append(reasons, fmt.Sprintf("it was written by gitnexus %s, this is %s", meta.ToolVersion, Version()))
	}
	var changed []string
	if gs.Git {
		if meta.IndexedCommit != gs.Commit {
			reasons = append(reasons, fmt.Sprintf("HEAD moved from %s to %s", orNone(shortHash(meta.IndexedCommit)), orNone(shortHash(gs.Commit))))
		}
		changed = gs.Changed
		if meta.Dirty && !gs.Dirty && meta.IndexedCommit == gs.Commit {
			reasons = append(reasons, "the working-tree changes it indexed are gone")
		}
	} else {
		files, err := ingest.ListFiles(ctx, root)
		if err != nil {
			reasons = append(reasons, "cannot list files: "+err.Error())
		}
		changed = files
	}
	var newer []string
	for _, rel := range changed {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case err == nil && fi.ModTime().After(meta.IndexedAt):
			newer = append(newer, rel)
		case err != nil && os.IsNotExist(err) && r.HasFile(ctx, rel):
			newer = append(newer, rel+" (deleted)")
		}
	}
	if !gs.Git {
		deleted, err := r.MissingFiles(ctx, root)
		if err == nil {
			for _, d := range deleted {
				newer = append(newer, d+" (deleted)")
			}
		}
	}
	if len(newer) > 0 {
		shown := newer
		if len(shown) > 5 {
			shown = shown[:5]
		}
		more := ""
		if len(newer) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(newer)-len(shown))
		}
		reasons = append(reasons, fmt.Sprintf("%d file(s) changed since it was built: %s%s", len(newer), strings.Join(shown, ", "), more))
	}
	return freshness{Fresh: len(reasons) == 0, Reasons: reasons}
}

func orNone(s string) string {
	if s == "" {
		return "(no commit)"
	}
	return s
}
