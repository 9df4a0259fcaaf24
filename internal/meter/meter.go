// Package meter prints progress of long runs on stderr — states explored,
// rate, memory — when stderr is a terminal, and nothing otherwise.
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
