// Package store keeps a repository's graph in SQLite, one database per
// repository at <repo>/.gitnexus/graph.db. It is the only package that knows
// SQL.
//
// A full index is written to a new file in the same directory, in one bulk
// transaction with indexes created after the load, then renamed over the old
// one: readers see the old index or the new one, never half of one, and a
// kill at any moment leaves the last complete index in place.
//
// Outside tools may rely on the views `nodes` and `edges` (docs/schema.md);
// the tables behind them are internal.
package store

// SchemaVersion is the version of the on-disk format. Changelog:
//
//	1: nodes, edges, FTS5 search over symbols and file paths, meta, and a
//	   binary snapshot of nodes and edges for fast loading.
//	2: every site line of a relationship: edge.more_lines (and the
//	   snapshot) keep the lines after the first.
//	3: communities and processes: Community and Process nodes, MEMBER_OF,
//	   STEP_IN_PROCESS (the step in edge.line) and ENTRY_POINT_OF edges,
//	   the community and process tables and their views.
const SchemaVersion = 3

// createTables is run on a new, empty database before the bulk load.
const createTables = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE node (
	rid            INTEGER PRIMARY KEY,
	id             TEXT NOT NULL,
	kind           TEXT NOT NULL,
	name           TEXT NOT NULL,
	qualified_name TEXT NOT NULL,
	file_path      TEXT NOT NULL,
	start_line     INTEGER NOT NULL,
	end_line       INTEGER NOT NULL,
	signature      TEXT NOT NULL,
	doc            TEXT NOT NULL,
	is_exported    INTEGER NOT NULL,
	language       TEXT NOT NULL,
	content        TEXT NOT NULL
);
CREATE TABLE edge (
	src        INTEGER NOT NULL,
	dst        INTEGER NOT NULL,
	type       TEXT NOT NULL,
	confidence REAL NOT NULL,
	reason     TEXT NOT NULL,
	line       INTEGER NOT NULL,
	more_lines TEXT NOT NULL
);
CREATE TABLE snapshot (
	id   INTEGER PRIMARY KEY,
	data BLOB NOT NULL
);
CREATE VIRTUAL TABLE search USING fts5(
	name, qualified_name, words, signature, doc, content, path,
	content='',
	tokenize='unicode61 remove_diacritics 2'
);
`

// createIndexes is run after the bulk load.
const createIndexes = `
CREATE UNIQUE INDEX node_id ON node(id);
CREATE INDEX node_name ON node(name);
CREATE INDEX node_file ON node(file_path, start_line);
CREATE INDEX node_kind ON node(kind);
CREATE INDEX edge_src ON edge(src, type);
CREATE INDEX edge_dst ON edge(dst, type);
CREATE VIEW nodes AS
	SELECT id, kind, name, qualified_name, file_path, start_line, end_line,
	       signature, doc, is_exported, language, content
	FROM node;
CREATE VIEW edges AS
	SELECT s.id AS src, d.id AS dst, e.type AS type, e.confidence AS confidence,
	       e.reason AS reason, e.line AS line, e.more_lines AS more_lines
	FROM edge e JOIN node s ON s.rid = e.src JOIN node d ON d.rid = e.dst;
`
