package history

import (
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// Report is the answer of `linbis history --json`: the verdict with its
// evidence (the smallest failing partition) or a linearization, and the
// check's statistics. Operations are named by their index in the
// history, their line in the file and their text.
type Report struct {
	File string `json:"file"` // the history's file, "<stdin>" when piped
	// Linearizable is true, false, or null when a limit stopped the
	// check; StoppedBy then names the limit and Reason says how far the
	// check came.
	Linearizable   Verdict           `json:"linearizable"`
	StoppedBy      Limit             `json:"stopped_by,omitempty"` // the limit that stopped the check; "" when none did
	Model          string            `json:"model"`                // the specification's name
	Operations     int               `json:"operations"`           // the history's operations
	Partitions     int               `json:"partitions"`           // the partitions checked apart (one per key)
	Decided        int               `json:"decided"`              // the partitions decided before any stop
	Algorithms     []model.Procedure `json:"algorithms"`           // the procedures that decided them, in order
	Configurations int64             `json:"configurations"`       // memoised (linearized set, state) pairs of the search
	Seconds        float64           `json:"seconds"`              // the check's wall-clock time
	Reason         string            `json:"reason,omitempty"`     // with StoppedBy: how far the check came, and the limit
	// NilRead names the reading applied to reads of nil (unknown,
	// absent); "" for a history not read from a file.
	NilRead string `json:"nil_read,omitempty"`
	// CASFail names the reading applied to failed cas operations (drop,
	// false); "" for a history not read from a file.
	CASFail  string         `json:"cas_fail,omitempty"`
	Warnings []string       `json:"warnings,omitempty"` // what in the input looks wrong but did not stop the check, one line each
	Notes    []string       `json:"notes,omitempty"`    // conventions the reader chose that the user should know, one line each
	Failure  *FailureReport `json:"failure,omitempty"`  // the evidence when not linearizable; nil otherwise
	// Witness is, per partition, a linearization as operation indices.
	Witness [][]int `json:"witness,omitempty"`
}

// FailureReport is a Failure as Report states it.
type FailureReport struct {
	Key        string     `json:"key"`                    // the failing partition's key; "" when unpartitioned
	Operations int        `json:"operations"`             // that partition's operations
	Pattern    string     `json:"pattern,omitempty"`      // the bad pattern found; "" for the general search
	Witness    []OpReport `json:"witness,omitempty"`      // the bad pattern's operations
	Prefix     []OpReport `json:"prefix"`                 // the longest linearizable prefix found, in order
	State      string     `json:"state_after_prefix"`     // the spec state after Prefix
	Stuck      *OpReport  `json:"cannot_place,omitempty"` // an operation that cannot follow Prefix; nil if not known
}

// OpReport names one operation of the history.
type OpReport struct {
	Index     int    `json:"index"`          // its index in the history, from 0
	Line      int    `json:"line,omitempty"` // its line in the file; 0 when not read from one
	Operation string `json:"operation"`      // the operation in words, e.g. `c3 write(4)` (record.Op.String)
}

// NewReport states res, the check of h.
func NewReport(h *record.History, res *Result) *Report {
	ops := func(idx []int) []OpReport {
		out := make([]OpReport, 0, len(idx))
		for _, i := range idx {
			out = append(out, OpReport{i, h.Ops[i].Pos.Line, h.Ops[i].String()})
		}
		return out
	}
	r := &Report{File: h.Name, Linearizable: res.Verdict, StoppedBy: res.Limit, Model: res.Model, Operations: res.Ops,
		Partitions: res.Partitions, Decided: res.Decided, Algorithms: res.Algorithms, Configurations: res.Configurations,
		Seconds: res.Elapsed.Seconds(), Reason: res.Reason, Warnings: h.Warnings, Notes: h.Notes, Witness: res.Witness}
	if h.NilRead != record.NilReadAuto { // a history read from a file
		r.NilRead, r.CASFail = h.NilRead.String(), h.CASFail.String()
	}
	if f := res.Failure; f != nil {
		r.Failure = &FailureReport{Key: f.Key, Operations: len(f.Ops), Pattern: f.Pattern,
			Witness: ops(f.Witness), Prefix: ops(f.Prefix), State: f.State}
		if f.Stuck >= 0 {
			r.Failure.Stuck = &ops([]int{f.Stuck})[0]
		}
	}
	return r
}
