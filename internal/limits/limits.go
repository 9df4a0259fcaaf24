// Package limits names the limits that can stop a run (LimitError) and
// enforces a command's time and memory limits through a context: its
// deadline is the time limit, and a watchdog, a goroutine that samples the
// memory the Go runtime holds, cancels it when the memory limit is
// reached. Either way the context's cause is a *LimitError.
//
// The checkers poll the context (Err) at a coarse grain, every few
// thousand states, pairs or transitions, next to their progress reports,
// so that a run stopped by a limit returns, with what it decided, instead
// of the process exiting under it.
package limits

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
)

// Limits bounds a run. Zero fields mean no limit.
type Limits struct {
	Time   time.Duration // the run's wall-clock time; 0: none
	Memory int64         // bytes held by the Go runtime (heap, stacks, metadata), released pages excluded
}

// Kind names a limit.
type Kind int

// The limits: Time and Memory are Limits'; States, Pairs and Product are
// the checkers' own (an exploration's states, a refinement's pairs,
// progress's product states).
const (
	Time Kind = iota
	Memory
	States
	Pairs
	Product
)

// kindNames are the names of the kinds, as JSON reports' "stopped_by"
// spells them.
var kindNames = [...]string{Time: "time", Memory: "memory", States: "states", Pairs: "pairs", Product: "product"}

// String returns the name of k in JSON reports' "stopped_by".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// LimitError is a run stopped by a limit before its verdict. A limit is
// not a finding about the input: the run has no verdict.
type LimitError struct {
	// Limit is the limit reached.
	Limit Kind
	// Value is its setting: nanoseconds, bytes, states, pairs or product
	// states.
	Value int64
	// Err says what was reached, with the counts of the stage it stopped
	// (e.g. refine's error wrapping refine.ErrPairLimit); it is the
	// message.
	Err error
}

// Error returns the message of Err.
func (e *LimitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("%s limit %d reached", e.Limit, e.Value)
	}
	return e.Err.Error()
}

// Unwrap returns Err, so that errors.Is finds the library's sentinel.
func (e *LimitError) Unwrap() error { return e.Err }

// Err returns nil while ctx is live (a nil ctx always is), and its cause
// once it has ended: a *LimitError when Watch's limits ended it,
// context.Canceled or context.DeadlineExceeded when nothing more precise
// was given.
func Err(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// Watch returns a context derived from parent that ends when a limit of l
// is reached, with a *LimitError as its cause: at the deadline l.Time
// after now, or when the memory sampled every interval reaches l.Memory.
// The memory limit is also handed to the garbage collector
// (debug.SetMemoryLimit), so that it collects harder before the limit is
// declared hit. stop releases the context and ends the watch.
func Watch(parent context.Context, l Limits, interval time.Duration) (ctx context.Context, stop func()) {
	ctx, cancelTime := parent, context.CancelFunc(func() {})
	if l.Time > 0 {
		ctx, cancelTime = context.WithTimeoutCause(parent, l.Time,
			&LimitError{Limit: Time, Value: int64(l.Time), Err: fmt.Errorf("time limit reached: still running after %s", l.Time)})
	}
	if l.Memory <= 0 {
		return ctx, cancelTime
	}
	debug.SetMemoryLimit(l.Memory)
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if held := Held(); held >= l.Memory {
					cancel(&LimitError{Limit: Memory, Value: l.Memory, Err: fmt.Errorf("memory limit reached: %s in use, limit %s",
						humanize.IBytes(uint64(held)), humanize.IBytes(uint64(l.Memory)))})
					return
				}
			}
		}
	}()
	return ctx, func() {
		cancel(errStopped)
		<-done
		cancelTime()
	}
}

// errStopped is the cause of a watch's context after stop.
var errStopped = errors.New("the watch was stopped")

var heldSamples = []metrics.Sample{
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// Held returns the memory the Go runtime holds from the OS, pages it has
// released excluded: close to the resident size of a Go process.
func Held() int64 {
	s := make([]metrics.Sample, len(heldSamples))
	copy(s, heldSamples)
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

// Outside returns the resident memory of the process that the Go runtime
// does not hold (the binary's mapped pages, mostly), which a limit on the
// whole process's memory must leave aside from the runtime's; 0 where the
// resident size is unknown.
func Outside() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return max(0, pages*int64(os.Getpagesize())-Held())
}

// RuntimeShare is what a limit on the process's memory leaves the Go
// runtime: the limit less the resident memory outside it (Outside), at
// least half of it.
func RuntimeShare(limit int64) int64 { return max(limit/2, limit-Outside()) }

// DefaultMemory is the default memory limit: 90 % of the machine's
// physical memory, so that a run too big for the machine stops with a
// message rather than at the hands of the OOM killer; 0 (none) when the
// memory size is unknown.
func DefaultMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024 / 10 * 9
		}
	}
	return 0
}
