package lts

import (
	"fmt"
	"sort"
	"strings"
)

// MCRL2Actions names the labels of some LTSs as mCRL2 actions and declares
// them, so that mCRL2's tools read the .aut files and the formulas linbis
// writes (lts2pbes --data=FILE.mcrl2, ltsconvert --data=FILE.mcrl2).
//
// mCRL2 reads an .aut label as a multi-action typechecked against declared
// actions: without declarations it refuses even "a". linbis's labels
// call(1,push,1), ret(2,pop,EMPTY), lin(1,push,1) are mCRL2 terms as they
// stand once the numbers are read as Int, true and false as Bool, and every
// other identifier (method names, EMPTY) as a constructor of one struct
// sort; an action used with several argument patterns (ret(1,enq),
// ret(1,deq,1), ret(1,deq,EMPTY)) gets one overloaded declaration per
// pattern. So a label keeps its text whenever it reads that way, and the
// user sees the same labels in linbis and in mCRL2.
//
// A label that does not read that way is renamed, the same way everywhere:
// an identifier that is an mCRL2 keyword or predefined function (a method
// named sum or max) gets a trailing underscore, and a label that is not an
// identifier applied to numbers and identifiers (CADP's "SEND !1", "a b")
// becomes one action named after its characters, with _ for the others.
// Renamed lists them; the .aut files must then be written with Name (see
// Relabel) before mCRL2 reads them.
type MCRL2Actions struct {
	// name maps every label but τ to its mCRL2 action.
	name map[string]string
	// sortName is the struct sort of the identifiers; constants are its
	// constructors, sorted.
	sortName  string
	constants []string
	// signatures maps an action name to its argument sorts, one entry per
	// overloaded declaration ("" for an action without arguments).
	signatures map[string]map[string]bool
}

// mcrl2Reserved are mCRL2's keywords and the names of its predefined
// sorts and functions: an identifier of a label that is one of them is
// renamed (a constructor named max would be ambiguous with the function).
var mcrl2Reserved = map[string]bool{}

func init() {
	const words = "Bag Bool FBag FSet Int List Nat Pos Real Set act allow block comm condeq condsm cons delay delta " +
		"dist div end eqinf eqn eqninf exists false forall form glob hide in inf init lambda map mod mu nu pbes pres proc " +
		"rename sort struct sum sup tau true val var whr yaled if nil " +
		"Bag2Set Int2Nat Int2Pos Int2Real Nat2Int Nat2Pos Nat2Real Pos2Int Pos2Nat Pos2Real Real2Int Real2Nat Real2Pos " +
		"Set2Bag abs ceil count exp floor head max min pick pred rhead round rtail sqrt succ tail"
	for _, w := range strings.Fields(words) {
		mcrl2Reserved[w] = true
	}
}

// mcrl2Term is a label read as an identifier applied to arguments.
type mcrl2Term struct {
	action string
	args   []string // trimmed; each an integer literal or an identifier
}

// NewMCRL2Actions names the labels of the given label tables (LTS.Labels
// of the LTSs to be read together) and builds their declarations.
func NewMCRL2Actions(tables ...[]string) *MCRL2Actions {
	m := &MCRL2Actions{name: map[string]string{}, signatures: map[string]map[string]bool{}}
	var labels []string
	seen := map[string]bool{TauName: true}
	for _, table := range tables {
		for _, l := range table {
			if !seen[l] {
				seen[l] = true
				labels = append(labels, l)
			}
		}
	}
	sort.Strings(labels)
	// used holds every identifier of a label that reads as a term, so that
	// the names made up below never merge two labels.
	terms := map[string]mcrl2Term{}
	used := map[string]bool{}
	var other []string
	for _, l := range labels {
		t, ok := parseMCRL2Term(l)
		if !ok {
			other = append(other, l)
			continue
		}
		terms[l] = t
		used[t.action] = true
		for _, a := range t.args {
			if isMCRL2Identifier(a) {
				used[a] = true
			}
		}
	}
	fresh := func(base string) string {
		for mcrl2Reserved[base] || used[base] {
			base += "_"
		}
		used[base] = true
		return base
	}
	renamed := map[string]string{} // reserved identifier -> its replacement
	ident := func(id string) string {
		if !mcrl2Reserved[id] {
			return id
		}
		if r, ok := renamed[id]; ok {
			return r
		}
		renamed[id] = fresh(id)
		return renamed[id]
	}
	m.sortName = fresh("Name")
	constants := map[string]bool{}
	for _, l := range labels {
		t, ok := terms[l]
		if !ok {
			continue
		}
		action := ident(t.action)
		sorts := make([]string, len(t.args))
		args := make([]string, len(t.args))
		for i, a := range t.args {
			switch {
			case a == "true" || a == "false":
				sorts[i], args[i] = "Bool", a
			case isMCRL2Identifier(a):
				args[i] = ident(a)
				sorts[i] = m.sortName
				constants[args[i]] = true
			default:
				sorts[i], args[i] = "Int", a
			}
		}
		m.declare(action, strings.Join(sorts, " # "))
		if action == t.action && strings.Join(args, ",") == strings.Join(t.args, ",") {
			m.name[l] = l // as it stands (spaces after commas kept)
		} else if len(args) == 0 {
			m.name[l] = action
		} else {
			m.name[l] = action + "(" + strings.Join(args, ",") + ")"
		}
	}
	for _, l := range other {
		action := fresh(mcrl2Identifier(l))
		m.declare(action, "")
		m.name[l] = action
	}
	for c := range constants {
		m.constants = append(m.constants, c)
	}
	sort.Strings(m.constants)
	return m
}

func (m *MCRL2Actions) declare(action, signature string) {
	if m.signatures[action] == nil {
		m.signatures[action] = map[string]bool{}
	}
	m.signatures[action][signature] = true
}

// Name returns the mCRL2 action of label: the label itself unless it had
// to be renamed; τ is "tau". A label the tables did not hold is returned
// as it is.
func (m *MCRL2Actions) Name(label string) string {
	if n, ok := m.name[label]; ok {
		return n
	}
	return label
}

// Renamed returns the labels whose mCRL2 action differs from their text,
// mapped to it; nil when there are none (then linbis's .aut files are
// mCRL2's as they are).
func (m *MCRL2Actions) Renamed() map[string]string {
	var r map[string]string
	for l, n := range m.name {
		if l != n {
			if r == nil {
				r = map[string]string{}
			}
			r[l] = n
		}
	}
	return r
}

// Declarations returns an mCRL2 specification without init: the struct
// sort of the labels' identifiers and the (overloaded) action
// declarations, for lts2pbes --data=FILE and ltsconvert --data=FILE.
func (m *MCRL2Actions) Declarations() string {
	var sb strings.Builder
	sb.WriteString("% mCRL2 declarations of the actions of linbis's labels: numbers are Int, true and false Bool,\n" +
		"% other identifiers constructors of " + m.sortName + ". Use: lts2pbes --data=THIS_FILE --formula=F.mcf LTS.aut\n")
	if len(m.constants) > 0 {
		fmt.Fprintf(&sb, "sort %s = struct %s;\n", m.sortName, strings.Join(m.constants, " | "))
	}
	actions := make([]string, 0, len(m.signatures))
	for a := range m.signatures {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	if len(actions) > 0 {
		sb.WriteString("act\n")
	}
	for _, a := range actions {
		sigs := make([]string, 0, len(m.signatures[a]))
		for s := range m.signatures[a] {
			sigs = append(sigs, s)
		}
		sort.Strings(sigs)
		for _, s := range sigs {
			if s == "" {
				fmt.Fprintf(&sb, "  %s;\n", a)
			} else {
				fmt.Fprintf(&sb, "  %s: %s;\n", a, s)
			}
		}
	}
	return sb.String()
}

// parseMCRL2Term reads label as Id or Id(arg,…), each arg an integer
// literal (mCRL2's: no leading zeros, a minus sign allowed) or an
// identifier; spaces around arguments are allowed.
func parseMCRL2Term(label string) (mcrl2Term, bool) {
	open := strings.IndexByte(label, '(')
	if open < 0 {
		return mcrl2Term{action: label}, isMCRL2Identifier(label)
	}
	t := mcrl2Term{action: label[:open]}
	if !isMCRL2Identifier(t.action) || !strings.HasSuffix(label, ")") {
		return mcrl2Term{}, false
	}
	for _, a := range strings.Split(label[open+1:len(label)-1], ",") {
		a = strings.TrimSpace(a)
		if !isMCRL2Identifier(a) && !isMCRL2Integer(a) {
			return mcrl2Term{}, false
		}
		t.args = append(t.args, a)
	}
	return t, true
}

// isMCRL2Identifier reports whether s is an mCRL2 identifier:
// [A-Za-z_][A-Za-z_0-9']*.
func isMCRL2Identifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c != '\'' && (c < '0' || c > '9')) {
			return false
		}
	}
	return s != ""
}

// isMCRL2Integer reports whether s is an integer literal mCRL2 reads:
// 0 or a digit string without leading zero, after an optional minus sign.
func isMCRL2Integer(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// mcrl2Identifier makes an identifier of any label: its letters, digits
// and underscores, the other characters as _, after a letter when it would
// start with a digit.
func mcrl2Identifier(label string) string {
	var sb strings.Builder
	for _, c := range label {
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			sb.WriteRune(c)
		default:
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "a" + s
	}
	return s
}
