package frontend

import "fmt"

// Verdict is a three-valued answer: a property holds, fails, or is not
// decided (not checked, or a limit was hit). It is one type for the
// verdicts a model's header states and those verify reaches, and in JSON
// it is true, false or null, as linbis writes every verdict.
type Verdict string

// The verdicts.
const (
	Yes     Verdict = "yes"
	No      Verdict = "no"
	Unknown Verdict = "unknown"
)

// MarshalJSON writes Yes as true, No as false and an undecided verdict as
// null: one representation for the --json output of every verb (compare,
// refine, progress and history answer with booleans too), and one a
// script cannot misread, as it could "no" (a true value in most languages).
func (v Verdict) MarshalJSON() ([]byte, error) {
	switch v {
	case Yes:
		return []byte("true"), nil
	case No:
		return []byte("false"), nil
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *Verdict) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case "true":
		*v = Yes
	case "false":
		*v = No
	case "null":
		*v = Unknown
	default:
		return fmt.Errorf("a verdict is true, false or null, got %s", data)
	}
	return nil
}
