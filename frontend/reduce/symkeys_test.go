package reduce

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/internal/testsize"
)

// TestSymmetryLazyKeysAgree holds canon, which completes the keys only of
// the threads whose blocks' keys tie (sortThreads), to canon computing
// every key whole, and those keys to the keys as they were computed
// before (plainKeys, with its sort): the same keys, markers, orders, tied
// groups, representatives, permutations and stabilisers, on the bundled
// symmetric models and random ones, in both heap modes, fed as the search
// feeds it: the successors of a state one after the other (from the full
// LTS), with now and then another state or a permuted one in between.
func TestSymmetryLazyKeysAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 5))
	var canons, blocks, completed, threads int64
	agree := func(t *testing.T, x *explored, s *Symmetry) {
		c, c2 := semantics.NewCanonicaliser(x.p, s.Threads), semantics.NewCanonicaliser(x.p, s.Threads)
		whole := s.Clone()
		whole.namesInRows = true // every key whole
		ref := s.Clone()
		group := permutations(s.Threads)
		n, kl := s.Threads, s.KeyLen
		feed := func(st []int32) {
			keys, marked := plainKeys(ref, st)
			order := plainOrder(keys, n, kl)
			whole.sortThreads(st)
			require.Equal(t, keys, whole.Keys, "the keys of %v", st)
			require.Equal(t, marked, whole.Marked, "the markers of %v", st)
			require.Equal(t, order, whole.Order, "the order of %v", st)
			before, beforeBlocks := s.counts.rowKeys, s.counts.blockKeys
			s.sortThreads(st)
			completed += s.counts.rowKeys - before
			blocks += s.counts.blockKeys - beforeBlocks
			threads += int64(n)
			require.Equal(t, whole.Order, s.Order, "the order of %v", st)
			require.Equal(t, whole.ties, s.ties, "the tied groups with a marker of %v", st)
			require.Equal(t, whole.free, s.free, "the tied groups without of %v", st)
			require.Equal(t, whole.TieOrder, s.TieOrder)
			for _, g := range append(slices.Clone(s.ties), s.free...) {
				for _, u := range s.Order[g.start : g.start+g.n] {
					require.Equal(t, whole.Keys[int(u)*kl:][:kl], s.Keys[int(u)*kl:][:kl], "the key of tied thread %d of %v", u, st)
					require.Equal(t, whole.Marked[u], s.Marked[u], "the marker of tied thread %d of %v", u, st)
				}
			}
			rep, perm := s.Canon(slices.Clone(st), c)
			rep2, perm2 := whole.Canon(slices.Clone(st), c2)
			require.Equal(t, rep2, rep, "the representative of %v", st)
			require.Equal(t, perm2, perm, "the permutation of %v", st)
			stab, count, ord, exact := s.Stabilizer(nil, maxTiedOrders)
			stab2, count2, ord2, exact2 := whole.Stabilizer(nil, maxTiedOrders)
			require.Equal(t, stab2, stab, "the stabiliser of %v", st)
			require.Equal(t, []any{count2, ord2, exact2}, []any{count, ord, exact})
		}
		l := x.l
		ids := r.Perm(len(x.states))
		for _, id := range ids[:min(len(ids), 1500)] {
			lo, hi := l.Outgoing(int32(id))
			for _, k := range r.Perm(int(hi - lo)) {
				feed(x.states[l.Dst[lo+int32(k)]])
				switch r.IntN(8) {
				case 0:
					feed(x.states[r.IntN(len(x.states))])
				case 1:
					feed(slices.Clone(s.Apply(x.states[id], group[r.IntN(len(group))], c)))
				}
			}
		}
		canons += s.counts.canons
	}
	forSymmetricSystems(t, agree)
	models := testsize.Count(8, 30)
	for i := range models {
		src := randomSymmetricModel(r)
		ast, err := syntax.Parse(fmt.Sprintf("random%d.lin", i), []byte(src))
		require.NoError(t, err, src)
		prog, err := check.Check(ast)
		require.NoError(t, err, src)
		b := ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}
		for _, explicit := range []bool{false, true} {
			x, err := tryExploreStates(prog, prog.Impl, b, explicit, 5_000)
			var me *semantics.ModelError
			if errors.As(err, &me) || errors.Is(err, semantics.ErrStateLimit) {
				continue
			}
			require.NoError(t, err, src)
			s, reason := NewSymmetry(x.p, b)
			require.NotNil(t, s, "%s\n%s", reason, src)
			ok := t.Run(fmt.Sprintf("random%d/explicit=%v", i, explicit), func(t *testing.T) { agree(t, x, s) })
			require.True(t, ok, src)
		}
	}
	t.Logf("%d canonicalisations; of %d threads' keys, %d blocks keyed and %d keys completed", canons, threads, blocks, completed)
	require.Positive(t, completed, "some keys are completed")
	require.Less(t, completed, blocks, "not every keyed block is")
	require.Less(t, blocks, threads, "not every block is keyed")
}

// plainOrder sorts the threads by their keys as sortThreads did before
// it completed only the tied threads' keys: an insertion sort, stable.
func plainOrder(keys []int32, n, kl int) []uint8 {
	order := make([]uint8, n)
	for t := range order {
		order[t] = uint8(t)
	}
	key := func(t uint8) []int32 { return keys[int(t)*kl:][:kl] }
	for i := 1; i < n; i++ {
		for j := i; j > 0 && slices.Compare(key(order[j-1]), key(order[j])) > 0; j-- {
			order[j-1], order[j] = order[j], order[j-1]
		}
	}
	return order
}

// plainKeys computes the keys and markers of st as computeKeys did before
// the keys were completed only where they tie: every key whole, the count
// of the slots naming a thread in its key's last slot, written out here as
// the reference.
func plainKeys(s *Symmetry, st []int32) ([]int32, []bool) {
	s.numberFromFixedRoots(st)
	lay := &s.P.Layout
	n := s.Threads
	keys := make([]int32, n*s.KeyLen)
	marked := make([]bool, n)
	refKey := func(v int32) int32 {
		if v == 0 {
			return 0
		}
		if num := s.FixedNum[v]; num > 0 {
			return num
		}
		return keyMarker
	}
	named := keys[s.KeyLen-1:]
	tidKey := func(t int, v int32) int32 {
		switch {
		case v == 0:
			return 0
		case v == int32(t)+1:
			return keySelf
		}
		named[int(v-1)*s.KeyLen]++
		return keyMarker
	}
	for t := range n {
		key := keys[t*s.KeyLen:][:s.KeyLen]
		base := lay.ThreadBase(t)
		copy(key, st[base:base+lay.ThreadSize])
		pc := st[base+ir.TPC]
		for m := s.P.RefMask[pc]; m != 0; m &= m - 1 {
			i := ir.TLocals + bits.TrailingZeros64(m)
			key[i] = refKey(key[i])
			marked[t] = marked[t] || key[i] == keyMarker
		}
		if s.ThreadIDs && pc != 0 {
			method := s.P.Code[pc].Method
			for m := s.TidLocals[method]; m != 0; m &= m - 1 {
				i := ir.TLocals + bits.TrailingZeros64(m)
				key[i] = tidKey(t, key[i])
				marked[t] = marked[t] || key[i] == keyMarker
			}
			for m := s.SetLocals[method]; m != 0; m &= m - 1 {
				i := ir.TLocals + bits.TrailingZeros64(m)
				set, k := uint32(key[i]), int32(0)
				for b := set; b != 0; b &= b - 1 {
					u := bits.TrailingZeros32(b)
					if u == t {
						k++
						continue
					}
					k += 2
					named[u*s.KeyLen]++
				}
				key[i] = k
				marked[t] = marked[t] || key[i] > 1
			}
		}
		pos := int(lay.ThreadSize)
		for _, ta := range s.TidArrays {
			slot := func(a int32) int32 {
				v := st[a]
				switch s.Kinds[a] {
				case kindRef:
					v = refKey(v)
				case kindThreadID:
					v = tidKey(t, v)
				}
				marked[t] = marked[t] || v == keyMarker
				return v
			}
			row := ta.Off + int32(t)*ta.RowLen
			if !ta.Square {
				for k := range ta.RowLen {
					key[pos+int(k)] = slot(row + k)
				}
				pos += int(ta.RowLen)
				continue
			}
			w := key[pos:]
			w[0] = slot(row + int32(t))
			rs, cs := w[1:n], w[n:2*n-1]
			i := 0
			for u := range n {
				if u == t {
					continue
				}
				ra, ca := row+int32(u), ta.Off+int32(u)*ta.RowLen+int32(t)
				marked[t] = marked[t] || st[ra] != 0 || st[ca] != 0
				rs[i], cs[i] = slot(ra), slot(ca)
				i++
			}
			slices.Sort(rs)
			slices.Sort(cs)
			pos += 2*n - 1
		}
		for i, a := range s.TidScalars {
			if st[a] == int32(t)+1 {
				key[pos+i] = 1
			}
		}
	}
	if s.ThreadIDs {
		for t := range n {
			marked[t] = marked[t] || named[t*s.KeyLen] > 0
		}
	}
	return keys, marked
}
