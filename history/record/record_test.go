package record

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCASFail(t *testing.T) {
	for i, m := range CASFailModes {
		got, err := ParseCASFail(m)
		require.NoError(t, err)
		assert.Equal(t, CASFail(i), got)
		assert.Equal(t, m, got.String())
	}
	_, err := ParseCASFail("maybe")
	assert.EqualError(t, err, `--cas-fail "maybe": expected one of drop, false`)
}

// TestShowValues checks how values are rendered in evidence: strings
// quoted (so that an empty one shows), the key as a key.
func TestShowValues(t *testing.T) {
	get := Op{Client: 8, Call: 1, Return: 2, Method: "get", Key: "7", Result: ""}
	assert.Equal(t, `c8 get() on key 7 -> ""`, get.String())
	put := Op{Client: 3, Call: 1, Return: 2, Method: "put", Key: `"x"`, Args: []string{`"a b"`}}
	assert.Equal(t, `c3 put("a b") on key "x"`, put.String())
	cas := Op{Client: 1, Call: 1, Return: 2, Method: "cas", Args: []string{Nil, "2"}, Result: "true"}
	assert.Equal(t, `c1 cas(nil, 2) -> true`, cas.String())
	read := Op{Client: 2, Call: 1, Return: Pending, Method: "read", Unknown: true}
	assert.Equal(t, `c2 read() pending`, read.String())
	assert.Equal(t, `[1 2]`, ShowValue("[1 2]"))
	assert.Equal(t, `:ok`, ShowValue(":ok"))
	assert.Equal(t, `-1.5`, ShowValue("-1.5"))
	assert.Equal(t, `" 1"`, ShowValue(`" 1"`))
}
