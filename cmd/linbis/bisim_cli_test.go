package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
	"github.com/linbis/linbis/verify"
)

// writeAut writes content to dir/name and returns the path.
func writeAut(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestReduceThenCompare(t *testing.T) {
	dir := t.TempDir()
	in := writeAut(t, dir, "in.aut", exampleAut)
	for _, eq := range []string{"strong", "branching", "divbranching"} {
		for _, alg := range []string{"fast", "gv"} {
			t.Run(eq+"/"+alg, func(t *testing.T) {
				out := filepath.Join(dir, eq+"-"+alg+".aut")
				code, _, errOut := linbis("reduce", in, "-o", out, "--equiv", eq, "--algorithm", alg)
				require.Equal(t, 0, code, errOut)
				assert.Contains(t, errOut, "states")
				code, _, errOut = linbis("reduce", "-q", in, "-o", out, "--equiv", eq, "--algorithm", alg)
				require.Equal(t, 0, code)
				assert.Empty(t, errOut)
				q, err := lts.ReadFile(out, lts.ReadOptions{})
				require.NoError(t, err)
				orig, err := lts.ReadFile(in, lts.ReadOptions{})
				require.NoError(t, err)
				assert.LessOrEqual(t, q.NumStates, orig.NumStates)
				code, stdout, errOut := linbis("compare", in, out, "--equiv", eq, "--algorithm", alg)
				assert.Equal(t, 0, code, errOut)
				assert.Contains(t, stdout, "are equivalent")
			})
		}
	}
}

// The bundled CAS counter (two threads, one inc each) against the atomic
// counter written by hand: every inc of the atomic version is call, one τ
// (the effect), ret. The CAS version is linearizable, so the two are
// branching bisimilar; a wrong specification is caught with a
// counterexample.
const atomicCounter2x1 = `des (0, 24, 16)
(0,"call(1,inc)",1)
(0,"call(2,inc)",4)
(1,"tau",2)
(1,"call(2,inc)",5)
(2,"ret(1,inc)",3)
(2,"call(2,inc)",6)
(3,"call(2,inc)",7)
(4,"call(1,inc)",5)
(4,"tau",8)
(5,"tau",6)
(5,"tau",9)
(6,"ret(1,inc)",7)
(6,"tau",10)
(7,"tau",11)
(8,"call(1,inc)",9)
(8,"ret(2,inc)",12)
(9,"tau",10)
(9,"ret(2,inc)",13)
(10,"ret(1,inc)",11)
(10,"ret(2,inc)",14)
(11,"ret(2,inc)",15)
(12,"call(1,inc)",13)
(13,"tau",14)
(14,"ret(1,inc)",15)
`

func TestCompareCounterAgainstSpec(t *testing.T) {
	dir := t.TempDir()
	impl := writeAut(t, dir, "impl.aut", exampleAut)
	spec := writeAut(t, dir, "spec.aut", atomicCounter2x1)
	for _, eq := range []string{"branching", "divbranching"} {
		code, stdout, errOut := linbis("compare", impl, spec, "--equiv", eq)
		assert.Equal(t, 0, code, stdout+errOut)
	}
	// Strongly they differ: the CAS version has more τ steps.
	code, _, _ := linbis("compare", impl, spec, "--equiv", "strong")
	assert.Equal(t, 1, code)

	// A broken specification: thread 1 may return without having called.
	broken := writeAut(t, dir, "broken.aut", atomicCounter2x1+"")
	b, err := lts.ReadFile(broken, lts.ReadOptions{})
	require.NoError(t, err)
	bl := lts.NewBuilder()
	for _, name := range b.Labels {
		bl.Label(name)
	}
	bl.SetNumStates(b.NumStates)
	for x := range b.Src {
		bl.AddTransition(b.Src[x], b.Label[x], b.Dst[x])
	}
	bl.AddTransition(0, bl.Label("ret(1,inc)"), 0)
	require.NoError(t, lts.WriteFile(broken, bl.Build()))

	cex := filepath.Join(dir, "cex")
	code, stdout, errOut := linbis("compare", impl, broken, "--equiv", "divbranching", "--counterexample", cex)
	require.Equal(t, 1, code, errOut)
	assert.Contains(t, stdout, "NOT equivalent")
	assert.Contains(t, stdout, "ret(1,inc)")
	for _, ext := range []string{".txt", ".json", ".mcf", ".aut", ".dot"} {
		assert.FileExists(t, cex+ext)
	}
	// The path is a trace impl cannot do, so impl has no path to show.
	assert.NoFileExists(t, cex+"-other.aut")
	requireFormulaFileValid(t, cex+".json")
	tr, err := lts.ReadFile(cex+".aut", lts.ReadOptions{})
	require.NoError(t, err)
	assert.Positive(t, tr.NumTransitions())

	code, stdout, _ = linbis("compare", "--json", impl, broken)
	require.Equal(t, 1, code)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	assert.Equal(t, false, res["holds"])
	assert.Equal(t, "divbranching", res["relation"])
	assert.Equal(t, broken, res["side"])
	assert.Equal(t, "distinguishing-trace", res["kind"])
	assert.NotNil(t, res["counterexample"])
	formula := res["formula"].(map[string]any)
	assert.Equal(t, "B", formula["holds_in"])
	assert.NotNil(t, formula["formula"])
}

func TestBisimVerbErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeAut(t, dir, "in.aut", exampleAut)
	cases := []struct {
		name string
		args []string
		msg  string
	}{
		{"no output", []string{"reduce", in}, "needs an output file"},
		{"bad equiv", []string{"reduce", in, "-o", filepath.Join(dir, "o.aut"), "--equiv", "weak"}, "unknown equivalence"},
		{"bad algorithm", []string{"compare", in, in, "--algorithm", "quick"}, "unknown algorithm"},
		// compare accepts five relations and says so (issue 37 item 15).
		{"unknown relation", []string{"compare", in, in, "-e", "weak-bisim"}, "expected strong, branching, divbranching (mCRL2's bisim, branching-bisim, dpbranching-bisim), trace or weak-trace\n"},
		{"trace quotient", []string{"reduce", in, "-o", filepath.Join(dir, "o.aut"), "-e", "weak-trace"}, `equivalence "weak-trace" (weak-trace) is not one of strong, branching or divbranching`},
		{"bisim preorder", []string{"compare", in, in, "-p", "strong"}, `--preorder "strong": expected trace or weak-trace`},
		{"one file", []string{"compare", in}, "compare needs 2 arguments (A.aut B.aut), got 1: "},
		{"missing file", []string{"compare", in, filepath.Join(dir, "nope.aut")}, "nope.aut"},
		{"unknown flag", []string{"reduce", in, "--bogus"}, "linbis: reduce: unknown flag --bogus; see linbis reduce --help\n"},
		{"bad input", []string{"reduce", writeAut(t, dir, "bad.aut", "des (0, 1, 2)\n(0, \"a\", 5)\n"), "-o", filepath.Join(dir, "o.aut")},
			"bad.aut:2:10: target state 5 out of range"},
		{"bad cex ext", []string{"compare", in, writeAut(t, dir, "x.aut", "des (0, 0, 1)\n"), "--counterexample", filepath.Join(dir, "c.xyz")}, "unknown counterexample format"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := linbis(tc.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, tc.msg)
		})
	}
}

// reduce minimises the part reachable from the initial state, as mCRL2's
// ltsconvert and CADP's bcg_min do; info says how much is reachable.
func TestReduceDropsUnreachableStates(t *testing.T) {
	dir := t.TempDir()
	// 0 -a-> 1 is reachable; 2 -b-> 3 -c-> 4 is not.
	in := writeAut(t, dir, "u.aut", "des (0, 3, 5)\n(0, \"a\", 1)\n(2, \"b\", 3)\n(3, \"c\", 4)\n")
	for _, eq := range []string{"strong", "branching", "divbranching"} {
		out := filepath.Join(dir, eq+".aut")
		code, _, errOut := linbis("reduce", in, "-o", out, "--equiv", eq)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, "5 states (3 unreachable, dropped)")
		q, err := lts.ReadFile(out, lts.ReadOptions{})
		require.NoError(t, err)
		assert.Equal(t, int32(2), q.NumStates, eq)
		assert.Equal(t, 1, q.NumTransitions(), eq)
	}
	code, out, _ := linbis("info", in)
	require.Equal(t, 0, code)
	assert.Regexp(t, `reachable states\s+2\b`, out)
}

// requireFormulaFileValid validates the formula file of compare
// --counterexample against $defs/formula_evidence of verify's schema, the
// format both verbs write.
func requireFormulaFileValid(t *testing.T, file string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(verify.Schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("schema.json", doc))
	sch, err := c.Compile("schema.json#/$defs/formula_evidence")
	require.NoError(t, err)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(inst))
	// The schema has teeth: an unknown operator deep in the tree is refused.
	bad, err := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(data, []byte(`"op": "true"`), []byte(`"op": "box"`), 1)))
	require.NoError(t, err)
	assert.Error(t, sch.Validate(bad))
}
