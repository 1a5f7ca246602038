package agentsetup

import (
	"fmt"
	"os"
	"path/filepath"
)

// InstallMCP registers gitnexus (o.Binary with the argument mcp) in each
// agent's MCP configuration. A file that cannot be read as its format is
// reported as Failed and left alone; the others go ahead.
func InstallMCP(o Options, agents []*Agent) ([]Change, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, a := range agents {
		changes = append(changes, o.installAgent(m, a))
	}
	if o.DryRun {
		return changes, nil
	}
	return changes, m.save()
}

// UninstallMCP takes the gitnexus entry out of each agent's configuration,
// undoing exactly what InstallMCP wrote.
func UninstallMCP(o Options, agents []*Agent) ([]Change, error) {
	m, err := loadManifest(o.Home)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, a := range agents {
		changes = append(changes, o.uninstallAgent(m, a))
	}
	if o.DryRun {
		return changes, nil
	}
	return changes, m.save()
}

func (o *Options) installAgent(m *manifest, a *Agent) Change {
	path := a.Config(o.Env)
	c := Change{What: a.Title, Path: path}
	src, existed, err := readFile(path)
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	out, h, changed, err := a.install(src, o.Binary)
	if err != nil {
		c.Action, c.Err = Failed, fmt.Errorf("%s is not valid %s (%w); it was left as it was: fix it, then run setup again", path, a.Format, err)
		return c
	}
	replaced := (h.JSON != nil && h.JSON.Previous != "") || (h.TOML != nil && h.TOML.Previous != "")
	switch {
	case !changed:
		c.Action, c.Note = Unchanged, "already registered"
		return c
	case !existed:
		c.Action = Created
	case replaced:
		c.Action, c.Note = Updated, "replaced the earlier "+ServerName+" entry"
	default:
		c.Action = Added
	}
	if o.DryRun {
		c.Diff = lineDiff(src, out)
		return c
	}
	if existed {
		if c.Backup, err = o.backup(a.Name, path, src); err != nil {
			c.Action, c.Err = Failed, err
			return c
		}
	}
	dirs, err := mkdirs(filepath.Dir(path))
	if err == nil {
		err = writeAtomic(path, out, 0o600)
	}
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	// A record made when setup first added the entry keeps what the file
	// was like before it; replacing our own entry later must not lose that.
	if old := m.find(kindMCP, path); old == nil || !replaced {
		m.put(record{Kind: kindMCP, Agent: a.Name, Path: path, CreatedFile: !existed, CreatedDirs: dirs, Hints: h})
	}
	return c
}

func (o *Options) uninstallAgent(m *manifest, a *Agent) Change {
	path := a.Config(o.Env)
	c := Change{What: a.Title, Path: path}
	rec := m.find(kindMCP, path)
	src, existed, err := readFile(path)
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	if !existed {
		c.Action = Absent
		m.drop(kindMCP, path)
		return c
	}
	var h hints
	if rec != nil {
		h = rec.Hints
	}
	out, removed, empty, err := a.uninstall(src, h)
	if err != nil {
		c.Action, c.Err = Failed, fmt.Errorf("%s is not valid %s (%w); it was left as it was: remove the %s entry by hand", path, a.Format, err, ServerName)
		return c
	}
	if !removed {
		c.Action = Absent
		m.drop(kindMCP, path)
		return c
	}
	deleteFile := rec != nil && rec.CreatedFile && empty
	c.Action = Removed
	if deleteFile {
		c.Action, c.Note = Deleted, "setup had created it"
	}
	if o.DryRun {
		if !deleteFile {
			c.Diff = lineDiff(src, out)
		}
		return c
	}
	if c.Backup, err = o.backup(a.Name, path, src); err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	if deleteFile {
		err = os.Remove(path)
		removeDirs(rec.CreatedDirs)
	} else {
		err = writeAtomic(path, out, 0o600)
	}
	if err != nil {
		c.Action, c.Err = Failed, err
		return c
	}
	m.drop(kindMCP, path)
	return c
}
