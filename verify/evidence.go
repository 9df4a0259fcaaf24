package verify

import (
	"fmt"
	"github.com/linbis/linbis/bisim"
	"strings"

	"github.com/linbis/linbis/lts"
)

// distinguishing renders bisim's counterexample as a path of the
// implementation: its own path when the implementation is the side that
// can do what the other cannot, otherwise the implementation's path with
// the same visible labels, which the specification's path outdoes.
func distinguishing(cmp *bisim.Comparison) Evidence {
	t := cmp.Counterexample
	if cmp.Side == 1 {
		t = &lts.Trace{Title: t.Title, Steps: cmp.Other, LoopStart: -1, Final: t.Final}
	}
	expl := "the implementation and the specification are not divergence-preserving branching bisimilar"
	if t.Final != "" {
		expl += ": after this trace, " + t.Final
	}
	return Evidence{Kind: "distinguishing-trace", Trace: t, Interleaving: Interleaving(t), Explanation: expl}
}

func violation(tr *lts.Trace) Evidence {
	hist := History(tr)
	var last string
	if n := len(tr.Steps); n > 0 {
		last = tr.Steps[n-1].Label
	}
	expl := fmt.Sprintf("the implementation can do this trace but the specification cannot do its last action %s after the same history, "+
		"so the history %s has no linearization (Thm 3.3)", last, renderHistory(hist))
	return Evidence{Kind: "refinement-violation", Trace: tr, Interleaving: Interleaving(tr), History: hist, Explanation: expl}
}

// renderHistory writes a history compactly: "[t1:push(1) t2:pop() → 2 …]".
func renderHistory(ops []HistoryOp) string {
	var parts []string
	for _, op := range ops {
		part := fmt.Sprintf("t%d:%s", op.Thread, op.label())
		if op.Ret == 0 {
			part += " pending"
		}
		parts = append(parts, part)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
