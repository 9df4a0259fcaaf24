// Package meter carries the progress of long runs: Reporter, the one
// interface through which every library reports how far it has come
// (explore, the on-the-fly check, bisim, refine, progress, history, and
// verify, which hands its reporter to each stage), and Meter, which
// prints it on stderr — stage, count, rate, memory — when stderr is a
// terminal, and nothing otherwise.
package meter

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/term"
)

// Reporter receives a long run's progress now and then: count units done
// so far in stage, both named in the library's words (the command line
// translates them). Libraries call it from their working goroutines,
// every few thousand steps, so it must be safe for concurrent use and
// cheap; a nil Reporter in a library's options reports nothing.
type Reporter interface {
	Report(stage string, count int64, unit string)
}

// Func makes a function a Reporter.
type Func func(stage string, count int64, unit string)

// Report calls f.
func (f Func) Report(stage string, count int64, unit string) { f(stage, count, unit) }

var _ Reporter = (*Meter)(nil)

// Meter rate-limits progress lines to one every Interval and rewrites them
// in place. The zero value is disabled; a nil *Meter is valid and silent.
type Meter struct {
	mu       sync.Mutex
	w        io.Writer
	start    time.Time
	last     time.Time
	interval time.Duration
	printed  bool
}

// ForStderr returns a meter that writes to stderr if it is a terminal and
// nil (silent) otherwise, or when quiet is set.
func ForStderr(quiet bool) *Meter {
	if quiet || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	return New(os.Stderr, 200*time.Millisecond)
}

// New returns a meter writing to w at most once per interval.
func New(w io.Writer, interval time.Duration) *Meter {
	now := time.Now()
	return &Meter{w: w, start: now, last: now, interval: interval}
}

// Report prints "stage: count unit (rate/s), memory" if the interval has
// passed since the last line. It is cheap to call often.
func (m *Meter) Report(stage string, count int64, unit string) {
	if m == nil {
		return
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.Sub(m.last) < m.interval {
		return
	}
	m.last = now
	elapsed := now.Sub(m.start).Seconds()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(m.w, "\r\033[K%s: %d %s (%.0f/s), %.1fs, %d MiB", stage, count, unit,
		float64(count)/max(elapsed, 1e-9), elapsed, ms.HeapAlloc>>20)
	m.printed = true
}

// Done ends the progress line, if one was printed.
func (m *Meter) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.printed {
		fmt.Fprint(m.w, "\r\033[K")
		m.printed = false
	}
}
