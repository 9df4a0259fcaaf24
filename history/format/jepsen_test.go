package format

import (
	"testing"

	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCASFail(t *testing.T) {
	for i, m := range record.CASFailModes {
		got, err := record.ParseCASFail(m)
		require.NoError(t, err)
		assert.Equal(t, record.CASFail(i), got)
		assert.Equal(t, m, got.String())
	}
	_, err := record.ParseCASFail("maybe")
	assert.EqualError(t, err, `--cas-fail "maybe": expected one of drop, false`)
}
