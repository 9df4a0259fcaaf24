package frontend

import "github.com/linbis/linbis/frontend/explore"

// Sequential runs the methods of a model's specification one call at a
// time: the spec as a sequential state machine, for checking recorded
// histories against it (linbis history --spec). See explore.Sequential.
type Sequential = explore.Sequential

// Outcome is one way a sequential call can end: its result as ret labels
// print it and the next state.
type Outcome = explore.Outcome

// Signature is a method's name, parameter types and result kind.
type Signature = explore.Signature

// SequentialOptions tune a Sequential (heap mode, node and step limits).
type SequentialOptions = explore.SequentialOptions

// NewSequential returns the sequential interpreter of m's specification
// (the spec block, or the object with atomic bodies for `spec auto`).
func NewSequential(m *Model, o SequentialOptions) (*Sequential, error) {
	return explore.NewSequential(m.Program, m.Program.Spec, o)
}

// ParseValue reads an argument or result of type t written as ret labels
// print it (an integer, EMPTY, true or false).
var ParseValue = explore.ParseValue

// FormatValue renders a value as ret labels print it.
var FormatValue = explore.FormatValue
