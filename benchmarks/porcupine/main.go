// Command porcupine compares `linbis history` with Porcupine
// (github.com/anishathalye/porcupine), the closest peer, on generated
// histories: time and peak resident memory of each checker run as its own
// process on the same file, the two runs interleaved.
//
// It is a module of its own so that Porcupine stays a dependency of this
// benchmark only, never of the linbis module or binary; the root module's
// `go test ./...` does not enter it.
//
//	go run . gen -dir /tmp/hist                       # write the histories (10^4 … 10^6 operations)
//	go build -o /tmp/linbis ../../cmd/linbis
//	go build -o /tmp/pc . && /tmp/pc compare -dir /tmp/hist -linbis /tmp/linbis -reps 3
//	/tmp/pc porcupine -model register FILE            # Porcupine alone on one file
//
// compare prints a Markdown table: per file, the median CPU time (user +
// system) and wall time and the largest peak RSS (getrusage of the child)
// of each checker, their verdicts and the ratios. Each checker reads the
// file itself (Porcupine's side with linbis's reader), so both include
// parsing.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/linbis/linbis/history/format"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: porcupine gen|compare|porcupine [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = genCmd(os.Args[2:])
	case "compare":
		err = compareCmd(os.Args[2:])
	case "porcupine":
		err = porcupineCmd(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: expected gen, compare or porcupine", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "porcupine:", err)
		os.Exit(2)
	}
}

func parseSizes(s string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("-sizes %q: expected comma-separated integers", s)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func genCmd(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	dir := fs.String("dir", "", "output directory")
	sizesFlag := fs.String("sizes", "10000,100000,1000000", "history lengths")
	fs.Parse(args)
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	for _, k := range kinds {
		for _, n := range sizes {
			if err := writeHistory(filepath.Join(*dir, fileName(k, n)), generate(k, n, 1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// porcupineCmd checks one file with Porcupine: exit 0 linearizable, 1
// not, 3 unknown (timeout).
func porcupineCmd(args []string) error {
	fs := flag.NewFlagSet("porcupine", flag.ExitOnError)
	model := fs.String("model", "register", "register, cas-register or kv")
	timeout := fs.Duration("timeout", 0, "Porcupine's timeout (0: none)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("porcupine needs one FILE")
	}
	h, err := format.ReadFile(fs.Arg(0), format.ReadOptions{})
	if err != nil {
		return err
	}
	m, err := porcupineModel(*model)
	if err != nil {
		return err
	}
	switch porcupine.CheckOperationsTimeout(m, porcupineOps(h), *timeout) {
	case porcupine.Ok:
		fmt.Println("linearizable")
	case porcupine.Illegal:
		fmt.Println("not linearizable")
		os.Exit(1)
	default:
		fmt.Println("unknown")
		os.Exit(3)
	}
	return nil
}

// run is one timed child process.
type run struct {
	seconds float64 // wall clock
	cpu     float64 // user + system seconds: less sensitive to a loaded machine
	peakMiB float64
	exit    int
	out     string
}

func timed(name string, args ...string) (run, error) {
	cmd := exec.Command(name, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := run{seconds: time.Since(start).Seconds(), out: out.String()}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return r, err
	}
	r.exit = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	r.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	return r, nil
}

func compareCmd(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ExitOnError)
	dir := fs.String("dir", "", "directory written by gen")
	linbis := fs.String("linbis", "", "the linbis binary")
	reps := fs.Int("reps", 3, "runs of each checker per file, interleaved")
	sizesFlag := fs.String("sizes", "10000,100000,1000000", "history lengths")
	timeout := fs.Duration("timeout", 10*time.Minute, "time limit of each run")
	capGiB := fs.Int("cap", 8, "address-space cap of each child, GiB (Porcupine has no memory limit of its own)")
	fs.Parse(args)
	// Children inherit the cap: a checker that needs more fails with out
	// of memory instead of taking the machine down.
	lim := uint64(*capGiB) << 30
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		return err
	}
	sizes, err := parseSizes(*sizesFlag)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Println("| history | ops | verdict | linbis CPU s | Porcupine CPU s | CPU ratio | linbis wall s | Porcupine wall s | linbis peak MiB | Porcupine peak MiB | memory ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for _, k := range kinds {
		for _, n := range sizes {
			file := filepath.Join(*dir, fileName(k, n))
			var lt, pt, lc, pc, lm, pm []float64
			var lv, pv string
			for range *reps {
				l, err := timed(*linbis, "history", "-q", "--model", k.model, "--timeout", timeout.String(), "--max-memory", fmt.Sprintf("%dGiB", *capGiB/2), file)
				if err != nil {
					return err
				}
				p, err := timed(self, "porcupine", "-model", k.model, "-timeout", timeout.String(), file)
				if err != nil {
					return err
				}
				lt, pt, lm, pm = append(lt, l.seconds), append(pt, p.seconds), append(lm, l.peakMiB), append(pm, p.peakMiB)
				lc, pc = append(lc, l.cpu), append(pc, p.cpu)
				lv, pv = verdict(l), verdict(p)
			}
			v := lv
			if lv != pv {
				v = "linbis " + lv + ", Porcupine " + pv + " (DISAGREE)"
			}
			fmt.Printf("| %s | %d | %s | %.2f | %.2f | %.2f | %.1f | %.1f | %.0f | %.0f | %.2f |\n", k.name, n, v,
				median(lc), median(pc), median(lc)/median(pc), median(lt), median(pt), slices.Max(lm), slices.Max(pm), slices.Max(lm)/slices.Max(pm))
		}
	}
	return nil
}

func verdict(r run) string {
	switch {
	case r.exit == 0:
		return "yes"
	case r.exit == 1:
		return "no"
	case strings.Contains(r.out, "out of memory") || strings.Contains(r.out, "cannot allocate memory"):
		return "out of memory"
	case strings.Contains(r.out, "memory budget"):
		return "memory limit"
	case strings.Contains(r.out, "time budget"), r.exit == 3:
		return "timeout"
	}
	return fmt.Sprintf("exit %d", r.exit)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
