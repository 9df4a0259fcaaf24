package refine

import (
	"context"

	"github.com/linbis/linbis/bisim"
	"github.com/linbis/linbis/lts"
)

// quotient returns the quotient of l modulo divergence-preserving branching
// bisimilarity (bisim.Quotient): it has the same traces as l and usually far
// fewer states, so the search runs on it (Yang, Katoen, Lin, Wu, arXiv
// 1609.07546). Plain branching bisimilarity would preserve traces too and
// may merge a few more states (it does not separate divergent states from
// others); the divergence-preserving quotient is the one the rest of linbis
// computes. Its τ self-loops on divergent classes cost the search nothing.
func quotient(ctx context.Context, l *lts.LTS) (*lts.LTS, error) {
	return bisim.Quotient(l, bisim.DivBranching, bisim.Options{Context: ctx})
}
