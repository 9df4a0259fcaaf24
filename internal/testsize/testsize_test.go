package testsize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		env  string
		full bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(Env, c.env)
		assert.Equal(t, c.full, Full(), "%s=%q", Env, c.env)
		want := 3
		if c.full {
			want = 300
		}
		assert.Equal(t, want, Count(3, 300), "%s=%q", Env, c.env)
	}
}
