package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// goExample is the directory of a Go example, relative to this package.
func goExample(name string) string { return "../../frontend/golang/testdata/" + name }

// TestVerifyGoPackage: verify, compile, progress and show take a Go
// package with --type; verdicts and traces in Go's terms.
func TestVerifyGoPackage(t *testing.T) {
	code, out, errOut := linbis("verify", goExample("treiber"), "--type", "Stack[int]")
	assert.Equal(t, 0, code, errOut)
	assert.Regexp(t, `LINEARIZABLE\s+YES`, out)
	assert.Contains(t, out, "no data race is reachable under these bounds", "the verdict says what it rests on")

	code, out, errOut = linbis("verify", goExample("loadstore"), "--type", "Counter")
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `LINEARIZABLE\s+NO`, out)
	assert.Contains(t, out, "v := c.n.Load() + 1", "the trace cites the Go line")

	code, out, errOut = linbis("progress", goExample("spincounter"), "--type", "Counter")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "for !c.locked.CompareAndSwap(false, true) {")

	code, out, errOut = linbis("compile", goExample("msqueue"), "--type", "Queue", "--steps")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "if cas(&tail.next, next, n) {")

	code, out, errOut = linbis("show", goExample("msqueue"), "--type", "Queue", "--methods", "Enqueue")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "method Enqueue(")
	assert.NotContains(t, out, "method Dequeue(")
}

// TestGoPackageErrors: a construct outside the subset, or that the
// translation refuses, is one line with its position, exit 2; so is a
// directory without --type.
func TestGoPackageErrors(t *testing.T) {
	code, _, errOut := linbis("verify", goExample("refuse"), "--type", "Chan")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, errOut)
	assert.Contains(t, errOut, "refuse/refuse.go:17:11: channel is not supported (")

	// A construct the translation refuses (after the subset check) is
	// one line too.
	code, _, errOut = linbis("verify", goExample("refuse"), "--type", "UnsafeClash")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, errOut)
	assert.Regexp(t, `refuse/refuse\.go:\d+:\d+: unsafe\.Pointer converted to pointers to types with a field x of different types .* is not supported \(`, errOut)

	code, _, errOut = linbis("verify", goExample("treiber"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "name the type of this Go package to verify with --type")

	code, _, errOut = linbis("compile", goExample("treiber"), "--type", "Nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "has no type Nope")
}

// TestGoOnly: --only restricts threads to methods, as the client block's
// only clause: the stack whose length is updated after the CAS is
// linearizable when one thread pushes and the other only reads the length.
func TestGoOnly(t *testing.T) {
	code, out, errOut := linbis("verify", goExample("lencount"), "--type", "Stack", "--only", "1:Push;2:Length")
	assert.Equal(t, 0, code, errOut)
	assert.Regexp(t, `LINEARIZABLE\s+YES`, out)
	code, _, errOut = linbis("verify", goExample("racecounter"), "--type", "Counter", "--only", "1:Nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "has no method Nope")
	code, _, errOut = linbis("verify", goExample("racecounter"), "--type", "Counter", "--only", "Inc")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "expected THREAD:METHOD")
}

// TestGoFlagsNeedType: a Go-input flag without --type is one line naming
// it, exit 2, on every verb that takes it, not silently ignored.
func TestGoFlagsNeedType(t *testing.T) {
	for _, tc := range []struct{ verb, flag, value string }{
		{"verify", "only", "1:push"},
		{"verify", "methods", "push"},
		{"verify", "spec", "Ref"},
		{"verify", "new", "New()"},
		{"compile", "only", "1:push"},
		{"progress", "methods", "push"},
		{"show", "spec", "Ref"},
	} {
		t.Run(tc.verb+"-"+tc.flag, func(t *testing.T) {
			code, out, errOut := linbis(tc.verb, "treiber", "--"+tc.flag, tc.value)
			assert.Equal(t, 2, code, out)
			assert.Equal(t, "linbis: --"+tc.flag+" is for a Go package's type: give --type T with MODEL the package's directory or import path (a .lin model says this in its source)\n", errOut)
		})
	}
	code, _, errOut := linbis("verify", "--only", "1:push")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--only is for a Go package's type")
}

// TestGoDataRace: a plain c.n++ is a data race, reported with the run that
// reaches it and both source lines, exit 1, "data_race" in the JSON.
func TestGoDataRace(t *testing.T) {
	code, out, errOut := linbis("verify", goExample("racecounter"), "--type", "Counter")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "data race: ")
	assert.Contains(t, out, "thread 1 writes (racecounter.go:12 c.n++) and thread 2 reads (racecounter.go:12 c.n++)")
	code, out, errOut = linbis("verify", goExample("racecounter"), "--type", "Counter", "--json")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, `"data_race": {`)
}
