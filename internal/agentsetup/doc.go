// Package agentsetup writes what `gitnexus setup` and `gitnexus analyze
// --agents-md` put on a machine for coding agents, and takes it away again:
// the gitnexus entry in each agent's MCP configuration file, the skills in a
// repository's .claude/skills and .agents/skills, and the gitnexus block of
// AGENTS.md and CLAUDE.md.
//
// Configuration files belong to the user and to the agent, so they are edited
// as text, never re-serialised: the entry is inserted or replaced where it
// belongs, with the file's own indentation and line endings, and comments,
// key order and every other entry stay as they were. Removal is the exact
// inverse of insertion: a file that nothing else touched since `setup` is
// restored byte for byte by `setup --uninstall`. The few facts the text
// cannot tell (whether setup created the file, or the surrounding object,
// and what an emptied object looked like) are kept in a manifest,
// $GITNEXUS_HOME/setup.json, and every file is copied to
// $GITNEXUS_HOME/backups before it is changed.
package agentsetup
