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
//	4: the git history: Commit and HistoricalSymbol nodes, PARENT_OF,
//	   REVERTS, MODIFIES and CHANGES edges, and the tables git_commit,
//	   git_file_change, git_symbol_change and git_removed_symbol with their
//	   attributes; the views commits, file_changes and symbol_changes.
//	5: embeddings: the tables embedding (a node's vector as int8 codes, its
//	   scale and the hash of the text it was made from) and vector_index
//	   (the encoded HNSW over the symbols' vectors); meta.embeddings.
//	6: the history blob beside the database: row 2 of snapshot may name a
//	   file history-<hash>.blob in the index's directory, with the blob's
//	   SHA-256, instead of holding the blob (history_file.go).
//	7: the full-text index stems words (FTS5's porter tokenizer), holds
//	   the words of the compound identifiers in a symbol's content beside
//	   the identifiers, and the words of its file's path.
const SchemaVersion = 7

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
CREATE TABLE git_commit (
	rid          INTEGER PRIMARY KEY,
	seq          INTEGER NOT NULL,
	hash         TEXT NOT NULL,
	parents      TEXT NOT NULL,
	author_name  TEXT NOT NULL,
	author_email TEXT NOT NULL,
	authored_at  INTEGER NOT NULL,
	author_zone  INTEGER NOT NULL,
	committed_at INTEGER NOT NULL,
	commit_zone  INTEGER NOT NULL,
	subject      TEXT NOT NULL,
	symbols_skip TEXT NOT NULL
);
CREATE TABLE git_file_change (
	commit_rid INTEGER NOT NULL,
	path       TEXT NOT NULL,
	old_path   TEXT NOT NULL,
	status     TEXT NOT NULL,
	additions  INTEGER NOT NULL,
	deletions  INTEGER NOT NULL,
	binary     INTEGER NOT NULL,
	old_blob   TEXT NOT NULL,
	new_blob   TEXT NOT NULL,
	file_rid   INTEGER NOT NULL
);
CREATE TABLE git_symbol_change (
	commit_rid     INTEGER NOT NULL,
	path           TEXT NOT NULL,
	kind           TEXT NOT NULL,
	name           TEXT NOT NULL,
	qualified_name TEXT NOT NULL,
	symbol_key     TEXT NOT NULL,
	change         TEXT NOT NULL,
	additions      INTEGER NOT NULL,
	deletions      INTEGER NOT NULL,
	start_line     INTEGER NOT NULL,
	end_line       INTEGER NOT NULL,
	symbol_rid     INTEGER NOT NULL
);
CREATE TABLE git_removed_symbol (
	rid        INTEGER PRIMARY KEY,
	kind       TEXT NOT NULL,
	deleted_in INTEGER NOT NULL
);
CREATE VIRTUAL TABLE search USING fts5(
	name, qualified_name, words, signature, doc, content, path,
	content='',
	tokenize="unicode61 remove_diacritics 2 tokenchars '_'"
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
CREATE INDEX git_file_change_commit ON git_file_change(commit_rid);
CREATE INDEX git_file_change_path ON git_file_change(path);
CREATE INDEX git_symbol_change_commit ON git_symbol_change(commit_rid);
CREATE INDEX git_symbol_change_symbol ON git_symbol_change(symbol_rid);
CREATE VIEW commits AS
	SELECT n.id AS id, c.hash AS hash, c.parents AS parents, c.author_name AS author_name,
	       c.author_email AS author_email, c.authored_at AS authored_at, c.committed_at AS committed_at,
	       c.subject AS subject, n.doc AS message, c.symbols_skip AS symbols_skipped
	FROM git_commit c JOIN node n ON n.rid = c.rid;
CREATE VIEW file_changes AS
	SELECT c.id AS commit_id, f.id AS file_id, g.path AS path, g.old_path AS old_path, g.status AS status,
	       g.additions AS additions, g.deletions AS deletions, g.binary AS binary
	FROM git_file_change g JOIN node c ON c.rid = g.commit_rid LEFT JOIN node f ON f.rid = g.file_rid;
CREATE VIEW symbol_changes AS
	SELECT c.id AS commit_id, s.id AS symbol_id, g.path AS path, g.kind AS kind, g.qualified_name AS qualified_name,
	       g.change AS change, g.additions AS additions, g.deletions AS deletions
	FROM git_symbol_change g JOIN node c ON c.rid = g.commit_rid JOIN node s ON s.rid = g.symbol_rid;
`
