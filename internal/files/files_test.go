package files

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	require.NoError(t, Create(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "hello\n")
		return err
	}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(data))

	boom := errors.New("boom")
	assert.ErrorIs(t, Create(path, func(io.Writer) error { return boom }), boom)
	assert.Error(t, Create(filepath.Join(t.TempDir(), "no", "such", "dir"), func(io.Writer) error { return nil }))
}

func TestCreateLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	boom := errors.New("boom")
	// A failed write leaves the old file as it was and no temporary.
	assert.ErrorIs(t, Create(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	}), boom)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
}

func TestCheckWritableAndDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.NoError(t, CheckWritable(filepath.Join(dir, "x.aut")))
	assert.NoError(t, CheckWritable("-"))
	assert.ErrorContains(t, CheckWritable(dir), "is a directory")
	assert.ErrorContains(t, CheckWritable(filepath.Join(dir, "no", "x.aut")), "no such file")
	assert.ErrorContains(t, CheckWritable(filepath.Join(file, "x.aut")), "not a folder")
	assert.NoError(t, CheckDir(dir))
	assert.NoError(t, CheckDir(filepath.Join(dir, "new", "deeper")))
	assert.ErrorContains(t, CheckDir(file), "not a directory")
	assert.ErrorContains(t, CheckDir(filepath.Join(file, "sub")), "is not a directory")
}

// Abandon is tested last: it is for a process about to exit.
func TestZAbandon(t *testing.T) {
	dir := t.TempDir()
	started, release := make(chan bool), make(chan bool)
	done := make(chan error)
	go func() {
		done <- Create(filepath.Join(dir, "slow.txt"), func(w io.Writer) error {
			io.WriteString(w, "partial")
			started <- true
			<-release
			return nil
		})
	}()
	<-started
	Abandon()
	close(release)
	assert.ErrorIs(t, <-done, ErrAbandoned)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "neither the temporary nor the target")
	assert.ErrorIs(t, Create(filepath.Join(dir, "late.txt"), func(io.Writer) error { return nil }), ErrAbandoned)
}
