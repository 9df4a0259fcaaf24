package frontend

import "github.com/linbis/linbis/frontend/semantics"

// Sequential runs the methods of a model's specification one call at a
// time: the spec as a sequential state machine, for checking recorded
// histories against it (linbis history --spec). See semantics.Sequential.
type Sequential = semantics.Sequential

// Outcome is one way a sequential call can end: its result as ret labels
// print it and the next state.
type Outcome = semantics.Outcome

// Signature is a method's name, parameter types and result kind.
type Signature = semantics.Signature

// SequentialOptions tune a Sequential (heap mode, node and step limits).
type SequentialOptions = semantics.SequentialOptions

// NewSequential returns the sequential interpreter of m's specification
// (the spec block, or the object with atomic bodies for `spec auto`).
func NewSequential(m *Model, o SequentialOptions) (*Sequential, error) {
	return semantics.NewSequential(m.Program, m.Program.Spec, o)
}

// ParseValue reads an argument or result of type t written as ret labels
// print it (an integer, EMPTY, true or false).
var ParseValue = semantics.ParseValue

// FormatValue renders a value as ret labels print it.
var FormatValue = semantics.FormatValue
