package cypher

// The syntax tree of a query, as the parser builds it. Nothing here is
// resolved: variables are names, functions are names. The resolver reads it
// and never changes it.

// Statement is a whole query: one or more single queries joined by UNION.
type Statement struct {
	Explain  bool
	Parts    []*SingleQuery
	UnionAll []bool // len(Parts)-1: UNION ALL (true) or UNION (false)
	UnionPos []Pos
}

// SingleQuery is a sequence of clauses ending in RETURN.
type SingleQuery struct {
	Clauses []Clause
}

// Clause is MATCH, UNWIND, WITH or RETURN.
type Clause interface{ clausePos() Pos }

// MatchClause is MATCH or OPTIONAL MATCH with its WHERE.
type MatchClause struct {
	Pos      Pos
	Optional bool
	Pattern  []*PatternPart
	Where    Expr
}

// UnwindClause is UNWIND expr AS var.
type UnwindClause struct {
	Pos    Pos
	Expr   Expr
	Var    string
	VarPos Pos
}

// WithClause is WITH projection [WHERE expr].
type WithClause struct {
	Pos   Pos
	Proj  *Projection
	Where Expr
}

// ReturnClause is RETURN projection.
type ReturnClause struct {
	Pos  Pos
	Proj *Projection
}

func (c *MatchClause) clausePos() Pos  { return c.Pos }
func (c *UnwindClause) clausePos() Pos { return c.Pos }
func (c *WithClause) clausePos() Pos   { return c.Pos }
func (c *ReturnClause) clausePos() Pos { return c.Pos }

// Projection is the body of WITH and RETURN.
type Projection struct {
	Distinct bool
	Star     bool // RETURN * / WITH *
	StarPos  Pos
	Items    []*ProjItem
	Order    []*SortItem
	Skip     Expr
	Limit    Expr
}

// ProjItem is `expr [AS alias]`. Text is the expression as written, the
// column name when there is no alias.
type ProjItem struct {
	Expr     Expr
	Alias    string
	AliasPos Pos
	Text     string
}

// Name is the column name of the item.
func (it *ProjItem) Name() string {
	if it.Alias != "" {
		return it.Alias
	}
	return it.Text
}

// SortItem is one ORDER BY key.
type SortItem struct {
	Expr Expr
	Desc bool
}

// PatternPart is `[p =] (a)-[r]->(b)...`: Nodes[i] and Nodes[i+1] are
// joined by Rels[i]. In `p = shortestPath((a)-[*]->(b))` Shortest says
// which paths are kept and ShortestPos is where the function is written.
type PatternPart struct {
	Pos         Pos
	PathVar     string
	PathPos     Pos
	Nodes       []*NodePattern
	Rels        []*RelPattern
	Shortest    Shortest
	ShortestPos Pos
}

// Shortest selects among the paths of a pattern part.
type Shortest uint8

// Selectors: every path, shortestPath (one shortest path per pair of
// ends), allShortestPaths (every path of the shortest length per pair).
const (
	AllPaths Shortest = iota
	ShortestOne
	ShortestAll
)

// String is the function's name as written in Cypher.
func (s Shortest) String() string {
	switch s {
	case ShortestOne:
		return "shortestPath"
	case ShortestAll:
		return "allShortestPaths"
	}
	return ""
}

// NodePattern is `(var:Label|Other {prop: value})`. Labels is a
// conjunction of alternatives: `:A|B` is [[A B]], `:A:B` is [[A] [B]].
type NodePattern struct {
	Pos    Pos
	Var    string
	Labels [][]string
	Props  *MapLit
}

// Direction of a relationship pattern.
type Direction uint8

// Directions as written: -[]->, <-[]-, -[]-.
const (
	DirOut Direction = iota
	DirIn
	DirBoth
)

// RelPattern is `-[var:T|U *min..max {prop: value}]->`.
type RelPattern struct {
	Pos    Pos
	Var    string
	Types  []string
	Dir    Direction
	VarLen bool
	Min    int
	Max    int // -1: unbounded (capped at MaxVarLength)
	Props  *MapLit
}

// Expr is an expression.
type Expr interface{ exprPos() Pos }

type (
	// Literal is null, a boolean, a number or a string.
	Literal struct {
		Pos Pos
		Val Value
	}
	// ListLit is [a, b, c].
	ListLit struct {
		Pos   Pos
		Elems []Expr
	}
	// MapLit is {key: value, ...}.
	MapLit struct {
		Pos  Pos
		Keys []string
		Vals []Expr
	}
	// Param is $name.
	Param struct {
		Pos  Pos
		Name string
	}
	// Variable is a name bound by a pattern, WITH, UNWIND or a comprehension.
	Variable struct {
		Pos  Pos
		Name string
	}
	// PropAccess is x.name.
	PropAccess struct {
		Pos  Pos
		X    Expr
		Name string
	}
	// IndexExpr is x[i].
	IndexExpr struct {
		Pos   Pos
		X     Expr
		Index Expr
	}
	// SliceExpr is x[from..to]; either bound may be nil.
	SliceExpr struct {
		Pos      Pos
		X        Expr
		From, To Expr
	}
	// UnaryExpr is NOT x, -x, +x.
	UnaryExpr struct {
		Pos Pos
		Op  string
		X   Expr
	}
	// BinaryExpr is x op y for the boolean, comparison, arithmetic, string
	// and list operators. Op is upper case: "AND", "=", "STARTS WITH", ...
	BinaryExpr struct {
		Pos  Pos
		Op   string
		L, R Expr
	}
	// IsNullExpr is x IS [NOT] NULL.
	IsNullExpr struct {
		Pos Pos
		X   Expr
		Not bool
	}
	// LabelExpr is x:Label|Other (a label test).
	LabelExpr struct {
		Pos    Pos
		X      Expr
		Labels [][]string
	}
	// CallExpr is name([DISTINCT] args) or count(*).
	CallExpr struct {
		Pos      Pos
		Name     string
		Distinct bool
		Star     bool
		Args     []Expr
	}
	// CaseExpr is CASE [subject] WHEN ... THEN ... [ELSE ...] END.
	CaseExpr struct {
		Pos     Pos
		Subject Expr
		Whens   []Expr
		Thens   []Expr
		Else    Expr
	}
	// ListComp is [v IN list WHERE pred | proj].
	ListComp struct {
		Pos    Pos
		Var    string
		List   Expr
		Where  Expr
		Proj   Expr
		VarPos Pos
	}
	// Quantifier is all/any/none/single(v IN list WHERE pred).
	Quantifier struct {
		Pos   Pos
		Kind  string
		Var   string
		List  Expr
		Where Expr
	}
	// ReduceExpr is reduce(acc = init, v IN list | expr).
	ReduceExpr struct {
		Pos  Pos
		Acc  string
		Init Expr
		Var  string
		List Expr
		Expr Expr
	}
	// PatternExpr is a relationship pattern used as an expression: a
	// predicate in WHERE (`(a)-[:CALLS]->(b)`), else the list of its paths.
	PatternExpr struct {
		Pos  Pos
		Part *PatternPart
	}
	// PatternComp is [p = (a)-->(b) WHERE pred | proj].
	PatternComp struct {
		Pos   Pos
		Part  *PatternPart
		Where Expr
		Proj  Expr
	}
	// SubqueryExpr is EXISTS { [MATCH] pattern [WHERE pred] } or
	// COUNT { ... }.
	SubqueryExpr struct {
		Pos     Pos
		Count   bool
		Pattern []*PatternPart
		Where   Expr
	}
	// MapProjection is v {.name, .*, key: expr, other}.
	MapProjection struct {
		Pos   Pos
		X     *Variable
		Items []MapProjItem
	}
)

// MapProjItem is one entry of a map projection.
type MapProjItem struct {
	Kind string // "prop" (.name), "all" (.*), "key" (key: expr), "var" (name)
	Key  string
	Expr Expr
}

func (e *Literal) exprPos() Pos       { return e.Pos }
func (e *ListLit) exprPos() Pos       { return e.Pos }
func (e *MapLit) exprPos() Pos        { return e.Pos }
func (e *Param) exprPos() Pos         { return e.Pos }
func (e *Variable) exprPos() Pos      { return e.Pos }
func (e *PropAccess) exprPos() Pos    { return e.Pos }
func (e *IndexExpr) exprPos() Pos     { return e.Pos }
func (e *SliceExpr) exprPos() Pos     { return e.Pos }
func (e *UnaryExpr) exprPos() Pos     { return e.Pos }
func (e *BinaryExpr) exprPos() Pos    { return e.Pos }
func (e *IsNullExpr) exprPos() Pos    { return e.Pos }
func (e *LabelExpr) exprPos() Pos     { return e.Pos }
func (e *CallExpr) exprPos() Pos      { return e.Pos }
func (e *CaseExpr) exprPos() Pos      { return e.Pos }
func (e *ListComp) exprPos() Pos      { return e.Pos }
func (e *Quantifier) exprPos() Pos    { return e.Pos }
func (e *ReduceExpr) exprPos() Pos    { return e.Pos }
func (e *PatternExpr) exprPos() Pos   { return e.Pos }
func (e *PatternComp) exprPos() Pos   { return e.Pos }
func (e *SubqueryExpr) exprPos() Pos  { return e.Pos }
func (e *MapProjection) exprPos() Pos { return e.Pos }
