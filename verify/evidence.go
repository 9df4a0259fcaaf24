package verify

import (
	"fmt"
	"strings"

	"github.com/linbis/linbis/lts"
)

// onImpl maps a counterexample found on a reduced LTS back to a path of the
// implementation, whose steps carry threads and source lines: the shortest
// impl path with the same visible labels. When the last label is one the
// implementation cannot do (the trace was the specification's), the path
// stops before it and the label is kept as a final, unmatched step.
func onImpl(impl *lts.LTS, tr *lts.Trace) *lts.Trace {
	visible := tr.Visible()
	if path, ok := lts.Replay(impl, visible); ok {
		out := lts.TraceOf(impl, path)
		out.Title, out.Final = tr.Title, tr.Final
		if n := len(out.Steps); n > 0 && len(tr.Steps) > 0 && tr.Steps[len(tr.Steps)-1].Note != "" {
			out.Steps[n-1].Note = tr.Steps[len(tr.Steps)-1].Note
		}
		return out
	}
	if len(visible) > 0 {
		if path, ok := lts.Replay(impl, visible[:len(visible)-1]); ok {
			out := lts.TraceOf(impl, path)
			out.Title, out.Final = tr.Title, tr.Final
			last := visible[len(visible)-1]
			out.Steps = append(out.Steps, lts.TraceStep{From: -1, To: -1, Label: last, Note: "the implementation cannot do this"})
			return out
		}
	}
	return tr // not replayable: show it as found
}

func distinguishing(impl *lts.LTS, tr *lts.Trace) Evidence {
	t := onImpl(impl, tr)
	expl := "implementation and specification are not divergence-preserving branching bisimilar"
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

// renderHistory writes a history compactly: "t1:push(1)→ok t2:pop()→2 …".
func renderHistory(ops []HistoryOp) string {
	var parts []string
	for _, op := range ops {
		res := op.Result
		if op.Ret == 0 {
			res = "pending"
		} else if res == "" {
			res = "ok"
		}
		parts = append(parts, fmt.Sprintf("t%d:%s(%s)→%s", op.Thread, op.Method, op.Arg, res))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
