// Package testsize is the one switch for the size of the tests' sweeps:
// the tests that check thousands of random programs, LTSs or histories
// against an oracle or against each other.
//
// `go test ./...` runs every sweep at its quick size, enough to reach every
// path it checks in a few seconds, so that the whole suite stays a few
// minutes on two cores. With LINBIS_FULL=1 in the environment the sweeps run
// at full size; .ci/run does that after the quick pass. A sweep says both
// sizes where it runs: seeds := testsize.Count(500, 10_000).
package testsize

import "os"

// Env is the environment variable that selects the full size: any value
// but "" and "0".
const Env = "LINBIS_FULL"

// Full reports whether the sweeps run at full size.
func Full() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Count returns full when the sweeps run at full size, else quick.
func Count(quick, full int) int {
	if Full() {
		return full
	}
	return quick
}
