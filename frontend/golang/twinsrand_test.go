package golang

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/randmodel"
	"github.com/linbis/linbis/internal/testsize"
)

// TestRandomTwins: one program, two front ends, on random programs. Each
// random model (internal/randmodel, with the constructs Go can say with
// the same steps) is printed as Go (goPrinter), the Go translated back by
// this package, and the two implementation LTSs must be
// divergence-preserving branching bisimilar (or both stop at a model
// error).
func TestRandomTwins(t *testing.T) {
	n := testsize.Count(120, 300) // about 130 of 300 expressible in Go
	keep := randmodel.Heap | randmodel.Lock | randmodel.FlagWait | randmodel.Proc | randmodel.Queue |
		randmodel.Break | randmodel.Var | randmodel.Assert
	type twin struct {
		seed    uint64
		lin     *frontend.Model
		typ     string
		methods []string
	}
	var twins []twin
	var src strings.Builder
	src.WriteString("package randtwins\n\nimport \"sync/atomic\"\n\nvar _ atomic.Int64\n\n")
	for seed := range uint64(n) {
		p := randmodel.GenerateProgram(rand.New(rand.NewPCG(seed, 35)), randmodel.Config{Exclude: ^keep, Symmetry: randmodel.SymmetricOnly})
		m, err := frontend.Parse(fmt.Sprintf("seed%d.lin", seed), []byte(p.Source))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		typ, methods, g, err := printGo(m, fmt.Sprint(seed))
		if errors.Is(err, errInexpressible) {
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		twins = append(twins, twin{seed: seed, lin: m, typ: typ, methods: methods})
		src.WriteString(g + "\n")
	}
	if len(twins) < n/4 {
		t.Fatalf("only %d of %d random programs can be said in Go with the same steps", len(twins), n)
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
	agreed := 0
	for _, tw := range twins {
		tg, err := pkg.Target(Config{Type: tw.typ, Methods: tw.methods})
		if err != nil {
			t.Errorf("seed %d: %v", tw.seed, err)
			continue
		}
		name, gsrc, err := tg.Model()
		if err != nil {
			t.Errorf("seed %d: %v", tw.seed, err)
			continue
		}
		gm, err := frontend.Parse(name, gsrc)
		if err != nil {
			t.Errorf("seed %d: the translation does not check: %v", tw.seed, err)
			continue
		}
		b := tw.lin.DefaultBounds()
		a, errA := frontend.CompileImpl(tw.lin, b, frontend.Options{})
		g, errG := frontend.CompileImpl(gm, b, frontend.Options{})
		var meA, meG *frontend.ModelError
		switch {
		case errors.As(errA, &meA) && errors.As(errG, &meG):
			agreed++
			continue
		case errA != nil || errG != nil:
			t.Errorf("seed %d: .lin: %v; Go: %v", tw.seed, errA, errG)
			continue
		}
		cmp, err := bisim.Compare(a, g, bisim.DivBranching, bisim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equivalent {
			t.Errorf("seed %d: the .lin LTS (%d states) and the Go one (%d states) are not divergence-preserving branching bisimilar", tw.seed, a.NumStates, g.NumStates)
			continue
		}
		agreed++
	}
	t.Logf("%d of %d random programs printed as Go; %d agree", len(twins), n, agreed)
}
