package bisim

import (
	"errors"

	"github.com/linbis/linbis/lts"
)

// Consumed is an LTS handed over to a computation that takes it apart:
// QuotientConsuming and MinimizeReachableConsuming clear its transitions
// (Src, Label, Dst, Out and Meta become nil) as soon as the kernel they
// refine holds what it needs, or the one-pass classification
// (acyclic.go) is done, so that the collector can reclaim them while the
// refinement runs: on a model checker's LTS they are about a third of the
// peak. The LTS keeps its states, initial state and labels. Every other
// function of the package leaves its input as it was.
type Consumed struct {
	l *lts.LTS
}

// Consume hands l over to one consuming call: after it, the caller must
// not read l's transitions.
func Consume(l *lts.LTS) *Consumed { return &Consumed{l: l} }

// take returns the LTS of c, once.
func (c *Consumed) take() (*lts.LTS, error) {
	if c == nil || c.l == nil {
		return nil, errors.New("bisim: the consumed LTS was already taken")
	}
	l := c.l
	c.l = nil
	return l, nil
}

// QuotientConsuming is Quotient, consuming its input.
func QuotientConsuming(in *Consumed, eq Equivalence, opts Options) (*lts.LTS, error) {
	l, err := in.take()
	if err != nil {
		return nil, err
	}
	opts.release = true
	return Quotient(l, eq, opts)
}

// MinimizeReachableConsuming is MinimizeReachable, consuming its input.
func MinimizeReachableConsuming(in *Consumed, eq Equivalence, opts Options) (q *lts.LTS, reachable int32, err error) {
	l, err := in.take()
	if err != nil {
		return nil, 0, err
	}
	opts.release = true
	return MinimizeReachable(l, eq, opts)
}
