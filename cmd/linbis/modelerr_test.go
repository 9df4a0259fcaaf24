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

// TestSpecModelErrorOnBothRoutes: a model error of the specification is a
// finding on the on-the-fly route too, as on the bisimulation route: the
// same lines, the specification's run to it, exit 1, model_error in the
// JSON; not a plain error.
func TestSpecModelErrorOnBothRoutes(t *testing.T) {
	model := writeAut(t, t.TempDir(), "spec.lin", `object O {
  shared c int = 0
  method inc() int { atomic { t := c; c = t + 1; return t } }
}
spec S {
  shared c int = 0
  method inc() int { atomic { t := c; c = t + 1; assert c < 2; return t } }
}
`)
	outs := map[string]string{}
	for _, method := range []string{"bisim", "fly"} {
		t.Run(method, func(t *testing.T) {
			code, out, errOut := linbis("verify", model, "--threads", "2", "--ops", "1", "--method", method, "-q")
			assert.Equal(t, 1, code, errOut)
			assert.Empty(t, errOut)
			assert.True(t, strings.HasPrefix(out, "model error: "+model+":7:50: assert c < 2: assertion failed\n"), out)
			assert.Contains(t, out, "L7: assert c < 2   ← assertion failed")
			outs[method] = out

			code, out, errOut = linbis("verify", model, "--threads", "2", "--ops", "1", "--method", method, "-q", "--json")
			assert.Equal(t, 1, code, errOut)
			var rep struct {
				ModelError struct {
					Message  string
					Schedule string
				} `json:"model_error"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
			assert.Equal(t, model+":7:50: assert c < 2: assertion failed", rep.ModelError.Message)
			assert.Contains(t, rep.ModelError.Schedule, "call inc()")
		})
	}
	assert.Equal(t, outs["bisim"], outs["fly"], "the same report on both routes")
}

// TestModelErrorWithViolation: when verify's bisimulation route stops at
// a model error and the on-the-fly search finds a violation before it,
// both are reported: the model error first, then the violation (in the
// JSON, a violation object beside model_error).
func TestModelErrorWithViolation(t *testing.T) {
	model := writeAut(t, t.TempDir(), "both.lin", `object Both {
  heap explicit
  heap Node { v int }
  shared c int = 0
  method inc() int { t := c; c = t + 1; return t }
  method bad() { n := new Node{v: 1}; free(n); if c == 2 { free(n) } }
}
spec S {
  shared c int = 0
  method inc() int { atomic { t := c; c = t + 1; return t } }
  method bad() { skip }
}
client { threads 2; ops 2; values 1 }
`)
	code, out, errOut := linbis("verify", model, "-q", "--method", "bisim")
	assert.Equal(t, 1, code, errOut)
	assert.True(t, strings.HasPrefix(out, "model error: "+model+":6:60: free(n): double free"), out)
	assert.Contains(t, out, "NOT linearizable as well: the on-the-fly search found this violation before the model error")
	assert.Contains(t, out, "← the specification cannot do this")

	code, out, errOut = linbis("verify", model, "-q", "--method", "bisim", "--json")
	assert.Equal(t, 1, code, errOut)
	var rep struct {
		ModelError struct{ Message string } `json:"model_error"`
		Violation  struct{ Kind string }    `json:"violation"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Contains(t, rep.ModelError.Message, "double free")
	assert.Equal(t, "refinement-violation", rep.Violation.Kind)
}
