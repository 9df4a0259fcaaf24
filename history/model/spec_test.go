package model

import (
	"testing"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
)

// TestKVAppendJoinsQuotedStrings checks that kv's append of two quoted
// strings is the quoting of their concatenation, escapes included.
func TestKVAppendJoinsQuotedStrings(t *testing.T) {
	for _, c := range [][2]string{{"a\n", "\"b"}, {"", "é\U0001f600"}, {"\x01", "\\"}} {
		assert.Equal(t, format.QuoteString(c[0]+c[1]), appendText(format.QuoteString(c[0]), format.QuoteString(c[1])))
		got, ok := format.Unquote(appendText(format.QuoteString(c[0]), format.QuoteString(c[1])))
		assert.True(t, ok)
		assert.Equal(t, c[0]+c[1], got)
	}
	assert.Equal(t, `"ab1"`, appendText(`"ab"`, "1"))
	assert.Equal(t, `"x"`, appendText(record.Nil, `"x"`))
}
