package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/verify"
)

// The --json output of every verb but verify validates against its schema
// in schema/ (verify's is verify/schema.json, tested there and with the
// bundled models' runs), whatever its verdict, and JSON is written without
// HTML escaping; a model error's report, on compile, progress and verify,
// follows schema/model-error.json. Traces and formulas refer to verify's schema.
func TestJSONOutputsFollowTheirSchemas(t *testing.T) {
	dir := t.TempDir()
	aut := writeAut(t, dir, "in.aut", exampleAut)
	a := writeAut(t, dir, "a.aut", "des (0, 2, 2)\n(0, \"a\", 1)\n(1, \"b\", 0)\n")
	b := writeAut(t, dir, "b.aut", "des (0, 4, 3)\n(0, \"a\", 1)\n(1, \"b\", 2)\n(2, \"a\", 1)\n(1, \"c\", 0)\n")
	stack := writeFile(t, "s.jsonl", stackLinearizable)
	notStack := writeFile(t, "n.jsonl", stackNotLinearizable)
	// A model whose second increment fails its assert: a model error.
	failing := writeFile(t, "failing.lin", "object O {\n  shared x int = 0\n  method m() int {\n    x = x + 1\n    assert x < 2\n    return x\n  }\n}\nspec auto\nclient { threads 2; ops 1; values 1 }\n")
	cases := []struct {
		schema string
		args   []string
		code   int
	}{
		{"info.json", []string{"info", aut, "--json"}, 0},
		{"info.json", []string{"info", aut, "--json", "--labels"}, 0},
		{"compile.json", []string{"compile", "treiber", "--ops", "1", "--json", "-q"}, 0},
		{"compile.json", []string{"compile", "treiber", "--ops", "1", "--json", "-q", "--explicit"}, 0},
		{"reduce.json", []string{"reduce", aut, "-o", filepath.Join(dir, "q.aut"), "--json", "-q"}, 0},
		{"convert.json", []string{"convert", aut, filepath.Join(dir, "c.dot"), "--json"}, 0},
		{"compile-list.json", []string{"compile", "--list", "--json"}, 0},
		{"compare.json", []string{"compare", a, a, "--json", "-q"}, 0},
		{"compare.json", []string{"compare", a, b, "--json", "-q"}, 1},
		{"compare.json", []string{"compare", a, b, "-e", "strong", "--json", "-q"}, 1},
		{"compare.json", []string{"compare", a, b, "-e", "weak-trace", "--json", "-q"}, 1},
		{"compare.json", []string{"compare", a, b, "--preorder", "trace", "--json", "-q"}, 0},
		{"refine.json", []string{"refine", a, b, "--json", "-q"}, 0},
		{"refine.json", []string{"refine", b, a, "--json", "-q"}, 1},
		{"progress.json", []string{"progress", "treiber", "--json", "-q"}, 0},
		{"progress.json", []string{"progress", spinAut, "--json", "-q"}, 1},
		{"compile.json", []string{"compile", failing, "--json", "-q"}, 1},
		{"progress.json", []string{"progress", failing, "--json", "-q"}, 1},
		// A limit: in the exploration, and after it (the product).
		{"progress.json", []string{"progress", "treiber", "--max-states", "10", "--json", "-q"}, 3},
		{"progress.json", []string{"progress", writeAut(t, dir, "reduced.aut", ambiguousAut), "--max-product", "3", "--json", "-q"}, 3},
		{"model-error.json", []string{"verify", failing, "--json", "-q", "--method", "bisim"}, 1},
		{"history.json", []string{"history", stack, "--json", "-q"}, 0},
		{"history.json", []string{"history", notStack, "--json", "-q"}, 1},
		{"history.json", []string{"history", notStack, "--json", "-q", "--general"}, 1},
	}
	if _, err := os.Stat(porcupineData); err == nil {
		// A limit leaves the verdict null and names itself.
		cases = append(cases, struct {
			schema string
			args   []string
			code   int
		}{"history.json", []string{"history", filepath.Join(porcupineData, "kv", "c10-bad.txt"), "--no-partition", "--timeout", "1ms", "--json", "-q"}, 3})
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[:1], " ")+" "+c.schema, func(t *testing.T) {
			sch := compileSchema(t, c.schema)
			code, out, errOut := linbis(c.args...)
			require.Equal(t, c.code, code, errOut)
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			require.NoError(t, err, out)
			assert.NoError(t, sch.Validate(inst))
			// The schema has teeth: a verdict written as a word is refused.
			if k := strings.Index(out, `": false`); k > 0 {
				bad, err := jsonschema.UnmarshalJSON(strings.NewReader(out[:k] + `": "no"` + out[k+len(`": false`):]))
				require.NoError(t, err)
				assert.Error(t, sch.Validate(bad))
			}
			assert.NotContains(t, out, `\u003e`)
			assert.NotContains(t, out, `\u003c`)
		})
	}
	_, out, _ := linbisIn(exampleAut, "info", "--json")
	assert.Contains(t, out, `"file": "<stdin>"`, "no HTML escaping")
}

// compileSchema compiles schema/name, with verify's schema, which it may
// refer to by its $id, and the other schemas of schema/, which it may
// refer to by their names, loaded beside it.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	comp := jsonschema.NewCompiler()
	add := func(url string, src []byte) {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
		require.NoError(t, err)
		require.NoError(t, comp.AddResource(url, doc))
	}
	add(verifySchemaID, verify.Schema)
	names, err := filepath.Glob(filepath.Join("schema", "*.json"))
	require.NoError(t, err)
	for _, n := range names {
		src, err := os.ReadFile(n)
		require.NoError(t, err)
		add(filepath.Base(n), src)
	}
	sch, err := comp.Compile(name)
	require.NoError(t, err)
	return sch
}

// verifySchemaID is the $id of verify/schema.json.
const verifySchemaID = "https://github.com/linbis/linbis/verify/schema.json"
