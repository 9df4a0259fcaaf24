package ir

import "testing"

// TestEveryKindClassified: every expression kind has its row in the one
// table the analyses read (a name and a class), so that none of them
// meets a kind it cannot place.
func TestEveryKindClassified(t *testing.T) {
	for k := range numExprKinds {
		if k.Class() == 0 || kinds[k].name == "" {
			t.Errorf("kind %d has no name or no class in kinds", k)
		}
	}
	if got := numExprKinds.Class(); got != 0 {
		t.Errorf("a kind past the table has class %d", got)
	}
}

// TestWritten: a read-modify-write names the locations it writes, every
// other kind none.
func TestWritten(t *testing.T) {
	a, b, c := &Expr{Kind: EShared, V: 1}, &Expr{Kind: EShared, V: 2}, &Expr{Kind: EConst}
	written := func(e *Expr) (out []*Expr) {
		Written(e, func(l *Expr) { out = append(out, l) })
		return out
	}
	for _, k := range []ExprKind{ECas, ESwap, EFaa} {
		if got := written(&Expr{Kind: k, A: a, B: c, C: c}); len(got) != 1 || got[0] != a {
			t.Errorf("%s writes %v, want A", k, got)
		}
	}
	word := &Expr{Kind: ECasWord, List: []*Expr{a, b, c, c, c, c}}
	if got := written(word); len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("a cas on a word writes %v, want its 2 locations", got)
	}
	if got := written(&Expr{Kind: EBinary, A: a, B: b}); got != nil {
		t.Errorf("a binary operator writes %v", got)
	}
}
