package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// verify --method refine says what the lock-freedom check found, not
// what it looked for: "a τ-cycle" appears only when there is one.
func TestRefineMethodLockFreedomWording(t *testing.T) {
	code, out, errOut := linbis("verify", "treiber", "--ops", "1", "--method", "refine", "-q")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "lock-free, checked directly on the implementation LTS: no τ-cycle keeps an operation pending")
	assert.NotContains(t, out, "(a τ-cycle with")

	code, out, errOut = linbis("verify", "hp-stack-revised", "--method", "refine", "-q")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "NOT lock-free, checked directly on the implementation LTS: a τ-cycle keeps an operation pending")
}
