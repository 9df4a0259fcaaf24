//go:build unix

package limits

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time the process has spent, user and system,
// over all its threads.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
