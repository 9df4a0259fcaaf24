//go:build !unix

package limits

import "time"

// ProcessCPU returns the CPU time the process has spent: 0 where the
// system does not tell it (the CLI's grace after a limit then ends on
// wall time alone; benchmarks report 0).
func ProcessCPU() time.Duration { return 0 }
