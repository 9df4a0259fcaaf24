// Package limitstest helps tests stop a checker by a limit at a chosen
// point: a context whose limit is reached at its n-th poll, so that a test
// can stop a search at each point it polls, in turn, and check what the
// stopped run keeps.
package limitstest

import (
	"context"
	"sync/atomic"

	"github.com/linbis/linbis/internal/limits"
)

// Countdown is a context that ends, with a time limit as its cause (a
// *limits.LimitError, as limits.Watch's deadline gives), at its n-th poll
// of Err: the first n polls find it running. Only Err counts down; Done
// never closes, as the checkers poll Err (limits.Err) rather than wait.
type Countdown struct {
	context.Context
	left atomic.Int64 // polls left before the limit; workers poll concurrently
}

// StopAt returns a Countdown over context.Background that its n-th poll
// finds ended (StopAt(0): the first).
func StopAt(n int) *Countdown {
	c := &Countdown{Context: context.Background()}
	c.left.Store(int64(n))
	return c
}

// Err returns nil for the first n polls, then a time limit's
// *limits.LimitError wrapping context.DeadlineExceeded.
func (c *Countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return &limits.LimitError{Limit: limits.Time, Err: context.DeadlineExceeded}
	}
	return nil
}
