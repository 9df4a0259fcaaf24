//go:build unix

package bisim

import (
	"syscall"
	"time"
)

// cpuTime returns the user plus system CPU time of this process, so that
// benchmarks on a shared machine can report it beside the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
