package export

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"gitnexus.dev/gitnexus/internal/store"
)

// The files beside the CSV files: the constraints and indexes, the
// command that loads the files, and a note that says both.

// labelIndexes are the properties indexed beyond name and filePath, by
// label: what queries look these nodes up by.
var labelIndexes = map[string][]string{
	"Commit":    {"hash", "shortHash"},
	"Community": {"label"},
	"Process":   {"label"},
}

// schemaCypher is schema.cypher: for every label exported, a uniqueness
// constraint on id (which also indexes it) and indexes on name and
// filePath, in Neo4j 5 syntax; run once the import is done.
func schemaCypher(sum *Summary) string {
	var b strings.Builder
	b.WriteString("// Constraints and indexes for the graph written by `gitnexus export --format neo4j`.\n")
	b.WriteString("// Run once after the import, on the running database:\n")
	b.WriteString("//   cypher-shell -d neo4j -f schema.cypher\n")
	for _, f := range sum.Nodes {
		l := f.Label
		fmt.Fprintf(&b, "\nCREATE CONSTRAINT %s_id IF NOT EXISTS FOR (n:%s) REQUIRE n.id IS UNIQUE;\n", l, l)
		for _, p := range append([]string{"name", "filePath"}, labelIndexes[l]...) {
			fmt.Fprintf(&b, "CREATE INDEX %s_%s IF NOT EXISTS FOR (n:%s) ON (n.%s);\n", l, p, l, p)
		}
	}
	return b.String()
}

// importScript is import.sh: the neo4j-admin command line for these
// files, with the options the files need and no other.
func importScript(sum *Summary) string {
	var b strings.Builder
	b.WriteString(`#!/bin/sh
# Loads the files of this folder into a new Neo4j 5 database with the bulk
# import of neo4j-admin. Written by gitnexus export --format neo4j.
#
#   sh import.sh [database]        (default: neo4j)
#
# Run it where neo4j-admin runs (NEO4J_ADMIN names another path to it), with
# the database stopped. A full import writes a new database: to replace one
# that exists, add --overwrite-destination=true below. Then start Neo4j and
# create the constraints and indexes:
#
#   cypher-shell -d <database> -f schema.cypher
#
# Quoted fields hold line breaks (source code, commit messages), hence
# --multiline-fields=true; arrays are separated by ";".
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
db=${1:-neo4j}
"${NEO4J_ADMIN:-neo4j-admin}" database import full \
  --id-type=string \
  --multiline-fields=true \
  --array-delimiter=";" \
`)
	for _, f := range sum.Nodes {
		fmt.Fprintf(&b, "  --nodes=%s=\"$dir/%s\" \\\n", f.Label, f.Name)
	}
	for _, f := range sum.Relationships {
		fmt.Fprintf(&b, "  --relationships=%s=\"$dir/%s\" \\\n", f.Type, f.Name)
	}
	b.WriteString("  \"$db\"\n")
	return b.String()
}

// readme is README.txt: what the folder holds and how to load it.
func readme(sum *Summary, meta store.Meta) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The code graph of %s", meta.RepoPath)
	if meta.IndexedCommit != "" {
		fmt.Fprintf(&b, " at commit %s", meta.IndexedCommit)
	}
	b.WriteString(`, as the CSV files of
Neo4j's bulk import (neo4j-admin database import full), written by
gitnexus export --format neo4j.

To load it into a new Neo4j 5 database (stopped; see the comments in
import.sh to replace one that exists):

  sh import.sh [database]
  # start Neo4j, then:
  cypher-shell -d <database> -f schema.cypher

Node labels, properties and relationship types are those of
gitnexus cypher, so its queries run on Neo4j; write a relationship
as its own type, -[:CALLS]->, not -[:CodeRelation {type: 'CALLS'}]->
(docs/neo4j.md in the gitnexus sources has the whole mapping).

Files:

`)
	tw := tabwriter.NewWriter(&b, 0, 2, 2, ' ', 0)
	for _, f := range sum.Nodes {
		fmt.Fprintf(tw, "  %s\t%d nodes\t:%s\n", f.Name, f.Rows, f.Label)
	}
	for _, f := range sum.Relationships {
		fmt.Fprintf(tw, "  %s\t%d relationships\t:%s\n", f.Name, f.Rows, f.Type)
	}
	fmt.Fprintf(tw, "  %s\tconstraints and indexes\n", SchemaFile)
	fmt.Fprintf(tw, "  %s\tthe import command\n", ImportFile)
	tw.Flush()
	for _, w := range sum.Warnings {
		fmt.Fprintf(&b, "\nWarning: %s\n", w)
	}
	return b.String()
}
