package ingest

import (
	"path"
	"sort"
	"strings"

	"gitnexus.dev/gitnexus/internal/graph"
)

// What gets embedded: each function, method, constructor, class,
// interface, struct and enum, as a short text that says what the symbol is
// (kind, name, qualified name, signature, doc, package) followed by the
// start of its body up to the token budget; and each commit, as its
// message followed by the names of the symbols it changed.

// embedKinds are the kinds of symbols that get a vector.
var embedKinds = map[graph.NodeKind]bool{
	graph.KindFunction: true, graph.KindMethod: true, graph.KindConstructor: true, graph.KindClass: true,
	graph.KindInterface: true, graph.KindStruct: true, graph.KindEnum: true,
}

// charsPerToken is the estimate that turns a token budget into
// characters for embedders that do not tokenize here (code runs about 3.5
// to 4 characters per token with the usual subword vocabularies).
const charsPerToken = 4

// maxChangedNames bounds the symbol names listed in a commit's text.
const maxChangedNames = 40

// embedDocument is one text to embed, for one node.
type embedDocument struct {
	NodeID string
	Commit bool
	Text   string
}

// embedDocuments lists the texts to embed for the nodes of g, in node id
// order; budget is the token budget of one text.
func embedDocuments(g *graph.Graph, budget int) []embedDocument {
	nodes := g.Nodes()
	pkgOf := map[string]string{} // file path → package key
	changed := map[string][]string{}
	for _, e := range g.Edges() {
		switch {
		case e.Type == graph.EdgeContains && e.Reason == graph.ReasonPackageMember:
			pkgOf[strings.TrimPrefix(e.Dst, "File:")] = strings.TrimPrefix(e.Src, "Package:")
		case e.Type == graph.EdgeChanges:
			if n, ok := g.Node(e.Dst); ok {
				changed[e.Src] = append(changed[e.Src], n.Name)
			}
		}
	}
	maxChars := budget * charsPerToken
	var out []embedDocument
	for _, n := range nodes {
		switch {
		case embedKinds[n.Kind]:
			pkg, ok := pkgOf[n.FilePath]
			if !ok {
				pkg = path.Dir(n.FilePath)
			}
			out = append(out, embedDocument{NodeID: n.ID, Text: symbolText(&n, pkg, maxChars)})
		case n.Kind == graph.KindCommit:
			out = append(out, embedDocument{NodeID: n.ID, Commit: true, Text: commitText(&n, changed[n.ID], maxChars)})
		}
	}
	return out
}

// symbolText describes a symbol: "Method Server.Handle", its signature,
// doc and package on the next lines, then as much of its body as the
// budget leaves.
func symbolText(n *graph.Node, pkg string, maxChars int) string {
	var b strings.Builder
	b.WriteString(n.Kind.String())
	b.WriteByte(' ')
	b.WriteString(n.QualifiedName)
	if !strings.HasSuffix(n.QualifiedName, n.Name) {
		b.WriteString(" (" + n.Name + ")")
	}
	b.WriteByte('\n')
	for _, line := range []string{n.Signature, n.Doc, "package " + pkg} {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	body := n.Content
	if i := strings.IndexByte(body, '\n'); i >= 0 && n.Signature != "" {
		body = body[i+1:] // the first line repeats the signature
	}
	return cutText(b.String()+body, maxChars)
}

// commitText is a commit's message and the names of the symbols it
// changed (sorted, each once, at most maxChangedNames).
func commitText(n *graph.Node, names []string, maxChars int) string {
	sort.Strings(names)
	names = compactStrings(names)
	if len(names) > maxChangedNames {
		names = names[:maxChangedNames]
	}
	text := strings.TrimSpace(n.Doc)
	if len(names) > 0 {
		text += "\nchanged: " + strings.Join(names, ", ")
	}
	return cutText(text, maxChars)
}

// cutText cuts s to at most max bytes, at a line end when one is near,
// else at a rune boundary.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := s[:max]
	if i := strings.LastIndexByte(cut, '\n'); i > max*3/4 {
		return cut[:i]
	}
	for len(cut) > 0 && cut[len(cut)-1]&0xC0 == 0x80 {
		cut = cut[:len(cut)-1]
	}
	if len(cut) > 0 && cut[len(cut)-1] >= 0xC0 {
		cut = cut[:len(cut)-1]
	}
	return cut
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
