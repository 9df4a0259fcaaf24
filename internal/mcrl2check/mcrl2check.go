// Package mcrl2check checks linbis's mCRL2 export from outside: Declared
// reads the generated .mcrl2 declarations with its own small parser and
// tells whether they declare a set of labels, and Holds runs mCRL2's own
// lts2pbes and pbessolve, when they are installed, on an .aut file and a
// formula. Tests use both; CI has no mCRL2, so Find says what is missing
// and the tests that need the tools skip.
package mcrl2check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// BinEnv names the environment variable that may hold the folder of
// mCRL2's tools; without it they are looked up on PATH.
const BinEnv = "LINBIS_MCRL2_BIN"

// Tools are the paths of the mCRL2 tools Holds runs.
type Tools struct {
	LTS2PBES  string // the path of mCRL2's lts2pbes
	PBESSolve string // the path of mCRL2's pbessolve
}

// Find locates lts2pbes and pbessolve in $LINBIS_MCRL2_BIN or on PATH; the
// error names what is missing and where it was looked for.
func Find() (Tools, error) {
	look := exec.LookPath
	where := "PATH"
	if dir := os.Getenv(BinEnv); dir != "" {
		where = BinEnv + "=" + dir
		look = func(name string) (string, error) {
			p := filepath.Join(dir, name)
			if _, err := os.Stat(p); err != nil {
				return "", err
			}
			return p, nil
		}
	}
	var t Tools
	var err error
	if t.LTS2PBES, err = look("lts2pbes"); err == nil {
		t.PBESSolve, err = look("pbessolve")
	}
	if err != nil {
		return Tools{}, fmt.Errorf("mCRL2's lts2pbes and pbessolve are not in %s (set %s to the folder of mCRL2's tools): %v", where, BinEnv, err)
	}
	return t, nil
}

// Holds translates the LTS in aut and the formula in mcf, the actions
// declared in data, to a PBES (lts2pbes) and solves it (pbessolve):
// whether the formula holds in the initial state, by mCRL2's account.
func (t Tools) Holds(ctx context.Context, aut, data, mcf string) (bool, error) {
	dir, err := os.MkdirTemp("", "mcrl2check")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	pbes := filepath.Join(dir, "f.pbes")
	if _, err := run(ctx, t.LTS2PBES, "--quiet", "--data="+data, "--formula="+mcf, aut, pbes); err != nil {
		return false, err
	}
	out, err := run(ctx, t.PBESSolve, "--quiet", pbes)
	if err != nil {
		return false, err
	}
	switch strings.TrimSpace(out) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("pbessolve printed %q, expected true or false", out)
}

// Check is one command of an .mcf file's comments and its outcome.
type Check struct {
	// Command is the comment's command line.
	Command string
	Want    bool // what the comment says pbessolve prints: true or false
	Got     bool // what pbessolve printed
}

// checkLine is a command in the comments of linbis's .mcf files:
// "%   lts2pbes --data=D --formula=F AUT | pbessolve   # true".
var checkLine = regexp.MustCompile(`^%\s+(lts2pbes --data=(\S+) --formula=(\S+) (\S+) \| pbessolve)\s+# (true|false)$`)

// RunChecks runs the check commands written in the comments of the .mcf
// file (paths as there, so from the folder linbis was run in) and returns
// them with their outcomes; it is an error when the file has none.
func (t Tools) RunChecks(ctx context.Context, mcf string) ([]Check, error) {
	cmds, err := commands(mcf)
	if err != nil {
		return nil, err
	}
	checks := make([]Check, len(cmds))
	for i, c := range cmds {
		got, err := t.Holds(ctx, c[4], c[2], c[3])
		if err != nil {
			return nil, err
		}
		checks[i] = Check{Command: c[1], Want: c[5] == "true", Got: got}
	}
	return checks, nil
}

// CheckCommands reads the .mcf file's check commands without running
// them: the .mcrl2 file and the .aut files they name, for Declared.
func CheckCommands(mcf string) (data string, auts []string, err error) {
	cmds, err := commands(mcf)
	for _, c := range cmds {
		data, auts = c[2], append(auts, c[4])
	}
	return data, auts, err
}

// commands returns the submatches of checkLine in the .mcf file.
func commands(mcf string) ([][]string, error) {
	text, err := os.ReadFile(mcf)
	if err != nil {
		return nil, err
	}
	var cmds [][]string
	for _, line := range strings.Split(string(text), "\n") {
		if m := checkLine.FindStringSubmatch(line); m != nil {
			cmds = append(cmds, m)
		}
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%s: no lts2pbes command in its comments", mcf)
	}
	return cmds, nil
}

// CheckExport reads the .mcf file's commands, the .mcrl2 declarations and
// the .aut files they name (with its own reader of .aut lines) and returns
// an error unless every label of those .aut files is declared; it returns
// the declarations, for checking more labels.
func CheckExport(mcf string) (*Declarations, error) {
	data, auts, err := CheckCommands(mcf)
	if err != nil {
		return nil, err
	}
	text, err := os.ReadFile(data)
	if err != nil {
		return nil, err
	}
	d, err := ParseDeclarations(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", data, err)
	}
	for _, aut := range auts {
		labels, err := autLabels(aut)
		if err != nil {
			return nil, err
		}
		if err := d.Declared(labels); err != nil {
			return nil, fmt.Errorf("%s against %s: %v", aut, data, err)
		}
	}
	return d, nil
}

// autTransition is a transition line of an .aut file with a quoted label.
var autTransition = regexp.MustCompile(`^\(\s*\d+\s*,\s*"([^"]*)"\s*,\s*\d+\s*\)$`)

// autLabels returns the labels of the transitions of an .aut file that
// quotes its labels, as linbis writes them.
func autLabels(path string) ([]string, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var labels []string
	for i, line := range strings.Split(strings.TrimSpace(string(text)), "\n")[1:] {
		m := autTransition.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			return nil, fmt.Errorf("%s:%d: not a transition with a quoted label: %q", path, i+2, line)
		}
		if !seen[m[1]] {
			seen[m[1]] = true
			labels = append(labels, m[1])
		}
	}
	return labels, nil
}

// CheckIfInstalled runs the check commands of the .mcf file (RunChecks)
// when mCRL2's tools are installed, fails t unless each says what the file
// expects, and logs the outcomes; without the tools it logs why nothing
// was run (CI has no mCRL2).
func CheckIfInstalled(t testing.TB, mcf string) {
	t.Helper()
	tools, err := Find()
	if err != nil {
		t.Logf("not checked by mCRL2: %v", err)
		return
	}
	checks, err := tools.RunChecks(context.Background(), mcf)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Got != c.Want {
			t.Fatalf("mCRL2 disagrees: %s printed %v", c.Command, c.Got)
		}
		t.Logf("mCRL2: %s: %v", c.Command, c.Got)
	}
}

func run(ctx context.Context, tool string, args ...string) (string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", filepath.Base(tool), strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// Declarations are the sorts and actions of an .mcrl2 file as Declared
// reads them: the constructors of struct sorts and each action's
// argument sorts, one entry per (overloaded) declaration.
type Declarations struct {
	// Constructor maps a constant to its struct sort.
	Constructor map[string]string
	// Signatures maps an action to its declarations' argument sorts,
	// joined by " # " ("" for none).
	Signatures map[string][]string
}

var (
	sortLine   = regexp.MustCompile(`^sort\s+(\w+)\s*=\s*struct\s+(.*);$`)
	actionDecl = regexp.MustCompile(`^(\w[\w']*)\s*(?::\s*(.*))?;$`)
	termLabel  = regexp.MustCompile(`^(\w[\w']*)(?:\((.*)\))?$`)
	integer    = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9']*$`)
)

// ParseDeclarations reads the subset of mCRL2 that linbis writes: %
// comments, `sort S = struct c1 | c2;`, and `act` followed by
// `name;` or `name: S1 # S2;` lines.
func ParseDeclarations(text string) (*Declarations, error) {
	d := &Declarations{Constructor: map[string]string{}, Signatures: map[string][]string{}}
	inAct := false
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "%"):
		case sortLine.MatchString(line):
			m := sortLine.FindStringSubmatch(line)
			for _, c := range strings.Split(m[2], "|") {
				c = strings.TrimSpace(c)
				if !identifier.MatchString(c) {
					return nil, fmt.Errorf("line %d: constructor %q is not an identifier", i+1, c)
				}
				d.Constructor[c] = m[1]
			}
			inAct = false
		case line == "act":
			inAct = true
		case inAct && actionDecl.MatchString(line):
			m := actionDecl.FindStringSubmatch(line)
			var sorts []string
			for _, s := range strings.Split(m[2], "#") {
				if s = strings.TrimSpace(s); s != "" {
					sorts = append(sorts, s)
				}
			}
			d.Signatures[m[1]] = append(d.Signatures[m[1]], strings.Join(sorts, " # "))
		default:
			return nil, fmt.Errorf("line %d: %q is not a sort or action declaration", i+1, line)
		}
	}
	return d, nil
}

// Declared returns an error naming every label of labels (mCRL2 actions;
// "tau" aside) that no declaration of d types: a label's action must be
// declared with exactly the sorts of its arguments, integers being Int,
// true and false Bool and identifiers constructors.
func (d *Declarations) Declared(labels []string) error {
	var errs []error
	for _, l := range labels {
		if l == "tau" {
			continue
		}
		m := termLabel.FindStringSubmatch(l)
		if m == nil {
			errs = append(errs, fmt.Errorf("label %q is not an action term", l))
			continue
		}
		var sorts []string
		if m[2] != "" {
			for _, a := range strings.Split(m[2], ",") {
				a = strings.TrimSpace(a)
				switch {
				case integer.MatchString(a):
					sorts = append(sorts, "Int")
				case a == "true" || a == "false":
					sorts = append(sorts, "Bool")
				case d.Constructor[a] != "":
					sorts = append(sorts, d.Constructor[a])
				default:
					errs = append(errs, fmt.Errorf("label %q: argument %q is neither a number, a Bool nor a declared constructor", l, a))
				}
			}
		}
		found := false
		for _, s := range d.Signatures[m[1]] {
			found = found || s == strings.Join(sorts, " # ")
		}
		if !found {
			errs = append(errs, fmt.Errorf("label %q: no declaration of action %s with sorts (%s)", l, m[1], strings.Join(sorts, " # ")))
		}
	}
	return errors.Join(errs...)
}
