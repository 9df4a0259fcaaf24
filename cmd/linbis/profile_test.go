package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCPUProfileFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	code, out, errOut := linbis("--cpuprofile", path, "compile", "-q", "cas-counter")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "implementation")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// A pprof profile is a gzipped protocol buffer.
	require.Greater(t, len(b), 2)
	assert.Equal(t, []byte{0x1f, 0x8b}, b[:2], "gzip magic")

	code, _, errOut = linbis("--cpuprofile", filepath.Join(t.TempDir(), "missing", "cpu.pprof"), "info")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--cpuprofile")
}
