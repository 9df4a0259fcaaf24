package frontend

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadModifyWriteRacesWithPlainRead: an atomic read-modify-write
// (faa, swap, cas) writes its location, so a plain read of it at the same
// time is a data race, found with the race check's static filter and
// without it. (The check once took swap's and faa's writes for reads.)
func TestReadModifyWriteRacesWithPlainRead(t *testing.T) {
	for _, c := range []struct{ rmw, typ string }{{"faa(c, 1)", "int"}, {"swap(c, 1)", "int"}, {"cas(c, 0, 1)", "bool"}} {
		rmw := c.rmw
		src := fmt.Sprintf(`object C {
  shared c int = 0
  method inc() %s {
//linbis:origin c.go:10:2 the atomic write
    v := %s
    return v
  }
  method get() int {
//linbis:plain c.go:14:2 return c.n
    v := c
    return v
  }
}
spec auto
client { threads 2; ops 1 }
`, c.typ, rmw)
		m, err := Parse("race.lin", []byte(src))
		require.NoError(t, err, rmw)
		for _, every := range []bool{false, true} {
			_, err := CompileImpl(m, m.DefaultBounds(), Options{RaceEveryStep: every})
			var me *ModelError
			if assert.True(t, errors.As(err, &me), "%s (every step %v): %v", rmw, every, err) {
				assert.True(t, me.Race, "%s: %s", rmw, me.Msg)
				assert.Contains(t, me.Msg, "thread 1 writes", rmw)
			}
		}
	}
}
