package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One rule for run-time errors of a model, on every verb that runs one:
// the error and the run leading to it on stdout, exit 1; with --json, a
// model_error object.
func TestModelErrorsOneRule(t *testing.T) {
	model := writeAut(t, t.TempDir(), "m.lin",
		"object O {\n  shared c int = 0\n  method inc() { c = c + 1; assert c < 2 }\n}\nspec auto\n")
	for _, verb := range []string{"compile", "verify", "progress"} {
		t.Run(verb, func(t *testing.T) {
			code, out, errOut := linbis(verb, model, "-q")
			assert.Equal(t, 1, code, errOut)
			assert.Empty(t, errOut)
			assert.True(t, strings.HasPrefix(out, "model error: "+model+":3:29: "), out)
			assert.Contains(t, strings.Split(out, "\n")[0], "assertion failed")
			assert.Contains(t, out, "assert c < 2", "the run is shown with its source lines")

			code, out, errOut = linbis(verb, model, "-q", "--json")
			assert.Equal(t, 1, code, errOut)
			var rep struct {
				ModelError struct {
					Message  string
					Trace    json.RawMessage
					Schedule string
				} `json:"model_error"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
			assert.Contains(t, rep.ModelError.Message, "assertion failed")
			assert.NotEmpty(t, rep.ModelError.Trace)
			assert.Contains(t, rep.ModelError.Schedule, "assert c < 2")
		})
	}
}
