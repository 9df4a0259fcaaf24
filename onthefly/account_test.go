package onthefly

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteHeapProfile: the heap profile asked for beside the structures'
// bytes is a gzipped profile in the file named, and the live heap is
// printed.
func TestWriteHeapProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pprof")
	var out bytes.Buffer
	require.NoError(t, writeHeapProfile(&out, path))
	require.Contains(t, out.String(), "heap live")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Greater(t, len(data), 2)
	require.Equal(t, []byte{0x1f, 0x8b}, data[:2], "gzip")
	require.Error(t, writeHeapProfile(&out, filepath.Join(path, "no-such-dir", "x")))
}
