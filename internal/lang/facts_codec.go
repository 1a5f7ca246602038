package lang

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"gitnexus.dev/gitnexus/internal/graph"
)

// A binary form of FileFacts, for the cache of extractions that lets a
// re-index read only the files that changed. It keeps every field, and
// keeps apart what the resolvers keep apart: a nil slice from an empty one
// (Expr.Args: "not recorded" against "no arguments") and a nil *Expr from
// a zero one. Integers are varints (signed ones zigzag), strings and
// slices carry their length (slices length+1, 0 for nil), pointers a
// presence byte. TestFactsCodecRoundTrip fills every field by reflection,
// so a field added to the facts and not here fails it. The form ends with
// the hashes of the names the facts mention (mentions.go), which only
// DecodeFactsShared keeps.

// AppendFacts appends the binary form of f to buf.
func AppendFacts(buf []byte, f *FileFacts) []byte {
	f.LoadCalls()
	e := factsEncoder{buf: buf}
	e.str(f.Path)
	e.str(f.Language)
	e.str(f.Package)
	e.str(f.Constraint)
	e.int(f.Lines)
	e.len(len(f.Symbols), f.Symbols == nil)
	for i := range f.Symbols {
		e.symbol(&f.Symbols[i])
	}
	e.len(len(f.Imports), f.Imports == nil)
	for i := range f.Imports {
		m := &f.Imports[i]
		e.uint(uint64(m.Kind))
		e.str(m.Path)
		e.str(m.Name)
		e.str(m.Alias)
		e.int(m.Line)
		e.bool(m.Reexport)
		e.bool(m.Static)
		e.int(m.Scope)
	}
	e.len(len(f.Exports), f.Exports == nil)
	for i := range f.Exports {
		x := &f.Exports[i]
		e.str(x.Name)
		e.str(x.Local)
		e.expr(x.Value)
		e.int(x.Line)
	}
	e.len(len(f.Calls), f.Calls == nil)
	for i := range f.Calls {
		c := &f.Calls[i]
		e.int(c.Scope)
		e.expr(c.Callee)
		e.int(c.Args)
		e.int(c.Line)
		e.uint(uint64(c.Byte))
		e.exprs(c.ArgExprs)
		e.bool(c.Bare)
	}
	e.len(len(f.Bindings), f.Bindings == nil)
	for i := range f.Bindings {
		b := &f.Bindings[i]
		e.int(b.Scope)
		e.str(b.Name)
		e.str(b.Type)
		e.expr(b.Value)
		e.int(b.Index)
		e.bool(b.Elem)
		e.bool(b.Field)
		e.uint(uint64(b.Byte))
		e.uint(uint64(b.End))
	}
	e.len(len(f.Refs), f.Refs == nil)
	for i := range f.Refs {
		r := &f.Refs[i]
		e.int(r.Scope)
		e.expr(r.Expr)
		e.int(r.Line)
		e.bool(r.Write)
	}
	e.int(f.SyntaxErrors)
	e.int(f.Macros)
	hs := mentionHashes(f)
	e.uint(uint64(len(hs)))
	for _, h := range hs {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, h)
	}
	return e.buf
}

// DecodeFacts reads one FileFacts from the start of data and returns the
// rest.
func DecodeFacts(data []byte) (f *FileFacts, rest []byte, err error) {
	return decodeFacts(factsDecoder{buf: data})
}

// DecodeFactsShared is DecodeFacts with the facts' strings in data's
// memory rather than copied: data must not change for as long as the
// facts are used (a re-index decodes every file's cached facts, and
// copying their strings was a third of the time). The calls are checked
// but left in data, and decoded when LoadCalls is first called: a
// re-index resolves the calls of the few files an edit affects, and
// decoding every file's was half of reading the cache back.
func DecodeFactsShared(data []byte) (f *FileFacts, rest []byte, err error) {
	return decodeFacts(factsDecoder{buf: data, shared: true, lazyCalls: true})
}

// lazyCalls are calls left in their binary form (DecodeFactsShared), with
// the hashes of the names the facts mention (mentions.go).
type lazyCalls struct {
	once sync.Once
	data []byte // the calls' part of the form, checked
	// mentions are the hashes, 4 bytes each, little-endian, increasing;
	// hashed is true once they are read.
	mentions []byte
	hashed   bool
}

// LoadCalls decodes the file's calls when they were left in their binary
// form (DecodeFactsShared); it is safe for concurrent use. Code that reads
// Calls of facts from the extraction cache calls it first, and a copy of
// such facts is made after it.
func (f *FileFacts) LoadCalls() {
	lc := f.lazy
	if lc == nil {
		return
	}
	lc.once.Do(func() {
		d := factsDecoder{buf: lc.data, shared: true}
		// The part was checked when it was skipped: it decodes.
		f.Calls = d.calls()
	})
}

func decodeFacts(d factsDecoder) (f *FileFacts, rest []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			if de, ok := p.(factsDecodeError); ok {
				f, rest, err = nil, nil, de
				return
			}
			panic(p)
		}
	}()
	f = &FileFacts{}
	f.Path = d.str()
	f.Language = d.str()
	f.Package = d.str()
	f.Constraint = d.str()
	f.Lines = d.int()
	if n, ok := d.len(); ok {
		f.Symbols = make([]Symbol, n)
		for i := range f.Symbols {
			d.symbol(&f.Symbols[i])
		}
	}
	if n, ok := d.len(); ok {
		f.Imports = make([]Import, n)
		for i := range f.Imports {
			m := &f.Imports[i]
			m.Kind = ImportKind(d.uint())
			m.Path = d.str()
			m.Name = d.str()
			m.Alias = d.str()
			m.Line = d.int()
			m.Reexport = d.bool()
			m.Static = d.bool()
			m.Scope = d.int()
		}
	}
	if n, ok := d.len(); ok {
		f.Exports = make([]Export, n)
		for i := range f.Exports {
			x := &f.Exports[i]
			x.Name = d.str()
			x.Local = d.str()
			x.Value = d.expr()
			x.Line = d.int()
		}
	}
	if d.lazyCalls {
		start := d.buf
		d.skipCalls()
		f.lazy = &lazyCalls{data: start[:len(start)-len(d.buf)]}
	} else {
		f.Calls = d.calls()
	}
	if n, ok := d.len(); ok {
		f.Bindings = make([]Binding, n)
		for i := range f.Bindings {
			b := &f.Bindings[i]
			b.Scope = d.int()
			b.Name = d.str()
			b.Type = d.str()
			b.Value = d.expr()
			b.Index = d.int()
			b.Elem = d.bool()
			b.Field = d.bool()
			b.Byte = d.u32()
			b.End = d.u32()
		}
	}
	if n, ok := d.len(); ok {
		f.Refs = make([]Ref, n)
		for i := range f.Refs {
			r := &f.Refs[i]
			r.Scope = d.int()
			r.Expr = d.expr()
			r.Line = d.int()
			r.Write = d.bool()
		}
	}
	f.SyntaxErrors = d.int()
	f.Macros = d.int()
	// The hashes of the names the facts mention (mentions.go): kept with
	// the encoded calls, skipped otherwise.
	n := d.uint()
	if n > uint64(len(d.buf)/4) {
		panic(errFactsTruncated)
	}
	if f.lazy != nil {
		f.lazy.mentions, f.lazy.hashed = d.buf[:4*n:4*n], true
	}
	d.buf = d.buf[4*n:]
	return f, d.buf, nil
}

// calls reads the calls' part of the form.
func (d *factsDecoder) calls() []Call {
	n, ok := d.len()
	if !ok {
		return nil
	}
	calls := make([]Call, n)
	for i := range calls {
		c := &calls[i]
		c.Scope = d.int()
		c.Callee = d.expr()
		c.Args = d.int()
		c.Line = d.int()
		c.Byte = d.u32()
		c.ArgExprs = d.exprs()
		c.Bare = d.bool()
	}
	return calls
}

// skipCalls reads past the calls' part of the form, checking it as calls
// does, without making them.
func (d *factsDecoder) skipCalls() {
	n, ok := d.len()
	if !ok {
		return
	}
	for range n {
		d.int()
		d.skipExpr()
		d.int()
		d.int()
		d.u32()
		d.skipExprs()
		d.bool()
	}
}

func (d *factsDecoder) skipExpr() {
	if d.byte() == 0 {
		return
	}
	d.uint()
	d.skipStr()
	d.skipExpr()
	d.skipExprs()
}

func (d *factsDecoder) skipExprs() {
	n, ok := d.len()
	if !ok {
		return
	}
	for range n {
		d.skipExpr()
	}
}

func (d *factsDecoder) skipStr() {
	n := d.uint()
	if n > uint64(len(d.buf)) {
		panic(errFactsTruncated)
	}
	d.buf = d.buf[n:]
}

type factsEncoder struct{ buf []byte }

func (e *factsEncoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *factsEncoder) int(v int)     { e.buf = binary.AppendVarint(e.buf, int64(v)) }

func (e *factsEncoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *factsEncoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// len writes a slice's length, keeping nil apart from empty.
func (e *factsEncoder) len(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *factsEncoder) strs(ss []string) {
	e.len(len(ss), ss == nil)
	for _, s := range ss {
		e.str(s)
	}
}

func (e *factsEncoder) params(ps []Param) {
	e.len(len(ps), ps == nil)
	for _, p := range ps {
		e.str(p.Name)
		e.str(p.Type)
		e.bool(p.Variadic)
		e.bool(p.Optional)
		e.expr(p.Default)
		e.bool(p.Supplied)
	}
}

func (e *factsEncoder) expr(x *Expr) {
	if x == nil {
		e.buf = append(e.buf, 0)
		return
	}
	e.buf = append(e.buf, 1)
	e.uint(uint64(x.Kind))
	e.str(x.Name)
	e.expr(x.X)
	e.exprs(x.Args)
}

func (e *factsEncoder) exprs(xs []*Expr) {
	e.len(len(xs), xs == nil)
	for _, x := range xs {
		e.expr(x)
	}
}

func (e *factsEncoder) symbol(s *Symbol) {
	e.uint(uint64(s.Kind))
	e.str(s.Name)
	e.str(s.Qual)
	e.int(s.Parent)
	e.int(s.StartLine)
	e.int(s.EndLine)
	e.uint(uint64(s.StartByte))
	e.uint(uint64(s.EndByte))
	e.str(s.Signature)
	e.str(s.Doc)
	e.bool(s.Exported)
	e.bool(s.Static)
	e.bool(s.Abstract)
	e.bool(s.Hidden)
	e.bool(s.Getter)
	e.str(s.Content)
	e.str(s.Type)
	e.expr(s.Value)
	e.strs(s.Returns)
	e.params(s.Params)
	e.str(s.Receiver)
	e.len(len(s.Bases), s.Bases == nil)
	for _, b := range s.Bases {
		e.str(b.Type)
		e.uint(uint64(b.Kind))
	}
	e.strs(s.Decorators)
	e.params(s.TypeParams)
}

// factsDecodeError is what a truncated or malformed form raises inside the
// decoder; DecodeFacts returns it.
type factsDecodeError struct{ error }

var errFactsTruncated = factsDecodeError{errors.New("facts: truncated data")}

type factsDecoder struct {
	buf    []byte
	shared bool // strings point into buf (DecodeFactsShared)
	// lazyCalls leaves the calls in buf (DecodeFactsShared).
	lazyCalls bool
	// slab is room for the expressions still to decode: they are taken
	// from it rather than allocated one by one.
	slab []Expr
}

func (d *factsDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		panic(errFactsTruncated)
	}
	d.buf = d.buf[n:]
	return v
}

func (d *factsDecoder) int() int {
	v, n := binary.Varint(d.buf)
	if n <= 0 {
		panic(errFactsTruncated)
	}
	d.buf = d.buf[n:]
	return int(v)
}

func (d *factsDecoder) u32() uint32 {
	v := d.uint()
	if v > math.MaxUint32 {
		panic(factsDecodeError{fmt.Errorf("facts: %d does not fit 32 bits", v)})
	}
	return uint32(v)
}

func (d *factsDecoder) byte() byte {
	if len(d.buf) == 0 {
		panic(errFactsTruncated)
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	return b
}

func (d *factsDecoder) bool() bool { return d.byte() != 0 }

func (d *factsDecoder) str() string {
	n := d.uint()
	if n > uint64(len(d.buf)) {
		panic(errFactsTruncated)
	}
	var s string
	switch {
	case n == 0:
	case d.shared:
		s = unsafe.String(&d.buf[0], int(n))
	default:
		s = string(d.buf[:n])
	}
	d.buf = d.buf[n:]
	return s
}

// len reads a slice's length; ok is false for a nil slice. A length longer
// than the data left is an error (every element takes a byte at least).
func (d *factsDecoder) len() (int, bool) {
	v := d.uint()
	if v == 0 {
		return 0, false
	}
	if v-1 > uint64(len(d.buf)) {
		panic(errFactsTruncated)
	}
	return int(v - 1), true
}

func (d *factsDecoder) strs() []string {
	n, ok := d.len()
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *factsDecoder) params() []Param {
	n, ok := d.len()
	if !ok {
		return nil
	}
	out := make([]Param, n)
	for i := range out {
		out[i] = Param{Name: d.str(), Type: d.str(), Variadic: d.bool(), Optional: d.bool(), Default: d.expr(), Supplied: d.bool()}
	}
	return out
}

func (d *factsDecoder) expr() *Expr {
	if d.byte() == 0 {
		return nil
	}
	if len(d.slab) == cap(d.slab) {
		d.slab = make([]Expr, 0, min(max(2*cap(d.slab), 16), 256))
	}
	d.slab = append(d.slab, Expr{Kind: ExprKind(d.uint()), Name: d.str()})
	x := &d.slab[len(d.slab)-1]
	x.X = d.expr()
	x.Args = d.exprs()
	return x
}

func (d *factsDecoder) exprs() []*Expr {
	n, ok := d.len()
	if !ok {
		return nil
	}
	out := make([]*Expr, n)
	for i := range out {
		out[i] = d.expr()
	}
	return out
}

func (d *factsDecoder) symbol(s *Symbol) {
	s.Kind = graph.NodeKind(d.uint())
	s.Name = d.str()
	s.Qual = d.str()
	s.Parent = d.int()
	s.StartLine = d.int()
	s.EndLine = d.int()
	s.StartByte = d.u32()
	s.EndByte = d.u32()
	s.Signature = d.str()
	s.Doc = d.str()
	s.Exported = d.bool()
	s.Static = d.bool()
	s.Abstract = d.bool()
	s.Hidden = d.bool()
	s.Getter = d.bool()
	s.Content = d.str()
	s.Type = d.str()
	s.Value = d.expr()
	s.Returns = d.strs()
	s.Params = d.params()
	s.Receiver = d.str()
	if n, ok := d.len(); ok {
		s.Bases = make([]Base, n)
		for i := range s.Bases {
			s.Bases[i] = Base{Type: d.str(), Kind: BaseKind(d.uint())}
		}
	}
	s.Decorators = d.strs()
	s.TypeParams = d.params()
}
