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
	File string `json:"file"`
	// Linearizable is true, false, or null when a limit stopped the
	// check; StoppedBy then names the limit and Reason says how far the
	// check came.
	Linearizable   Verdict           `json:"linearizable"`
	StoppedBy      Limit             `json:"stopped_by,omitempty"`
	Model          string            `json:"model"`
	Operations     int               `json:"operations"`
	Partitions     int               `json:"partitions"`
	Decided        int               `json:"decided"`
	Algorithms     []model.Procedure `json:"algorithms"`
	Configurations int64             `json:"configurations"`
	Seconds        float64           `json:"seconds"`
	Reason         string            `json:"reason,omitempty"`
	// NilRead and CASFail name the readings applied to reads of nil
	// (unknown, absent) and to failed cas operations (drop, false).
	NilRead  string         `json:"nil_read,omitempty"`
	CASFail  string         `json:"cas_fail,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
	Notes    []string       `json:"notes,omitempty"`
	Failure  *FailureReport `json:"failure,omitempty"`
	// Witness is, per partition, a linearization as operation indices.
	Witness [][]int `json:"witness,omitempty"`
}

// FailureReport is a Failure as Report states it.
type FailureReport struct {
	Key        string     `json:"key"`
	Operations int        `json:"operations"`
	Pattern    string     `json:"pattern,omitempty"`
	Witness    []OpReport `json:"witness,omitempty"`
	Prefix     []OpReport `json:"prefix"`
	State      string     `json:"state_after_prefix"`
	Stuck      *OpReport  `json:"cannot_place,omitempty"`
}

// OpReport names one operation of the history.
type OpReport struct {
	Index     int    `json:"index"`
	Line      int    `json:"line,omitempty"`
	Operation string `json:"operation"`
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
