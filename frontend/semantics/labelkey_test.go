package semantics

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLabelKeyRoundTrip: a label key gives back the kind, thread, method
// and value it was made of (keyOf; no step), whatever the others hold, and is
// never 0.
func TestLabelKeyRoundTrip(t *testing.T) {
	for _, kind := range []LabelKind{KCall, KRet, KLin} {
		for _, out := range []outcome{
			{Kind: kind},
			{Kind: kind, method: 0xffff, value: -1, hasValue: true},
			{Kind: kind, method: 3, value: 1 << 30},
		} {
			for _, th := range []int{0, 5, 0x7ff} {
				k := keyOf(th, out)
				assert.NotZero(t, k)
				assert.Equal(t, kind, k.Kind())
				assert.Equal(t, th, k.thread())
				assert.Equal(t, out, k.outcome())
			}
		}
	}
}
