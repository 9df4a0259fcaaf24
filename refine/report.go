package refine

import "github.com/linbis/linbis/lts"

// Report is the answer of `linbis refine --json`: the verdict, the
// shortest violating trace and the search's work, with times in seconds.
type Report struct {
	Impl           string      `json:"impl"`                     // the implementation's file
	Spec           string      `json:"spec"`                     // the specification's file
	Refines        bool        `json:"refines"`                  // traces(impl) ⊆ traces(spec)
	Counterexample *lts.Trace  `json:"counterexample,omitempty"` // a shortest trace spec cannot do, when Refines is false
	Stats          StatsReport `json:"stats"`                    // what the check searched and its times
}

// StatsReport is Stats as Report states it (see Stats for each field).
type StatsReport struct {
	Pairs           int64   `json:"pairs"`             // (impl state, spec subset) pairs explored
	Subsumed        int64   `json:"subsumed"`          // pairs skipped by antichain pruning
	SpecSubsets     int     `json:"spec_subsets"`      // normalised spec states built
	Depth           int     `json:"depth"`             // visible actions of the longest trace explored
	ImplStates      int32   `json:"impl_states"`       // the implementation's states searched, after quotienting
	SpecStates      int32   `json:"spec_states"`       // the specification's, likewise
	InputImplStates int32   `json:"input_impl_states"` // the implementation's states as given
	InputSpecStates int32   `json:"input_spec_states"` // the specification's, likewise
	QuotientSeconds float64 `json:"quotient_seconds"`  // wall-clock time minimising both LTSs
	SearchSeconds   float64 `json:"search_seconds"`    // wall-clock time of the product search
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
