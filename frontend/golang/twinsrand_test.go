package golang

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// twin is a random model and its Go twin's translation.
type twin struct {
	seed   uint64
	lin, g *frontend.Model
}

// randomTwins draws n random models (internal/randmodel, with the
// constructs Go can say with the same steps), prints each that Go can say
// as Go (goPrinter; plain: with plain fields where no cas is made), loads
// them as one package, and returns each with its translation.
func randomTwins(t *testing.T, n int, plain bool) []twin {
	t.Helper()
	keep := randmodel.Heap | randmodel.Lock | randmodel.FlagWait | randmodel.Proc | randmodel.Queue |
		randmodel.Break | randmodel.Var | randmodel.Assert | randmodel.Loc
	type printed struct {
		seed    uint64
		lin     *frontend.Model
		typ     string
		methods []string
	}
	var ps []printed
	var src strings.Builder
	src.WriteString("package randtwins\n\nimport \"sync/atomic\"\n\nvar _ atomic.Int64\n\n")
	for seed := range uint64(n) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(seed, 35)), randmodel.Config{Exclude: ^keep, Symmetry: randmodel.SymmetricOnly})
		m, err := frontend.Parse(fmt.Sprintf("seed%d.lin", seed), []byte(p.Source))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		typ, methods, g, err := printGo(m, fmt.Sprint(seed), plain)
		if errors.Is(err, errInexpressible) {
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ps = append(ps, printed{seed: seed, lin: m, typ: typ, methods: methods})
		src.WriteString(g + "\n")
	}
	if len(ps) < n/4 {
		t.Fatalf("only %d of %d random programs can be said in Go with the same steps", len(ps), n)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module randtwins\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "twins.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := LoadPackage(".", dir)
	if err != nil {
		t.Fatalf("the printed Go does not load: %v", err)
	}
	var twins []twin
	for _, p := range ps {
		tg, err := pkg.Target(Config{Type: p.typ, Methods: p.methods})
		if err != nil {
			t.Errorf("seed %d: %v", p.seed, err)
			continue
		}
		name, gsrc, err := tg.Model()
		if err != nil {
			t.Errorf("seed %d: %v", p.seed, err)
			continue
		}
		gm, err := frontend.Parse(name, gsrc)
		if err != nil {
			t.Errorf("seed %d: the translation does not check: %v", p.seed, err)
			continue
		}
		twins = append(twins, twin{seed: p.seed, lin: p.lin, g: gm})
	}
	return twins
}

// TestRandomTwins: one program, two front ends, on random programs. Each
// random model that Go can say with the same steps is printed as Go, the
// Go translated back by this package, and the two implementation LTSs
// must be divergence-preserving branching bisimilar (or both stop at a
// model error).
func TestRandomTwins(t *testing.T) {
	n := testsize.Count(120, 300) // about 130 of 300 expressible in Go
	twins := randomTwins(t, n, false)
	agreed := 0
	for _, tw := range twins {
		b := tw.lin.DefaultBounds()
		a, errA := frontend.CompileImpl(tw.lin, b, frontend.Options{})
		g, errG := frontend.CompileImpl(tw.g, b, frontend.Options{})
		var meA, meG *frontend.ModelError
		switch {
		case errors.As(errA, &meA) && errors.As(errG, &meG):
			agreed++
			continue
		case errA != nil || errG != nil:
			t.Errorf("seed %d: .lin: %v; Go: %v", tw.seed, errA, errG)
			continue
		}
		eq, err := twinsBisimilar(a, g)
		if err != nil {
			t.Fatal(err)
		}
		if !eq {
			t.Errorf("seed %d: the .lin LTS (%d states) and the Go one (%d states) are not divergence-preserving branching bisimilar", tw.seed, a.NumStates, g.NumStates)
			continue
		}
		agreed++
	}
	t.Logf("%d of %d random programs printed as Go; %d agree", len(twins), n, agreed)
}
