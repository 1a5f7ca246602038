package rust

import (
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// Calls in macro arguments. The grammar keeps a macro's arguments as a
// token tree, but the standard macros whose arguments are expressions
// (assert_eq!, format!, write!, vec!, the log crate's...) run the calls
// written there: `assert_eq!(parse(x), y)` calls parse. Those arguments
// are parsed again as the arguments of a call inside a function, in a
// copy of the file where everything else is blank and each `name!(` is
// `name (`; the calls found there are recorded at their place in the file.
// The macros themselves stay macros: the call of `name` is dropped, and a
// macro nested in the arguments is counted like the others.

// exprMacros are the macros whose arguments are expressions.
var exprMacros = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne
		println print eprintln eprint format format_args write writeln panic vec dbg unreachable todo
		unimplemented matches assert_matches trace debug info warn error log`) {
		exprMacros[n] = true
	}
}

// noteMacro records an invocation whose arguments are expressions, unless
// it lies in one already recorded.
func (x *extraction) noteMacro(n *ts.Node) {
	name := n.ChildByFieldName("macro")
	if name != nil && name.Kind() == "scoped_identifier" {
		name = name.ChildByFieldName("name") // alloc::vec!, log::debug!
	}
	if name == nil || name.Kind() != "identifier" || !exprMacros[x.text(name)] {
		return
	}
	var tt *ts.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "token_tree" {
			tt = c
		}
	}
	if tt == nil || tt.StartByte() >= uint(len(x.src)) || (x.src[tt.StartByte()] != '(' && x.src[tt.StartByte()] != '[') {
		return
	}
	start, end := uint32(n.StartByte()), uint32(n.EndByte())
	for _, r := range x.macroArgs {
		if start >= r[0] && end <= r[1] {
			return
		}
	}
	x.macroArgs = append(x.macroArgs, [2]uint32{start, end})
}

const macroPrefix = "fn __m(){"

// readMacroArgs parses the arguments of the recorded invocations and adds
// the calls they make.
func (e *extractor) readMacroArgs(x *extraction) error {
	if len(x.macroArgs) == 0 {
		return nil
	}
	k := uint32(len(macroPrefix))
	buf := make([]byte, int(k)+len(x.src)+3)
	copy(buf, macroPrefix)
	body := buf[k : k+uint32(len(x.src))]
	for i := range body {
		body[i] = ' '
	}
	names := map[uint32]bool{} // synthetic offsets of the macros' names
	for _, r := range x.macroArgs {
		copy(body[r[0]:r[1]], x.src[r[0]:r[1]])
		for i := r[0]; i+1 < r[1]; i++ {
			// `name!(` and `name![` become `name (` and `name [`.
			if body[i] != '!' || (body[i+1] != '(' && body[i+1] != '[') || i == r[0] || !isIdentPart(body[i-1]) {
				continue
			}
			j := i
			for j > r[0] && isIdentPart(body[j-1]) {
				j--
			}
			body[i] = ' '
			names[k+j] = true
			if j != r[0] {
				x.facts.Macros++ // a macro in the arguments of another
			}
		}
		if r[1] < uint32(len(body)) {
			body[r[1]] = ';'
		}
	}
	copy(buf[k+uint32(len(x.src)):], "\n}\n")
	tree, err := e.Parse(x.facts.Path, buf)
	if err != nil {
		return err
	}
	defer tree.Close()
	_, uses := e.Q.All.CollectSplit(e.Cursor, tree.RootNode(), buf, e.Q.DefsPatterns)
	var (
		cCall   = e.Q.All.Capture("call")
		cCallee = e.Q.All.Capture("callee")
		cArgs   = e.Q.All.Capture("args")
	)
	lines := lang.LineStarts(x.src)
	orig := x.src
	x.src = buf
	defer func() { x.src = orig }()
	for i := range uses {
		m := &uses[i]
		call, callee := m.Node(cCall), m.Node(cCallee)
		if call == nil || callee == nil || uint32(call.StartByte()) < k || names[uint32(callee.StartByte())] {
			continue
		}
		before := len(x.facts.Calls)
		x.addCall(call, callee, m.Node(cArgs))
		if len(x.facts.Calls) == before {
			continue
		}
		c := &x.facts.Calls[before]
		c.Byte -= k
		c.Scope = x.scopes.CallScope(c.Byte)
		c.Line = lineOf(lines, uint32(callee.StartByte())-k)
	}
	return nil
}

// lineOf is the 1-based line of a byte offset.
func lineOf(lines []int, off uint32) int {
	lo, hi := 0, len(lines)
	for lo < hi {
		mid := (lo + hi) / 2
		if lines[mid] <= int(off) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
