package verify

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// compileSchema compiles Schema for validation.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("schema.json", doc))
	sch, err := c.Compile("schema.json")
	require.NoError(t, err)
	return sch
}

// validateReport marshals r and validates it against Schema.
func validateReport(t *testing.T, r *Report) {
	t.Helper()
	sch := compileSchema(t)
	data, err := json.Marshal(r)
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	require.NoError(t, err)
	assert.NoError(t, sch.Validate(inst))
}

func TestSchemaAcceptsAReportWithEvidence(t *testing.T) {
	tr := &lts.Trace{LoopStart: -1, Steps: []lts.TraceStep{
		{From: 0, Label: "call(1,pop)", To: 1, Thread: 1},
		{From: 1, Label: "ret(1,pop,2)", To: 2, Thread: 1, Note: "spec cannot do this"},
	}}
	r := &Report{
		Model: "buggy-queue", Bounds: BoundsReport{Threads: 2, Ops: 2, Values: []int{1, 2}}, Method: "bisim",
		Impl: &Size{States: 10, Transitions: 12}, Spec: &Size{States: 5, Transitions: 6},
		Bisimilar: No, Refines: No, Linearizable: No, LockFree: Yes, Theorem: "Thm 3.3",
		Stages:   []Stage{{Name: "compile", Seconds: 0.1}, {Name: "refinement", Seconds: 0.2, Result: "fails"}},
		Evidence: []Evidence{violation(tr)},
	}
	validateReport(t, r)
	assert.Equal(t, []HistoryOp{{Thread: 1, Method: "pop", Result: "2", Call: 1, Ret: 2}}, r.Evidence[0].History)
}

func TestSchemaRejectsAMalformedReport(t *testing.T) {
	sch := compileSchema(t)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"model": "x", "linearizable": "maybe"}`)))
	require.NoError(t, err)
	assert.Error(t, sch.Validate(inst), "missing fields and a verdict that is not true, false or null")
}
