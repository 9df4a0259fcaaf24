package randmodel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/internal/parallel"
	"github.com/linbis/linbis/internal/testsize"
	"github.com/linbis/linbis/verify"
)

// seeds is the number of programs the tests generate (seeds 0..seeds-1).
const seeds = 2000

// maxStates bounds each LTS of a generated program.
const maxStates = 20000

// program returns the program of a seed.
func program(seed uint64, cfg Config) Program {
	return GenerateProgram(rand.New(rand.NewPCG(seed, 0)), cfg)
}

// tally counts the outcomes of verifying generated programs.
type tally struct {
	programs, modelErrors         int
	linearizable, notLinearizable int
	lockFree, notLockFree         int
	bisimilar, symmetric          int
	indexSymmetric                int // symmetric without TidBeyondIndex
	features                      [numFeatures]int
}

func (c *tally) String() string {
	var uses []string
	for i, f := range Features() {
		uses = append(uses, fmt.Sprintf("%s %d", f, c.features[i]))
	}
	return fmt.Sprintf("%d programs: %d model errors; linearizable %d, not %d; lock-free %d, not %d; "+
		"bisimilar %d; symmetric %d (tid only as an index: %d)\nfeatures: %s", c.programs, c.modelErrors, c.linearizable,
		c.notLinearizable, c.lockFree, c.notLockFree, c.bisimilar, c.symmetric, c.indexSymmetric, strings.Join(uses, ", "))
}

// verifyProgram runs the whole pipeline (bisimulation, refinement and
// progress: --method both) on a program under its client's bounds, in
// the garbage-collected or the explicit heap mode.
func verifyProgram(name string, p Program, gc bool) (*verify.Report, error) {
	m, err := frontend.Parse(name, []byte(p.Source))
	if err != nil {
		return nil, err
	}
	copts := frontend.Options{}
	copts.Explicit = !gc
	copts.MaxStates = maxStates
	copts.Workers = 1
	out, err := verify.Run(context.Background(), name, m, m.DefaultBounds(), verify.Options{Method: verify.Both, Antichain: true, Compile: copts})
	if err != nil {
		return nil, err
	}
	return out.Report, nil
}

// add counts the outcome of verifyProgram on p. A model error is
// accepted only where the generator means one: a failed assertion, or a
// double free of a node popped twice after ABA in explicit mode. Every
// other error fails the test, and so do undecided or inconsistent verdicts.
func (c *tally) add(t *testing.T, name string, p Program, gc bool, r *verify.Report, err error) {
	t.Helper()
	c.programs++
	for i, f := range Features() {
		if p.Features&f != 0 {
			c.features[i]++
		}
	}
	if p.Symmetric() {
		c.symmetric++
		if p.Features&TidBeyondIndex == 0 {
			c.indexSymmetric++
		}
	}
	var me *frontend.ModelError
	if errors.As(err, &me) {
		explicit := !gc || p.Features&ExplicitHeap != 0
		meant := p.Features&Assert != 0 && me.Msg == "assertion failed" ||
			explicit && p.Features&Free != 0 && me.Msg == "double free"
		assert.True(t, meant, "%s (gc %v): unintended model error: %v\n%s", name, gc, err, p.Source)
		c.modelErrors++
		return
	}
	require.NoError(t, err, "%s (gc %v)\n%s", name, gc, p.Source)
	for _, note := range r.Notes {
		assert.NotContains(t, note, "INCONSISTENT", "%s (gc %v)\n%s", name, gc, p.Source)
	}
	count := func(v verify.Verdict, yes, no *int) {
		require.NotEqual(t, verify.Unknown, v, "%s (gc %v)", name, gc)
		if v == verify.Yes {
			*yes++
		} else {
			*no++
		}
	}
	count(r.Linearizable, &c.linearizable, &c.notLinearizable)
	count(r.LockFree, &c.lockFree, &c.notLockFree)
	if r.Bisimilar == verify.Yes {
		c.bisimilar++
	}
}

// TestProgramsVerify generates programs from seeds 0..1999 and verifies
// each, and those that free nodes (without declaring `heap explicit`)
// also in explicit heap mode: it must
// parse, check and explore (implementation and specification, each within
// maxStates) and get definite verdicts on which the bisimulation route
// and the direct checks agree. The verdicts must be mixed: a generator
// whose programs all pass (or all fail) would make a cross-check that
// proves nothing.
func TestProgramsVerify(t *testing.T) {
	n := testsize.Count(200, seeds)
	type result struct {
		report *verify.Report
		err    error
	}
	programs := make([]Program, n)
	gcResults, explicitResults := make([]result, n), make([]result, n)
	parallel.ForEach(runtime.GOMAXPROCS(0), n, func(i int) {
		p := program(uint64(i), Config{})
		programs[i] = p
		name := fmt.Sprintf("seed%d.lin", i)
		gcResults[i].report, gcResults[i].err = verifyProgram(name, p, true)
		if p.Features&(Free|ExplicitHeap) == Free {
			explicitResults[i].report, explicitResults[i].err = verifyProgram(name, p, false)
		}
	})
	var gc, explicit tally
	for i, p := range programs {
		name := fmt.Sprintf("seed%d.lin", i)
		gc.add(t, name, p, true, gcResults[i].report, gcResults[i].err)
		if p.Features&(Free|ExplicitHeap) == Free {
			explicit.add(t, name, p, false, explicitResults[i].report, explicitResults[i].err)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("garbage-collected heap: %s", &gc)
	t.Logf("explicit heap (the programs with free): %s", &explicit)

	share := func(k int) float64 { return float64(k) / float64(gc.programs) }
	for what, k := range map[string]int{"linearizable": gc.linearizable, "not linearizable": gc.notLinearizable,
		"lock-free": gc.lockFree, "not lock-free": gc.notLockFree, "bisimilar": gc.bisimilar} {
		assert.Greater(t, share(k), 0.1, "too few programs %s", what)
	}
	assert.InDelta(t, 0.5, share(gc.symmetric), 0.15, "symmetric and asymmetric programs about half each")
	assert.Less(t, share(gc.modelErrors), 0.05, "model errors are rare")
	for i, f := range Features() {
		assert.GreaterOrEqual(t, share(gc.features[i]), 0.01, "feature %s is used", f)
	}
	assert.Positive(t, explicit.notLinearizable, "explicit free makes some programs non-linearizable (ABA)")
}

// evidence tells, for each feature, what in the source shows its use; the
// object's text (before the specification) is searched, except for
// features of the specification and client.
var evidence = map[Feature]*regexp.Regexp{
	Heap:        regexp.MustCompile(`shared Top ref Node`),
	Free:        regexp.MustCompile(`(free|retire)\(`),
	Lock:        regexp.MustCompile(`cas\(Lock, false, true\)`),
	FlagWait:    regexp.MustCompile(`while \w+ == 0|if t\d+ != 0 \{\n\s*return`),
	Await:       regexp.MustCompile(`await`),
	Assert:      regexp.MustCompile(`assert`),
	HandSpec:    regexp.MustCompile(`spec RandSpec`),
	TidIndex:    regexp.MustCompile(`A\[tid`),
	TidValue:    regexp.MustCompile(`cas\(Owner, 0, tid\)`),
	TidCount:    regexp.MustCompile(`!= tid && A\[`),
	TidArith:    regexp.MustCompile(`tid [+%]|\+ tid`),
	TidOrder:    regexp.MustCompile(`tid == 1|< tid`),
	TidScan:     regexp.MustCompile(`s\d+ := A\[i\d+\]`),
	Only:        regexp.MustCompile(`only 1:`),
	MutatedSpec: nil, // the mutation is not visible without comparing the spec with the object

	Hazard:       regexp.MustCompile(`HP\[tid\] = t`),
	Queue:        regexp.MustCompile(`shared Head ref Node`),
	ExplicitHeap: regexp.MustCompile(`heap explicit`),
	Proc:         regexp.MustCompile(`proc p\d`),
	Break:        regexp.MustCompile(`\b(break|continue)\b`),
	Choose:       regexp.MustCompile(`choose \{`),
	Any:          regexp.MustCompile(`any \d`),
	Var:          regexp.MustCompile(`var \w+ (int|bool)`),
	PerThread:    regexp.MustCompile(`shared [PRS] \[thread\]`),
	ThreadValue:  regexp.MustCompile(`thread = tid|Last = tid|swap\(Last, tid\)`),
	ForThreads:   regexp.MustCompile(`for j\d+ in (others|threads)`),
	RMW:          regexp.MustCompile(`(swap|faa)\(`),
	LocalLoop:    regexp.MustCompile(`while k\d+ < 2`),
	Loc:          regexp.MustCompile(`&[A-Z]|&t\d+\.cnt|var \w+ loc `),
	FieldArray:   regexp.MustCompile(`cnt \[2\] int`),
}

// symmetricTid matches the uses of tid allowed in a symmetric program.
var symmetricTid = regexp.MustCompile(`(A|HP|P|R|S)\[tid\]|cas\(Owner, 0, tid\)|Owner == tid|i\d+ != tid &&|thread = tid|Last (=|==) tid|swap\(Last, tid\)|was\d+ == tid`)

// indexOnlyTid matches the uses of tid allowed in a symmetric program
// without the TidBeyondIndex features.
var indexOnlyTid = regexp.MustCompile(`(A|HP|P|R|S)\[tid\]`)

// checkFeatures checks that p uses exactly the features it reports, that
// it is symmetric or not as cfg asks, and that it avoids the features cfg
// excludes.
func checkFeatures(t *testing.T, p Program, cfg Config) {
	t.Helper()
	object, _, ok := strings.Cut(p.Source, "\nspec ")
	require.True(t, ok, "no specification:\n%s", p.Source)
	for _, f := range Features() {
		rx, ok := evidence[f]
		require.True(t, ok, "no evidence for %s", f)
		if rx == nil {
			continue
		}
		text := object
		if f == HandSpec || f == Only {
			text = p.Source
		}
		assert.Equal(t, p.Features&f != 0, rx.MatchString(text), "feature %s (features %s):\n%s", f, p.Features, p.Source)
	}
	if p.Features&(FlagWait|MutatedSpec) != 0 {
		assert.NotZero(t, p.Features&HandSpec, "spins and mutations need a hand-written spec")
	}
	assert.Zero(t, p.Features&cfg.Exclude, "excluded features %s", p.Features&cfg.Exclude)
	if p.Symmetric() {
		rest := symmetricTid.ReplaceAllString(p.Source, "")
		assert.NotRegexp(t, `\btid\b`, rest, "a symmetric program uses tid only as A[tid] (or a row's index), an owner, a thread value or in i != tid:\n%s", p.Source)
	}
	if p.Symmetric() && p.Features&TidBeyondIndex == 0 {
		rest := indexOnlyTid.ReplaceAllString(p.Source, "")
		assert.NotRegexp(t, `\btid\b`, rest, "tid only as the index of the thread's own slot:\n%s", p.Source)
		assert.NotContains(t, strings.ReplaceAll(rest, "[1..nthreads]", ""), "nthreads", "no loops over threads:\n%s", p.Source)
	}
	switch {
	case cfg.Symmetry == SymmetricOnly:
		assert.True(t, p.Symmetric(), "asked for symmetric programs")
	case cfg.Symmetry == AsymmetricOnly && cfg.Exclude&AsymmetricFeatures != AsymmetricFeatures:
		assert.False(t, p.Symmetric(), "asked for asymmetric programs")
	}
}

// TestFeatures checks every program's features against its source, in
// each symmetry class and with some features excluded.
func TestFeatures(t *testing.T) {
	configs := []Config{
		{},
		{Symmetry: SymmetricOnly},
		{Symmetry: AsymmetricOnly},
		{Exclude: Heap | Free | Assert},
		{Symmetry: AsymmetricOnly, Exclude: Only | TidArith},
		{Exclude: HandSpec},
		{Symmetry: SymmetricOnly, Exclude: TidBeyondIndex},
		{Exclude: Heap | Queue | Hazard | Proc | Break | Choose | Any | Var},
	}
	for _, cfg := range configs {
		t.Run(fmt.Sprintf("%d/%s", cfg.Symmetry, cfg.Exclude), func(t *testing.T) {
			for seed := range uint64(seeds) {
				checkFeatures(t, program(seed, cfg), cfg)
				if t.Failed() {
					t.Fatalf("seed %d", seed)
				}
			}
		})
	}
}

// TestDeterministic checks that a seed always yields the same program and
// that different seeds yield different ones.
func TestDeterministic(t *testing.T) {
	distinct := map[string]bool{}
	for seed := range uint64(seeds) {
		p := program(seed, Config{})
		require.Equal(t, p, program(seed, Config{}), "seed %d", seed)
		distinct[p.Source] = true
	}
	assert.Greater(t, len(distinct), seeds*9/10, "distinct programs")
}

// FuzzGenerate checks that whatever the seed and configuration, the
// generator's output parses and checks without an error and uses the
// features it reports.
func FuzzGenerate(f *testing.F) {
	f.Add(uint64(0), uint64(0), uint8(Mixed), uint32(0))
	f.Add(uint64(7), uint64(1), uint8(AsymmetricOnly), uint32(Only|TidArith))
	f.Add(uint64(3), uint64(2), uint8(SymmetricOnly), uint32(Heap|HandSpec))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, symmetry uint8, exclude uint32) {
		cfg := Config{Symmetry: Symmetry(symmetry % 3), Exclude: Feature(exclude) & (1<<numFeatures - 1)}
		p := GenerateProgram(rand.New(rand.NewPCG(s1, s2)), cfg)
		_, err := frontend.Parse("fuzz.lin", []byte(p.Source))
		require.NoError(t, err, p.Source)
		checkFeatures(t, p, cfg)
	})
}
