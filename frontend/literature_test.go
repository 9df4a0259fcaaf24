package frontend_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend"
	"github.com/linbis/linbis/verify"
)

// TestLiteratureModels checks the verdicts that the headers of the
// bundled literature models state, with verify, at the bound each header
// names (its client block) and at a smaller one where the verdict already
// shows. A verdict that needs a larger bound than CI affords is said so in
// the header and checked at the small bound only.
func TestLiteratureModels(t *testing.T) {
	yes, no := verify.Yes, verify.No
	tests := []struct {
		model        string
		threads, ops int // 0: the model's client block (the header's bound)
		lin, lf      verify.Verdict
	}{
		{"cas-consensus", 0, 0, yes, yes},
		{"cas-consensus", 2, 1, yes, yes},
		{"lamport-queue-2p", 0, 0, no, yes},
		{"two-lock-queue", 0, 0, yes, no},
		{"two-lock-queue", 2, 1, yes, no},
		{"ms-queue-nohelp", 0, 0, yes, no},
		{"dglm-queue", 0, 0, yes, yes},
		{"dglm-queue", 2, 1, yes, yes},
		{"seqlock", 0, 0, yes, no},
		{"snapshot", 0, 0, yes, yes},
		{"tagged-treiber", 0, 0, yes, yes},
		{"tagged-treiber", 2, 2, yes, yes},
		{"lazy-list", 0, 0, yes, no},
		{"lazy-list", 2, 1, yes, no},
		{"harris-michael", 0, 0, yes, yes},
		{"harris-michael", 2, 1, yes, yes},
		{"harris-michael-nomark", 0, 0, no, yes},
		{"michael-set", 0, 0, yes, yes},
		{"michael-set", 2, 1, yes, yes},
		{"michael-set", 3, 1, yes, yes},
		{"rdcss", 0, 0, yes, yes},
		{"rdcss", 2, 1, yes, yes},
		{"rdcss-naive", 0, 0, no, yes},
		{"elimination-stack", 0, 0, yes, yes},
		{"elimination-stack", 3, 1, yes, yes},
	}
	for _, tc := range tests {
		name := tc.model
		if tc.threads > 0 {
			name += fmt.Sprintf("/%dx%d", tc.threads, tc.ops)
		}
		t.Run(name, func(t *testing.T) {
			m, err := frontend.ParseExample(tc.model)
			require.NoError(t, err)
			b := m.DefaultBounds()
			if tc.threads > 0 {
				b.Threads, b.Ops = tc.threads, tc.ops
			}
			out, err := verify.Run(context.Background(), tc.model, m, b, verify.Options{Method: verify.Auto, Compile: frontend.Options{}})
			require.NoError(t, err)
			assert.Equal(t, tc.lin, out.Report.Linearizable, "linearizable at %v", b)
			assert.Equal(t, tc.lf, out.Report.LockFree, "lock-free at %v", b)
		})
	}
}

// TestMutantsAreCaught checks that the words and locs of the rewritten models
// matter: tagged Treiber whose cas leaves the tag as it is suffers ABA
// through the reference inside the word (explicit memory reuses a popped
// node that a stale word still holds), and the seqlock reader that does
// not read the sequence number again returns a torn pair, and Michael's
// insert that links its node through the loc prev by a store instead of a
// cas loses a concurrent insert at the same place.
func TestMutantsAreCaught(t *testing.T) {
	for _, tc := range []struct{ model, from, to string }{
		{"tagged-treiber", "old.tag + 1", "old.tag"},
		{"seqlock", "if seq == s { return a, b }", "return a, b"},
		{"michael-set", "if cas(*prev, MarkedRef(cur, false), MarkedRef(n, false)) { return true }", "*prev = MarkedRef(n, false); return true"},
	} {
		t.Run(tc.model, func(t *testing.T) {
			src, err := frontend.Example(tc.model)
			require.NoError(t, err)
			mutant := strings.ReplaceAll(string(src), tc.from, tc.to)
			require.NotEqual(t, string(src), mutant)
			m, err := frontend.Parse(tc.model+"-mutant.lin", []byte(mutant))
			require.NoError(t, err)
			out, err := verify.Run(context.Background(), tc.model, m, m.DefaultBounds(), verify.Options{Method: verify.Auto, Compile: frontend.Options{}})
			require.NoError(t, err)
			assert.Equal(t, verify.No, out.Report.Linearizable)
		})
	}
}
