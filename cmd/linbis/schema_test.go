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
)

// The --json output of the verbs whose schema is in schema/ validates
// against it (verify's is verify/schema.json, tested there), and JSON is
// written without HTML escaping.
func TestJSONOutputsFollowTheirSchemas(t *testing.T) {
	dir := t.TempDir()
	aut := writeAut(t, dir, "in.aut", exampleAut)
	cases := []struct {
		schema string
		args   []string
	}{
		{"info.json", []string{"info", aut, "--json"}},
		{"info.json", []string{"info", aut, "--json", "--labels"}},
		{"compile.json", []string{"compile", "treiber", "--ops", "1", "--json", "-q"}},
		{"compile.json", []string{"compile", "treiber", "--ops", "1", "--json", "-q", "--explicit"}},
		{"reduce.json", []string{"reduce", aut, "-o", filepath.Join(dir, "q.aut"), "--json", "-q"}},
		{"convert.json", []string{"convert", aut, filepath.Join(dir, "c.dot"), "--json"}},
		{"compile-list.json", []string{"compile", "--list", "--json"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args[:1], " ")+" "+c.schema, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("schema", c.schema))
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
			require.NoError(t, err)
			comp := jsonschema.NewCompiler()
			require.NoError(t, comp.AddResource(c.schema, doc))
			sch, err := comp.Compile(c.schema)
			require.NoError(t, err)
			code, out, errOut := linbis(c.args...)
			require.Equal(t, 0, code, errOut)
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			require.NoError(t, err, out)
			assert.NoError(t, sch.Validate(inst))
			assert.NotContains(t, out, `\u003e`)
			assert.NotContains(t, out, `\u003c`)
		})
	}
	_, out, _ := linbisIn(exampleAut, "info", "--json")
	assert.Contains(t, out, `"file": "<stdin>"`, "no HTML escaping")
}
