package lang

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
// The tree-sitter runtime's node and cursor, as its api.h declares them
// (go-tree-sitter links the runtime in; see treesitter.go).
typedef struct { uint32_t context[4]; const void *id; const void *tree; } GnxNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } GnxCursor;
GnxCursor ts_tree_cursor_new(GnxNode node);
void ts_tree_cursor_delete(GnxCursor *self);
GnxNode ts_tree_cursor_current_node(const GnxCursor *self);
bool ts_tree_cursor_goto_parent(GnxCursor *self);
bool ts_tree_cursor_goto_next_sibling(GnxCursor *self);
bool ts_tree_cursor_goto_first_child(GnxCursor *self);
uint16_t ts_node_symbol(GnxNode self);

// gitnexus_collect walks the tree under root in document order (each node
// before its children) and stores the nodes whose symbol want marks in out,
// up to cap of them; it returns how many there are.
static size_t gitnexus_collect(GnxNode root, const uint8_t *want, size_t nwant, GnxNode *out, size_t cap) {
	GnxCursor c = ts_tree_cursor_new(root);
	size_t n = 0;
	for (;;) {
		GnxNode node = ts_tree_cursor_current_node(&c);
		uint16_t s = ts_node_symbol(node);
		if (s < nwant && want[s]) {
			if (n < cap) out[n] = node;
			n++;
		}
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
		}
	}
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// KindPattern is a query pattern of one node: `(kind) @capture`.
type KindPattern struct{ Kind, Capture string }

// Kinds matches patterns of one node each, given in parts, as a query of
// them would (Query.CollectParts), without compiling a query: compiling
// one walks the grammar's whole parse table, which took 12-20 ms of a
// process that extracts one TypeScript file. One walk of the tree in C
// finds the nodes; the matches come in the query's order, each node's
// before its children's, and a node's in the order of the patterns. A
// Kinds is immutable and may be shared.
type Kinds struct {
	want     []C.uint8_t // by symbol: 1 when a pattern has that kind
	bySym    [][]int32   // by symbol: the patterns of that kind
	capture  []uint32    // by pattern
	part     []int       // by pattern
	parts    int
	captures map[string]uint32
}

// NewKinds makes the patterns of parts for grammar l; a kind the grammar
// does not have is a programming error (as in a query), and panics.
func NewKinds(l *ts.Language, name string, parts ...[]KindPattern) *Kinds {
	k := &Kinds{parts: len(parts), captures: map[string]uint32{}}
	n := int(l.NodeKindCount())
	k.want, k.bySym = make([]C.uint8_t, n), make([][]int32, n)
	for pi, part := range parts {
		for _, p := range part {
			sym := l.IdForNodeKind(p.Kind, true)
			if sym == 0 || int(sym) >= n {
				panic(fmt.Sprintf("lang: %s: the grammar has no node kind %s", name, p.Kind))
			}
			c, ok := k.captures[p.Capture]
			if !ok {
				c = uint32(len(k.captures))
				k.captures[p.Capture] = c
			}
			k.want[sym] = 1
			k.bySym[sym] = append(k.bySym[sym], int32(len(k.capture)))
			k.capture = append(k.capture, c)
			k.part = append(k.part, pi)
		}
	}
	return k
}

// Capture returns the index of a capture name; it panics on an unknown name
// so that a typo fails every test at once.
func (k *Kinds) Capture(name string) uint32 {
	c, ok := k.captures[name]
	if !ok {
		panic("lang: no pattern captures @" + name)
	}
	return c
}

// CollectParts returns the matches under root of each part's patterns, in
// the query's order (Pattern numbers the patterns across the parts).
func (k *Kinds) CollectParts(root *ts.Node) [][]Match {
	// Room for a third of the tree's nodes, which the patterns of an
	// extractor rarely pass (identifiers are the most of them); a second
	// walk when they do.
	nodes := make([]ts.Node, max(256, root.DescendantCount()/3))
	for {
		got := int(C.gitnexus_collect(*(*C.GnxNode)(unsafe.Pointer(root)), &k.want[0], C.size_t(len(k.want)),
			(*C.GnxNode)(unsafe.Pointer(&nodes[0])), C.size_t(len(nodes))))
		if got <= len(nodes) {
			nodes = nodes[:got]
			break
		}
		nodes = make([]ts.Node, got)
	}
	// Each match's one capture is a slice of one array, not an
	// allocation of its own.
	syms := make([]uint16, len(nodes))
	total := 0
	for i := range nodes {
		syms[i] = nodes[i].KindId()
		total += len(k.bySym[syms[i]])
	}
	caps := make([]ts.QueryCapture, 0, total)
	out := make([][]Match, k.parts)
	for i := range nodes {
		for _, p := range k.bySym[syms[i]] {
			caps = append(caps, ts.QueryCapture{Node: nodes[i], Index: k.capture[p]})
			part := k.part[p]
			out[part] = append(out[part], Match{Pattern: int(p), Captures: caps[len(caps)-1 : len(caps) : len(caps)]})
		}
	}
	return out
}

func init() {
	// gitnexus_collect fills ts.Node values through the runtime's TSNode.
	if unsafe.Sizeof(ts.Node{}) != unsafe.Sizeof(C.GnxNode{}) {
		panic("lang: go-tree-sitter's Node layout changed; revisit Kinds")
	}
}
