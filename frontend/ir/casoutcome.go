package ir

// The outcome of a cas. A step whose shared access is a cas — a CAS retry
// loop's `while !cas(lock, false, true)`, `if cas(Top, old, x)` — is taken
// in two ways, the cas failing or succeeding, which a counterexample
// should tell apart: in a spin lock's lasso the thread that wins the cas
// and the one that spins on it run the same source line. So such a step
// has two variants, source steps of their own with the same position and
// the outcome in their text, and the machine reports the variant of the
// outcome as the step taken (semantics' machine.step). The instruction
// keeps the step it was compiled with (listings, the race check).

// casOutcomes gives the step of in, a boundary outside atomic blocks,
// its two variants if its one shared access is a cas.
func (c *compiler) casOutcomes(in *Instr) {
	n := 0
	for _, e := range append(in.Targets(), in.Values()...) {
		WalkExpr(e, func(x *Expr) {
			if x.Kind == ECas || x.Kind == ECasWord {
				n++
			}
		})
	}
	if n != 1 {
		return
	}
	p := c.prog
	for int(in.Step) >= len(p.CasSteps) {
		p.CasSteps = append(p.CasSteps, 0)
	}
	if p.CasSteps[in.Step] != 0 {
		return
	}
	s := p.Steps[in.Step]
	p.CasSteps[in.Step] = int32(len(p.Steps))
	fail, succeed := s, s
	fail.Text += " — the cas fails"
	succeed.Text += " — the cas succeeds"
	p.Steps = append(p.Steps, fail, succeed)
}

// CasVariant returns the variant of step s for a cas that succeeded (ok)
// or failed, or s if it has none.
func (p *Program) CasVariant(s int32, ok bool) int32 {
	if s < 0 || int(s) >= len(p.CasSteps) || p.CasSteps[s] == 0 {
		return s
	}
	if ok {
		return p.CasSteps[s] + 1
	}
	return p.CasSteps[s]
}
