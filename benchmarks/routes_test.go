package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/verify"
)

// TestRoutesAgreeOnAViolationAndAModelError: the bisimulation route's
// model error with the violation met before it, and the on-the-fly
// route's violation with lock-freedom left undecided by the model error
// its search met after it, are the same verdicts (shann-queue 3×3), while
// a model error alone and a violation alone are not.
func TestRoutesAgreeOnAViolationAndAModelError(t *testing.T) {
	fly := func(last string) []byte {
		r := &verify.Report{Model: "shann-queue", Method: "fly", Linearizable: verify.No, Refines: verify.No, LockFree: verify.Unknown,
			OnTheFly: &verify.FlyReport{Ladder: []verify.LadderStage{{Threads: 2, Ops: 2, Result: "not linearizable"}, {Threads: 3, Ops: 3, Result: last}}}}
		out, err := json.Marshal(r)
		require.NoError(t, err)
		return out
	}
	for _, c := range []struct {
		name   string
		stdout []byte
		want   string
	}{
		{"bisim: model error and violation", []byte(`{"model": "shann-queue", "model_error": {"message": "assertion failed"}, "violation": {"kind": "refinement-violation"}}`), violationAndModelError},
		{"fly: violation, then the model error", fly("model error"), violationAndModelError},
		{"model error alone", []byte(`{"model": "hw-queue", "model_error": {"message": "assertion failed"}}`), "model error"},
		{"fly: violation, lock-freedom stopped by a limit", fly("limit"), "no/?"},
	} {
		var run RouteRun
		classifyRoute(&run, c.stdout, nil)
		assert.Equal(t, c.want, run.Verdicts, c.name)
		assert.True(t, run.Finished, c.name)
	}
}
