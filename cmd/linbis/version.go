package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
)

var versionCmd = &cli.Command{
	Name:   "version",
	Usage:  "print linbis's version: module version, VCS revision and Go version (as --version)",
	Action: runVersion,
}

func runVersion(c *cli.Context) error {
	_, err := fmt.Fprintln(c.App.Writer, versionLine())
	return err
}

func init() {
	// --version prints the same line as the verb.
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, versionLine()) }
}

// versionLine describes this build from its build information: the
// module version (a tag when installed with go install …@version,
// "(devel)" from a clone), the VCS revision and time when built from a
// checkout, and the Go version.
func versionLine() string {
	version, details := "(unknown)", []string{runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		version = bi.Main.Version
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if settings["vcs.modified"] == "true" {
				rev += "+modified"
			}
			details = append([]string{"revision " + rev}, details...)
			if t := settings["vcs.time"]; t != "" {
				details = append(details[:1], append([]string{t}, details[1:]...)...)
			}
		}
	}
	return fmt.Sprintf("linbis %s (%s)", version, strings.Join(details, ", "))
}
