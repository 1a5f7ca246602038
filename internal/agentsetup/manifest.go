package agentsetup

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// manifestVersion is the version of setup.json. Changelog:
//
//	1: records of MCP entries, skills and instruction blocks.
const manifestVersion = 1

// ManifestName is the manifest's file name in $GITNEXUS_HOME.
const ManifestName = "setup.json"

// Kinds of record.
const (
	kindMCP   = "mcp"
	kindSkill = "skill"
	kindBlock = "block"
)

// hints are the facts about one edit that the edited text cannot tell.
type hints struct {
	JSON *jsonHints `json:"json,omitempty"`
	TOML *tomlHints `json:"toml,omitempty"`
	// Prefix is what setup wrote before an instruction block (line breaks).
	Prefix *string `json:"prefix,omitempty"`
}

// record is one thing setup wrote.
type record struct {
	Kind  string `json:"kind"`
	Agent string `json:"agent,omitempty"`
	Path  string `json:"path"`
	// Repo is the repository a skill or block was written into.
	Repo string `json:"repo,omitempty"`
	// CreatedFile: the file did not exist before setup.
	CreatedFile bool `json:"createdFile,omitempty"`
	// CreatedDirs are the directories setup created for it, outermost first.
	CreatedDirs []string `json:"createdDirs,omitempty"`
	Hints       hints    `json:"hints"`
	// SHA256 is the hash of a skill file as written.
	SHA256 string `json:"sha256,omitempty"`
}

// manifest is $GITNEXUS_HOME/setup.json: what setup wrote and how to take
// it away again.
type manifest struct {
	Version int      `json:"version"`
	Records []record `json:"records"`
	path    string
}

func loadManifest(home string) (*manifest, error) {
	m := &manifest{Version: manifestVersion, path: filepath.Join(home, ManifestName)}
	b, err := os.ReadFile(m.path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read setup manifest: %w", err)
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("setup manifest %s is not valid JSON (%v): move it away and run setup again", m.path, err)
	}
	if m.Version > manifestVersion {
		return nil, fmt.Errorf("setup manifest %s has version %d, this gitnexus reads %d: use a newer gitnexus", m.path, m.Version, manifestVersion)
	}
	return m, nil
}

func (m *manifest) find(kind, path string) *record {
	for i := range m.Records {
		if m.Records[i].Kind == kind && m.Records[i].Path == path {
			return &m.Records[i]
		}
	}
	return nil
}

func (m *manifest) put(r record) {
	if old := m.find(r.Kind, r.Path); old != nil {
		*old = r
		return
	}
	m.Records = append(m.Records, r)
}

func (m *manifest) drop(kind, path string) {
	out := m.Records[:0]
	for _, r := range m.Records {
		if r.Kind != kind || r.Path != path {
			out = append(out, r)
		}
	}
	m.Records = out
}

// save writes the manifest (atomically), or removes it when it is empty.
func (m *manifest) save() error {
	if len(m.Records) == 0 {
		if err := os.Remove(m.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove setup manifest: %w", err)
		}
		return nil
	}
	sort.SliceStable(m.Records, func(i, j int) bool {
		if m.Records[i].Kind != m.Records[j].Kind {
			return m.Records[i].Kind < m.Records[j].Kind
		}
		return m.Records[i].Path < m.Records[j].Path
	})
	m.Version = manifestVersion
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.path), 0o755); err != nil {
		return fmt.Errorf("write setup manifest: %w", err)
	}
	return writeAtomic(m.path, append(b, '\n'), 0o644)
}
