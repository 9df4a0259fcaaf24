package files

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	undoAbandon(t)
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

// TestZAbandonWhileCreating stops the process at its most harmful moment:
// the temporary exists on disk and its write has not started. Abandon must
// still remove it before it returns, for the process exits right after.
// (A temporary recorded only after its creation was missed here: a run
// stopped by SIGTERM once left a .spec.dot.*.tmp behind.)
func TestZAbandonWhileCreating(t *testing.T) {
	undoAbandon(t)
	dir := t.TempDir()
	created := make(chan bool)
	saved := createdHook
	createdHook = func(string) {
		created <- true
		time.Sleep(50 * time.Millisecond) // a slow scheduler between creating and recording
	}
	defer func() { createdHook = saved }()
	done := make(chan error)
	go func() {
		done <- Create(filepath.Join(dir, "spec.dot"), func(w io.Writer) error {
			_, err := io.WriteString(w, "digraph {}\n")
			return err
		})
	}()
	<-created
	Abandon()
	entries, err := os.ReadDir(dir) // what the exiting process leaves
	require.NoError(t, err)
	for _, e := range entries {
		// The write may have won the lock back and finished: then the
		// file is there whole.
		assert.Equal(t, "spec.dot", e.Name(), "Abandon returned with a temporary on disk")
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		assert.Equal(t, "digraph {}\n", string(data))
	}
	if err := <-done; err != nil {
		assert.ErrorIs(t, err, ErrAbandoned)
	}
	assert.ErrorIs(t, CheckDir(dir), ErrAbandoned, "no probe file either once abandoned")
}

// undoAbandon lets a test abandon the outputs and the next one write again
// (Abandon is for a process about to exit, so only tests undo it).
func undoAbandon(t *testing.T) {
	reset := func() {
		mu.Lock()
		defer mu.Unlock()
		abandoned = false
	}
	reset()
	t.Cleanup(reset)
}
