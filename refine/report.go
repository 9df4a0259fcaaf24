package refine

import "github.com/linbis/linbis/lts"

// Report is the answer of `linbis refine --json`: the verdict, the
// shortest violating trace and the search's work, with times in seconds.
type Report struct {
	Impl           string      `json:"impl"` // the implementation's file
	Spec           string      `json:"spec"` // the specification's file
	Refines        bool        `json:"refines"`
	Counterexample *lts.Trace  `json:"counterexample,omitempty"`
	Stats          StatsReport `json:"stats"`
}

// StatsReport is Stats as Report states it (see Stats for each field).
type StatsReport struct {
	Pairs           int64   `json:"pairs"`
	Subsumed        int64   `json:"subsumed"`
	SpecSubsets     int     `json:"spec_subsets"`
	Depth           int     `json:"depth"`
	ImplStates      int32   `json:"impl_states"`
	SpecStates      int32   `json:"spec_states"`
	InputImplStates int32   `json:"input_impl_states"`
	InputSpecStates int32   `json:"input_spec_states"`
	QuotientSeconds float64 `json:"quotient_seconds"`
	SearchSeconds   float64 `json:"search_seconds"`
}

// Report states r, the check of the implementation in file impl against
// the specification in file spec.
func (r *Result) Report(impl, spec string) *Report {
	st := r.Stats
	return &Report{Impl: impl, Spec: spec, Refines: r.Refines, Counterexample: r.Counterexample,
		Stats: StatsReport{Pairs: st.Pairs, Subsumed: st.Subsumed, SpecSubsets: st.SpecSubsets, Depth: st.Depth,
			ImplStates: st.ImplStates, SpecStates: st.SpecStates,
			InputImplStates: st.InputImplStates, InputSpecStates: st.InputSpecStates,
			QuotientSeconds: st.QuotientTime.Seconds(), SearchSeconds: st.SearchTime.Seconds()}}
}
