package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
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

// TestSchemaListsEveryFlyCounter: every field of FlyReport is a property
// of the schema's on_the_fly object, required unless it is omitted when
// empty, so a counter added to the report cannot be left out of the schema.
// A fly run of treiber reports its dominated pairs in the JSON, which
// validates, and in the text.
func TestSchemaListsEveryFlyCounter(t *testing.T) {
	var doc struct {
		Properties struct {
			OnTheFly struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"on_the_fly"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(Schema, &doc))
	fly := doc.Properties.OnTheFly
	ft := reflect.TypeFor[FlyReport]()
	for i := range ft.NumField() {
		name, opts, _ := strings.Cut(ft.Field(i).Tag.Get("json"), ",")
		require.NotEmpty(t, name, "FlyReport.%s has a JSON name", ft.Field(i).Name)
		assert.Contains(t, fly.Properties, name, "FlyReport.%s in the schema", ft.Field(i).Name)
		if !strings.Contains(opts, "omitempty") {
			assert.Contains(t, fly.Required, name, "FlyReport.%s is always written", ft.Field(i).Name)
		}
	}

	out := runExample(t, "treiber", 0, Fly, false)
	f := out.Report.OnTheFly
	require.NotNil(t, f)
	assert.Positive(t, f.Dominated, "treiber 2×2 has pairs dominated in their level")
	assert.Less(t, f.Dominated, f.Pairs)
	validateReport(t, out.Report)
	data, err := json.Marshal(out.Report)
	require.NoError(t, err)
	assert.Contains(t, string(data), fmt.Sprintf(`"dominated_pairs":%d`, f.Dominated))
	var text strings.Builder
	require.NoError(t, WriteText(&text, out.Report))
	assert.Contains(t, text.String(), fmt.Sprintf("%d product pairs (%d not followed: dominated in their level)", f.Pairs, f.Dominated))
}
