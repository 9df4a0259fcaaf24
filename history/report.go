package history

import (
	"fmt"
	"sort"
	"strings"

	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/history/timeline"
)

// maxDrawn bounds the operations drawn for a linearizable history (a
// failure draws only its partition).
const maxDrawn = 2000

// Timeline draws res's evidence for h: the failing partition with its
// longest linearizable prefix (numbered), the operation that cannot be
// placed and a bad pattern's operations; for a linearizable or unknown
// verdict, the first operations of the history, numbered by the witness
// linearization when there is one.
func Timeline(h *record.History, res *Result) *timeline.Timeline {
	t := &timeline.Timeline{
		Title:   fmt.Sprintf("%s — model %s", h.Name, res.Model),
		Verdict: res.Verdict.String(),
		Bad:     res.Verdict == NotLinearizable,
	}
	ops := seq(min(len(h.Ops), maxDrawn))
	kind := map[int]timeline.Kind{}
	order := map[int]int{}
	if f := res.Failure; f != nil {
		ops = f.Ops
		for k, i := range f.Prefix {
			kind[i], order[i] = timeline.Linearized, k+1
		}
		for _, i := range f.Witness {
			kind[i] = timeline.Witness
		}
		if f.Stuck >= 0 {
			kind[f.Stuck] = timeline.Stuck
		}
		t.Notes = FailureNotes(h, f)
	} else {
		for _, w := range res.Witness {
			for k, i := range w {
				kind[i], order[i] = timeline.Linearized, k+1
			}
		}
		if res.Witness != nil {
			what := "A linearization"
			if len(res.Witness) > 1 {
				what = fmt.Sprintf("A linearization of each of the %d partitions (numbered per partition)", len(res.Witness))
			}
			t.Notes = append(t.Notes, what+" is numbered in green; pending operations left unnumbered did not take effect.")
		}
		if len(h.Ops) > maxDrawn {
			t.Notes = append(t.Notes, fmt.Sprintf("Only the first %d of %d operations are drawn.", maxDrawn, len(h.Ops)))
		}
	}
	if res.Reason != "" {
		t.Notes = append(t.Notes, res.Reason)
	}
	lane := map[int]int{}
	clients := []int{}
	for _, i := range ops {
		c := h.Ops[i].Client
		if _, ok := lane[c]; !ok {
			lane[c] = 0
			clients = append(clients, c)
		}
	}
	sort.Ints(clients)
	for l, c := range clients {
		lane[c] = l
		t.Lanes = append(t.Lanes, fmt.Sprintf("client %d", c))
	}
	for _, i := range ops {
		op := &h.Ops[i]
		end := op.Return
		if op.IsPending() {
			end = timeline.Open
		}
		t.Bars = append(t.Bars, timeline.Bar{
			Lane: lane[op.Client], Start: op.Call, End: end,
			Label:  strings.TrimPrefix(op.String(), fmt.Sprintf("c%d ", op.Client)),
			Detail: Describe(h, i), Kind: kind[i], Order: order[i],
		})
	}
	return t
}

// Describe renders operation i of h with its source position.
func Describe(h *record.History, i int) string {
	op := &h.Ops[i]
	if op.Pos.Line > 0 {
		return fmt.Sprintf("%s (%s:%d)", op, h.Name, op.Pos.Line)
	}
	return fmt.Sprintf("%s (operation %d)", op, i)
}

// FailureNotes explains a failure in a few sentences.
func FailureNotes(h *record.History, f *Failure) []string {
	var notes []string
	where := "The history"
	if f.Key != "" || len(f.Ops) < len(h.Ops) {
		where = fmt.Sprintf("The partition of key %s (%d of %d operations)", record.ShowValue(f.Key), len(f.Ops), len(h.Ops))
	}
	notes = append(notes, where+" has no linearization.")
	if f.Pattern != "" {
		notes = append(notes, "Bad pattern "+f.Pattern+".")
	}
	if f.Stuck >= 0 {
		notes = append(notes, fmt.Sprintf("The longest linearizable prefix found has %d operations and leaves the object in state %s; after it, %s cannot be placed: every continuation of the prefix fails before that operation returns.",
			len(f.Prefix), showStateWord(f.State), Describe(h, f.Stuck)))
	}
	return notes
}

func showStateWord(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}
