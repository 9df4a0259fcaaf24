package frontend

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// What a bundled model's header states about it, in two kinds of comment
// lines that tools read (the prose around them explains):
//
//	// Summary: Treiber's lock-free stack (garbage-collected heap).
//	// Verdict: linearizable, lock-free (linbis verify treiber)
//	// Verdict: NOT linearizable (linbis verify treiber-free --explicit --ops 3)
//
// A Verdict line names each property it claims, "linearizable" or "NOT
// linearizable", "lock-free" or "NOT lock-free", and, in parentheses, the
// verify command under whose bounds the claim holds: a verdict is only
// true at a bound. `linbis compile --list` shows these lines, and a test
// runs every Verdict line's command and compares.

// Header is what a bundled model's header states.
type Header struct {
	Summary  string          `json:"summary"`  // one line
	Verdicts []StatedVerdict `json:"verdicts"` // in the order written
}

// StatedVerdict is one Verdict line of a header.
type StatedVerdict struct {
	Linearizable Verdict  `json:"linearizable,omitempty"` // Yes, No, or "" when the line does not say
	LockFree     Verdict  `json:"lock_free,omitempty"`    // likewise
	Args         []string `json:"args"`                   // the verify arguments after the model's name
	Text         string   `json:"text"`                   // the claims as written
}

// Command returns the verify command of v for the model name.
func (v StatedVerdict) Command(name string) string {
	return strings.Join(append([]string{"linbis verify", name}, v.Args...), " ")
}

// ExampleHeader reads the Summary and Verdict lines of a bundled model.
func ExampleHeader(name string) (Header, error) {
	src, err := Example(name)
	if err != nil {
		return Header{}, err
	}
	return ParseHeader(name, src)
}

// ParseHeader reads the Summary and Verdict lines of a model's leading
// comment; name is the model's name as the verify commands give it.
func ParseHeader(name string, src []byte) (Header, error) {
	var h Header
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		text, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "//")
		if !ok {
			break // the header is the leading comment
		}
		text = strings.TrimSpace(text)
		if s, ok := strings.CutPrefix(text, "Summary:"); ok {
			h.Summary = strings.TrimSpace(s)
		}
		if s, ok := strings.CutPrefix(text, "Verdict:"); ok {
			v, err := parseVerdictLine(name, strings.TrimSpace(s))
			if err != nil {
				return h, fmt.Errorf("%s.lin:%d: %v", name, line, err)
			}
			h.Verdicts = append(h.Verdicts, v)
		}
	}
	return h, nil
}

func parseVerdictLine(name, s string) (StatedVerdict, error) {
	open := strings.LastIndex(s, "(")
	if open < 0 || !strings.HasSuffix(s, ")") {
		return StatedVerdict{}, fmt.Errorf("Verdict line: expected claims and (linbis verify %s …), found %q", name, s)
	}
	claims, cmd := strings.TrimSpace(s[:open]), strings.Fields(s[open+1:len(s)-1])
	if len(cmd) < 3 || cmd[0] != "linbis" || cmd[1] != "verify" || cmd[2] != name {
		return StatedVerdict{}, fmt.Errorf("Verdict line: expected (linbis verify %s …), found (%s)", name, strings.Join(cmd, " "))
	}
	v := StatedVerdict{Args: cmd[3:], Text: strings.TrimSuffix(claims, ".")}
	if v.Args == nil {
		v.Args = []string{}
	}
	for _, c := range strings.Split(v.Text, ",") {
		switch strings.TrimSpace(c) {
		case "linearizable":
			v.Linearizable = "yes"
		case "NOT linearizable":
			v.Linearizable = "no"
		case "lock-free":
			v.LockFree = "yes"
		case "NOT lock-free":
			v.LockFree = "no"
		default:
			return v, fmt.Errorf("Verdict line: unknown claim %q: expected linearizable, NOT linearizable, lock-free or NOT lock-free", strings.TrimSpace(c))
		}
	}
	return v, nil
}
