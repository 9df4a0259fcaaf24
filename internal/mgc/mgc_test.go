package mgc

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/lts"
)

// TestCASCounterFiles: the generator writes, byte for byte, the .aut files
// that the repository holds of it: the bundled example of `linbis info`
// (2 threads, 2 steps, counter modulo 3, 1 operation each) and progress's
// spin variant (2 2 2 1 with spin).
func TestCASCounterFiles(t *testing.T) {
	for _, c := range []struct {
		file                    string
		threads, steps, mod, op int
		spin                    bool
	}{
		{"../../cmd/linbis/example/cas-counter-2x1.aut", 2, 2, 3, 1, false},
		{"../../progress/testdata/mgc-2-2-2-1-spin.aut", 2, 2, 2, 1, true},
	} {
		want, err := os.ReadFile(c.file)
		require.NoError(t, err)
		var got bytes.Buffer
		require.NoError(t, lts.WriteAut(&got, CASCounter(c.threads, c.steps, c.mod, c.op, c.spin)))
		assert.Equal(t, string(want), got.String(), c.file)
	}
}

// TestCASCounterSizes: larger rows of the family, by their sizes and
// the MD5 of their .aut text as gen_mgc_aut.py, the Python generator this
// package replaces, wrote them; every step has its thread.
func TestCASCounterSizes(t *testing.T) {
	for _, c := range []struct {
		threads, steps, mod, ops int
		spin                     bool
		states, transitions      int
		md5                      string
	}{
		{3, 3, 4, 3, false, 35740, 101673, "d5112372e6839ba61502ea9b38b0aee6"},
		{4, 2, 3, 1, true, 2497, 8196, "1e9178b6da11b30929511cd42324609d"},
	} {
		l := CASCounter(c.threads, c.steps, c.mod, c.ops, c.spin)
		assert.Equal(t, int32(c.states), l.NumStates)
		assert.Equal(t, c.transitions, l.NumTransitions())
		var text bytes.Buffer
		require.NoError(t, lts.WriteAut(&text, l))
		assert.Equal(t, c.md5, fmt.Sprintf("%x", md5.Sum(text.Bytes())))
		assert.Len(t, l.Meta.Thread, l.NumTransitions())
	}
}
