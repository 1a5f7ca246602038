package agentsetup

import (
	"path/filepath"
	"sort"
)

// RecordedRepos returns the repositories setup wrote skills or blocks
// into, from the manifest, sorted.
func RecordedRepos(o Options) ([]string, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var repos []string
	for _, r := range m.Records {
		if r.Repo != "" && !seen[r.Repo] {
			seen[r.Repo] = true
			repos = append(repos, r.Repo)
		}
	}
	sort.Strings(repos)
	return repos, nil
}

// UninstallRepo removes from repo the skills and instruction blocks setup
// wrote: those the manifest records and those found by their text or
// markers. Only what was there is reported.
func UninstallRepo(o Options, repo string) ([]Change, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	changes := o.uninstallSkills(m, repo)
	for _, name := range []string{"AGENTS.md", "CLAUDE.md"} {
		if c, found := o.uninstallBlock(m, filepath.Join(repo, name)); found {
			changes = append(changes, c)
		}
	}
	if o.DryRun {
		return changes, nil
	}
	return changes, m.save()
}
