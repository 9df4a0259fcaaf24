package semantics

import (
	"bytes"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// naiveEncode is the reference coding: one zigzag varint after another.
func naiveEncode(st []int32) []byte {
	var b []byte
	for _, v := range st {
		u := uint32(v<<1) ^ uint32(v>>31)
		for u >= 0x80 {
			b = append(b, byte(u)|0x80)
			u >>= 7
		}
		b = append(b, byte(u))
	}
	return b
}

// randomVector mixes runs of small values (the fast paths) with large,
// negative and extreme ones.
func randomVector(r *rand.Rand) []int32 {
	st := make([]int32, r.IntN(40))
	for i := range st {
		switch r.IntN(10) {
		case 0:
			st[i] = []int32{math.MinInt32, math.MaxInt32, ir.Empty, -1, 63, 64, 127, 128}[r.IntN(8)]
		case 1:
			st[i] = r.Int32() - 1<<30
		default:
			st[i] = r.Int32N(64)
		}
	}
	return st
}

// TestCodingRoundTrip checks encode against the naive coding and decode
// as its inverse, on seeded random vectors.
func TestCodingRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 10000 {
		st := randomVector(r)
		if i%2 == 1 {
			st = smallRunVector(r)
		}
		requireCoding(t, st)
	}
}

// requireCoding checks encode of st, appended to a byte, against the
// naive coding, and decode, appending to a value, as its inverse.
func requireCoding(t *testing.T, st []int32) {
	t.Helper()
	enc := Encode([]byte{7}, st)
	require.Equal(t, append([]byte{7}, naiveEncode(st)...), enc)
	require.Equal(t, append([]int32{-5}, st...), Decode([]int32{-5}, enc[1:]))
}

// smallRunVector is mostly long runs of values in [0, 64), with a rare
// value outside (-1, 64, Empty, …): the vectors of real states, which
// exercise the sixteen- and eight-wide paths of the assembly and their
// fallbacks at every position of a group.
func smallRunVector(r *rand.Rand) []int32 {
	st := make([]int32, r.IntN(100))
	rare := 1 + r.IntN(60)
	for i := range st {
		if r.IntN(rare) == 0 {
			st[i] = []int32{-1, 64, 65, 127, 128, 255, 256, ir.Empty, math.MinInt32, math.MaxInt32, -64}[r.IntN(11)]
		} else {
			st[i] = r.Int32N(64)
		}
	}
	return st
}

// TestSmallPrefixes checks packSmallPrefix and unpackSmallPrefix (the
// assembly on amd64) and their Go versions against the naive coding, on
// slices that start at every alignment and on destinations with stale
// bytes.
func TestSmallPrefixes(t *testing.T) {
	t.Run("built", func(t *testing.T) { testSmallPrefixes(t, packSmallPrefix, unpackSmallPrefix) })
	t.Run("go", func(t *testing.T) { testSmallPrefixes(t, packSmallPrefixGo, unpackSmallPrefixGo) })
}

func testSmallPrefixes(t *testing.T, pack func([]byte, []int32) int, unpack func([]int32, []byte) int) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		st := smallRunVector(r)
		skip := r.IntN(4)
		if skip > len(st) {
			skip = len(st)
		}
		st = st[skip:]
		want := 0
		for want < len(st) && st[want] >= 0 && st[want] < 64 {
			want++
		}
		dst := make([]byte, len(st)+3)
		for i := range dst {
			dst[i] = 0xee
		}
		got := pack(dst[1:], st)
		require.Equal(t, want, got, "%v", st)
		for i := range want {
			require.Equal(t, byte(2*st[i]), dst[1+i])
		}
		require.Equal(t, byte(0xee), dst[0])
		require.Equal(t, byte(0xee), dst[1+want], "wrote past the prefix")

		codes := naiveEncode(st)
		wantN := 0
		for wantN < len(codes) && codes[wantN]&0x81 == 0 {
			wantN++
		}
		out := make([]int32, len(codes)+2)
		for i := range out {
			out[i] = -7
		}
		gotN := unpack(out[1:], codes)
		require.Equal(t, wantN, gotN)
		for i := range wantN {
			require.Equal(t, int32(codes[i]>>1), out[1+i])
		}
		require.Equal(t, int32(-7), out[0])
		require.Equal(t, int32(-7), out[1+wantN], "wrote past the prefix")
	}
}

// FuzzCoding checks encode against the naive coding and decode as its
// inverse on any vector (read from the fuzzer's bytes, four per value).
func FuzzCoding(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	f.Add(make([]byte, 4*40))
	f.Fuzz(func(t *testing.T, raw []byte) {
		st := make([]int32, len(raw)/4)
		for i := range st {
			st[i] = int32(uint32(raw[4*i]) | uint32(raw[4*i+1])<<8 | uint32(raw[4*i+2])<<16 | uint32(raw[4*i+3])<<24)
			if raw[4*i+1] == 0 && raw[4*i+2] == 0 && raw[4*i+3] == 0 {
				st[i] &= 63 // mostly small values, as in states
			}
		}
		requireCoding(t, st)
	})
}

// TestStateSet checks the set against a map on seeded random vectors,
// through several table growths and arena chunks: ids are dense in
// insertion order, a vector is found again, and next reads the states
// back in id order.
func TestStateSet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := NewStateSet()
	ref := map[string]int32{}
	var order []string
	for range 60000 {
		st := randomVector(r)
		if len(st) > 6 {
			st = st[:6] // many repeats
		}
		enc := Encode(nil, st)
		id, isNew := s.Insert(enc, s.Hash(enc))
		want, seen := ref[string(enc)]
		if !seen {
			want = int32(len(ref))
			ref[string(enc)] = want
			order = append(order, string(enc))
		}
		require.Equal(t, !seen, isNew)
		require.Equal(t, want, id)
	}
	assert.Equal(t, len(ref), s.Len())
	for _, enc := range order {
		require.Equal(t, enc, string(s.Encoding(s.next())))
	}
}

// TestStateSetChunks fills more than one arena chunk and reads every
// state back, in order, across the chunk boundary, and finds each again.
func TestStateSetChunks(t *testing.T) {
	s := NewStateSet()
	st := make([]int32, 40)
	var encs [][]byte
	for i := int32(0); s.Nchunks < 2 || len(encs)%1000 != 0; i++ {
		for k := range st {
			st[k] = i*int32(k+1) + int32(k)
		}
		enc := Encode(nil, st)
		id, isNew := s.Insert(enc, s.Hash(enc))
		require.True(t, isNew)
		require.Equal(t, int32(len(encs)), id)
		encs = append(encs, enc)
	}
	for i, enc := range encs {
		require.Equal(t, enc, s.Encoding(s.next()))
		id, isNew := s.Insert(enc, s.Hash(enc))
		require.False(t, isNew)
		require.Equal(t, int32(i), id)
	}
}

// TestStateSetConcurrentFind looks states up from other goroutines while
// one goroutine inserts, through table growths and arena chunks: a state
// found has its id, and after the inserts every state is found (run with
// -race, this also checks the synchronisation).
func TestStateSetConcurrentFind(t *testing.T) {
	const n = 200_000
	encs := distinctEncodings(n, 24)
	s := NewStateSet()
	done := make(chan struct{})
	errs := make(chan string, 4)
	for g := range 2 {
		go func() {
			defer func() { errs <- "" }()
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for {
				select {
				case <-done:
					return
				default:
				}
				l := s.snapshot()
				for range 1000 {
					i := r.IntN(n)
					if id := l.find(encs[i], hashState(s.Seed, encs[i])); id != -1 && id != int32(i) {
						errs <- "wrong id"
						return
					}
				}
			}
		}()
	}
	for i, enc := range encs {
		id, isNew := s.Insert(enc, s.Hash(enc))
		require.True(t, isNew)
		require.Equal(t, int32(i), id)
	}
	close(done)
	for range 2 {
		assert.Empty(t, <-errs)
	}
	l := s.snapshot()
	for i, enc := range encs {
		require.Equal(t, int32(i), l.find(enc, s.Hash(enc)))
	}
	require.Equal(t, int32(-1), l.find(Encode(nil, []int32{-5, 7}), s.Hash(Encode(nil, []int32{-5, 7}))))
}

// TestStateSetBeyond4GiB checks records whose arena offset passes 4 GiB
// (the HP stack at 6 threads gets there): offsets are 64-bit arithmetic.
// The full chunks in front share one buffer, so the test needs 32 MiB.
func TestStateSetBeyond4GiB(t *testing.T) {
	s := NewStateSet()
	filler := new([chunkSize]byte)
	const full = 300 // 300 × 16 MiB = 4.7 GiB
	for k := range full {
		s.Chunks[k], s.Used[k] = filler, chunkSize
	}
	s.Nchunks = full
	a, b := []byte{1, 2, 3}, []byte{4, 5, 6, 7}
	ida, isNew := s.Insert(a, s.Hash(a))
	require.True(t, isNew)
	idb, isNew := s.Insert(b, s.Hash(b))
	require.True(t, isNew)
	again, isNew := s.Insert(a, s.Hash(a))
	assert.False(t, isNew, "the record past 4 GiB is found again")
	assert.Equal(t, ida, again)
	assert.Equal(t, idb, s.snapshot().find(b, s.Hash(b)))
	off := uint64(full) << chunkBits
	assert.Equal(t, off, RecordOffset(slotRef(off)))
}

// BenchmarkCoding measures encode and decode on state-like vectors (long
// runs of small values, now and then a large one), the path that the
// assembly in pack_amd64.s speeds up.
func BenchmarkCoding(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	vecs := make([][]int32, 256)
	for i := range vecs {
		vecs[i] = smallRunVector(r)
	}
	b.Run("encode", func(b *testing.B) {
		var buf []byte
		for i := 0; b.Loop(); i++ {
			buf = Encode(buf[:0], vecs[i%len(vecs)])
		}
	})
	b.Run("decode", func(b *testing.B) {
		encs := make([][]byte, len(vecs))
		for i, v := range vecs {
			encs[i] = Encode(nil, v)
		}
		var out []int32
		for i := 0; b.Loop(); i++ {
			out = Decode(out[:0], encs[i%len(encs)])
		}
	})
}

// TestStateSetConcurrentClaim claims overlapping sets of states from
// several goroutines at once, in batches as the expanders do, through
// table growths and arena chunks, while another goroutine finds: each
// state gets one record, claimed as new by exactly one goroutine, that
// every claim and find of it returns, and numbering the records makes
// them found with their ids (run with -race, this also checks the
// synchronisation).
func TestStateSetConcurrentClaim(t *testing.T) {
	const n, goroutines, batch = 100_000, 4, 300
	encs := distinctEncodings(n, 30)
	s := NewStateSet()
	refs := make([][]uint32, goroutines)
	added := make([]int, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			// Each goroutine claims every state once, in an order of its
			// own, so that every state is contended.
			r := rand.New(rand.NewPCG(uint64(g), 11))
			perm := r.Perm(n)
			refs[g] = make([]uint32, n)
			var a ArenaCursor
			for lo := 0; lo < n; lo += batch {
				part := perm[lo:min(lo+batch, n)]
				s.Reserve(len(part))
				k := 0
				for _, i := range part {
					_, ref, isNew := s.Claim(encs[i], s.Hash(encs[i]), &a)
					refs[g][i] = ref
					if isNew {
						k++
					}
				}
				s.Release(len(part), k)
				added[g] += k
			}
		})
	}
	wg.Go(func() {
		r := rand.New(rand.NewPCG(99, 1))
		for range 200 {
			l := s.snapshot()
			for range 500 {
				i := r.IntN(n)
				if id, ref := l.findRef(encs[i], s.Hash(encs[i])); id != -1 || (ref != 0 && !bytes.Equal(s.Encoding(RecordOffset(uint64(ref))), encs[i])) {
					t.Errorf("state %d: found id %d, ref %d before any numbering", i, id, ref)
					return
				}
			}
		}
	})
	wg.Wait()
	total := 0
	for _, k := range added {
		total += k
	}
	require.Equal(t, n, total, "each state is added once")
	require.Equal(t, int64(n), s.Claimed.Load())
	for i := range encs {
		for g := 1; g < goroutines; g++ {
			require.Equal(t, refs[0][i], refs[g][i], "state %d: one record", i)
		}
		require.Equal(t, encs[i], s.Encoding(RecordOffset(uint64(refs[0][i]))))
	}
	// Number the records in reverse order: ids come from setID, not from
	// the order of the claims.
	for i := range encs {
		s.SetID(refs[0][i], int32(n-1-i))
	}
	l := s.snapshot()
	for i, enc := range encs {
		id, ref := l.findRef(enc, s.Hash(enc))
		require.Equal(t, int32(n-1-i), id)
		require.Equal(t, refs[0][i], ref)
	}
}

// distinctEncodings returns the encodings of n different states of width
// variables each, made without a model, for the state set's tests.
func distinctEncodings(n, width int) [][]byte {
	encs := make([][]byte, n)
	st := make([]int32, width)
	for i := range encs {
		for k := range st {
			st[k] = int32(i)*int32(k+1) + int32(k)
		}
		encs[i] = Encode(nil, st)
	}
	return encs
}
