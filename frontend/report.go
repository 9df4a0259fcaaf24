package frontend

import "github.com/linbis/linbis/lts"

// CompileReport is the answer of `linbis compile --json`: the statistics
// of a model's implementation and specification LTSs under its bounds.
type CompileReport struct {
	Model  string `json:"model"`  // the model's file
	Bounds Bounds `json:"bounds"` // the client's bounds explored
	// Heap is "garbage-collected" or "explicit" (no collection: freed
	// nodes may be reused while referenced, so ABA can happen).
	Heap    string    `json:"heap"`
	Impl    lts.Stats `json:"impl"`    // the implementation LTS's statistics
	Spec    lts.Stats `json:"spec"`    // the specification LTS's statistics
	Seconds float64   `json:"seconds"` // the exploration's wall-clock time
}
