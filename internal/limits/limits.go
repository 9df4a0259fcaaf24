// Package limits enforces a command's time and memory limits with a
// watchdog: a goroutine that samples the elapsed time and the memory the Go
// runtime holds, and reports the first limit hit.
//
// The checkers do not take a context: their inner loops run over flat
// arrays and a cancellation check there would cost on every run to serve
// the rare one that is stopped. A limit is therefore the end of the
// process (the CLI prints what was hit and exits), which is what a user
// who set it wants, and what the OS would otherwise do less politely.
package limits

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
)

// Limits bounds a run. Zero fields mean no limit.
type Limits struct {
	Time   time.Duration
	Memory int64 // bytes held by the Go runtime (heap, stacks, metadata), released pages excluded
}

// Watchdog watches one run; Stop ends the watch.
type Watchdog struct {
	stop chan struct{}
	once sync.Once
	done chan struct{}
}

// Kind names a limit of Limits.
type Kind int

// The limits Watch enforces.
const (
	Time Kind = iota
	Memory
)

// Watch starts watching the current process against l, sampling every
// interval, and calls hit once, with the limit reached and a message that
// says what was reached, when one is. The memory limit is also handed to the garbage
// collector (debug.SetMemoryLimit), so that it collects harder before the
// limit is declared hit.
func Watch(l Limits, interval time.Duration, hit func(which Kind, msg string)) *Watchdog {
	w := &Watchdog{stop: make(chan struct{}), done: make(chan struct{})}
	if l.Time <= 0 && l.Memory <= 0 {
		close(w.done)
		return w
	}
	if l.Memory > 0 {
		debug.SetMemoryLimit(l.Memory)
	}
	start := time.Now()
	go func() {
		defer close(w.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case now := <-tick.C:
				if elapsed := now.Sub(start); l.Time > 0 && elapsed >= l.Time {
					hit(Time, fmt.Sprintf("time limit reached: still running after %s", l.Time))
					return
				}
				if held := Held(); l.Memory > 0 && held >= l.Memory {
					hit(Memory, fmt.Sprintf("memory limit reached: %s in use, limit %s",
						humanize.IBytes(uint64(held)), humanize.IBytes(uint64(l.Memory))))
					return
				}
			}
		}
	}()
	return w
}

// Stop ends the watch and waits for the watchdog to finish.
func (w *Watchdog) Stop() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

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
