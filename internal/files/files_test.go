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
