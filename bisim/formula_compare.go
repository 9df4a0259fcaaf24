package bisim

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// distinguishingFormula builds, from the partition of the union u of a and
// b (off is b's offset in u), a formula that tells their initial states
// apart, and checks it on a and b as they are: it must hold in the initial
// state of side holdsIn and not in the other's. A formula that fails the
// check is a bug in linbis and is returned as an error, never shown.
func distinguishingFormula(a, b, u *lts.LTS, off int32, k *kernel, kblock, class, rename []int32, numClasses int32,
	eq Equivalence) (f *Formula, holdsIn int, err error) {
	q := quotient(u, k, kblock, rename, numClasses)
	fb, err := newFormulaBuilder(q, eq)
	if err != nil {
		return nil, 0, err
	}
	if f, err = fb.distinguish(class[a.Initial], class[off+b.Initial]); err != nil {
		return nil, 0, err
	}
	if f.Op == OpNot { // say what one side can do rather than what it cannot
		f, holdsIn = f.Args[0], 1
	}
	if err := CheckDistinguishes(a, b, f, holdsIn); err != nil {
		return nil, 0, err
	}
	return f, holdsIn, nil
}

// CheckDistinguishes model-checks f on a and b and returns an error unless
// it holds in the initial state of a when holdsIn is 0 (of b when 1) and not
// in the other's.
func CheckDistinguishes(a, b *lts.LTS, f *Formula, holdsIn int) error {
	ha, hb := Holds(a, f), Holds(b, f)
	if ha == hb || ha != (holdsIn == 0) {
		return fmt.Errorf("internal error: the distinguishing formula holds in A: %v, in B: %v, expected only in %c: %v",
			ha, hb, "AB"[holdsIn], f)
	}
	return nil
}
