//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has spent, user and system,
// over all its threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
