package antichain_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/linbis/linbis/antichain"
	"github.com/linbis/linbis/lts"
)

// TestIncludes covers the element-wise inclusion test beyond what the
// 64-bit signature decides alone (states ≥ 64 share signature bits), and
// the empty subset, which every subset includes.
func TestIncludes(t *testing.T) {
	b := lts.NewBuilder()
	b.SetNumStates(200)
	n := antichain.NewSubsets(antichain.Explicit{L: b.Build()}, true)
	ids := map[string]int32{}
	for name, set := range map[string][]int32{
		"a": {1, 65}, "b": {1, 129}, "ab": {1, 65, 129}, "c": {1}, "d": {2, 66, 130}, "empty": nil,
	} {
		ids[name] = n.Intern(set)
	}
	tests := []struct {
		q, p string
		want bool
	}{
		{"a", "ab", true}, {"b", "ab", true}, {"c", "a", true}, {"a", "a", true},
		{"a", "b", false}, {"b", "a", false}, {"ab", "a", false}, {"d", "ab", false}, {"c", "d", false},
		{"empty", "c", true}, {"c", "empty", false}, {"empty", "empty", true},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, n.Includes(ids[tc.p], ids[tc.q]), "%s ⊆ %s", tc.q, tc.p)
	}
	assert.Equal(t, ids["ab"], n.Intern([]int32{1, 65, 129}), "interning twice gives the same id")
	assert.Equal(t, 6, n.Count())
}
