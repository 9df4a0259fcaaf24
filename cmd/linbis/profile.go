package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// profileFlag writes a CPU profile of the whole command, for `go tool
// pprof` and for refreshing the profile that guides the compiler's
// optimisation of this command (default.pgo, see the README).
var profileFlag = &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the command to `FILE` (for go tool pprof)"}

// startProfile starts the CPU profile if --cpuprofile was given; stop ends
// it and closes the file.
func startProfile(c *cli.Context) (stop func() error, err error) {
	path := c.String(profileFlag.Name)
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %v", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
