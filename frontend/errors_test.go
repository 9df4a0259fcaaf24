package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/syntax"
)

// errorComment marks an expected error, go/parser style: the error must be
// reported at the first token after the comment (and after any further
// ERROR comments), with a message matching the quoted regular expression.
var errorComment = regexp.MustCompile(`^/\* ERROR "((?:[^"\\]|\\.)*)" \*/`)

type expectation struct {
	line, col int
	rx        *regexp.Regexp
}

func expectations(t *testing.T, name string, src []byte) []expectation {
	f := syntax.NewFile(name, src)
	var out []expectation
	for i := 0; i < len(src); i++ {
		m := errorComment.FindSubmatch(src[i:])
		if m == nil {
			continue
		}
		rx, err := regexp.Compile(string(m[1]))
		require.NoError(t, err)
		// Find the position the error refers to.
		j := i + len(m[0])
		for {
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			next := errorComment.Find(src[j:])
			if next == nil {
				break
			}
			j += len(next)
		}
		pos := f.Position(f.Pos(j))
		out = append(out, expectation{line: pos.Line, col: pos.Col, rx: rx})
		i += len(m[0]) - 1
	}
	return out
}

// TestErrors parses and checks every testdata/errors/*.lin file and
// requires exactly the errors marked in it, at their line and column.
func TestErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.lin")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 20)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			want := expectations(t, file, src)
			require.NotEmpty(t, want, "no ERROR comments")
			_, err = Parse(file, src)
			require.Error(t, err)
			var list syntax.ErrorList
			require.True(t, errors.As(err, &list), "error is not an ErrorList: %v", err)
			matched := make([]bool, len(want))
			for _, e := range list {
				assert.Equal(t, file, e.Pos.File)
				found := false
				for k, w := range want {
					if !matched[k] && w.line == e.Pos.Line && w.col == e.Pos.Col && w.rx.MatchString(e.Msg) {
						matched[k], found = true, true
						break
					}
				}
				assert.True(t, found, "unexpected error %s", e)
			}
			for k, w := range want {
				assert.True(t, matched[k], "missing error at %d:%d matching %q; got:\n%v", w.line, w.col, w.rx, err)
			}
			// The printed form is file:line:col: msg, one per line.
			for _, e := range list {
				assert.Regexp(t, `^`+regexp.QuoteMeta(file)+`:\d+:\d+: `, e.Error())
			}
			assert.Equal(t, len(list), len(regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(file)+`:`).FindAllString(err.Error(), -1)), "one line per error")
		})
	}
}
