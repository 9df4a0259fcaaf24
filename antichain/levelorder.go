package antichain

import (
	"context"
	mbits "math/bits"
	"slices"

	"github.com/linbis/linbis/internal/limits"
)

// levelOrder appends to dst the pairs of a level of a search layered by
// steps, whose states are states (of its pairs in order), in the order
// the search takes them: by state, and the pairs of a state by id. Each
// is its state in the high 32 bits, its offset in the level in the low
// ones. It polls ctx while it sorts (sortPolled) and returns the cause of
// its end (limits.Err), with dst unsorted.
func levelOrder(ctx context.Context, dst []uint64, states []int32) ([]uint64, error) {
	for k, s := range states {
		dst = append(dst, uint64(uint32(s))<<32|uint64(k))
	}
	return dst, sortPolled(ctx, dst)
}

// sortPiece is how many keys sortPolled sorts between two polls: about
// 5 ms of slices.Sort.
const sortPiece = 1 << 16

// sortPolled sorts keys in increasing order, as slices.Sort does, and
// polls ctx (limits.Err) every sortPiece keys or so, returning the cause
// of its end. A level's sort is the one step of a search layered by steps
// that grows with the level without visiting its pairs one by one (0.9 s
// of CPU time for 10 M pairs), so one slices.Sort would keep a limit
// waiting. Above sortPiece keys, the keys are split in place by their
// leading differing bits, 256 ranges a pass (an American flag sort: each
// key is swapped once into its range), and each range is sorted the same
// way; a range of at most sortPiece keys is sorted by slices.Sort. The
// ranges hold increasing intervals of keys, so the whole is sorted; the
// split costs a pass or two over the keys and needs 4 KiB, no copy of
// them.
func sortPolled(ctx context.Context, keys []uint64) error {
	sorted := 0 // keys sorted since the last poll
	var sortRange func(keys []uint64) error
	sortRange = func(keys []uint64) error {
		if len(keys) <= sortPiece {
			slices.Sort(keys)
			if sorted += len(keys); sorted >= sortPiece {
				sorted = 0
				return limits.Err(ctx)
			}
			return nil
		}
		lowest, highest := slices.Min(keys), slices.Max(keys)
		width := mbits.Len64(lowest ^ highest) // the bits below it differ
		if width == 0 {
			return nil // all equal
		}
		// The keys agree above width: split on the 8 bits below it, so
		// that each range agrees above shift and the recursion, which
		// narrows width by 8 each time, ends.
		shift := max(width-8, 0)
		digit := func(k uint64) int { return int(k >> shift & 0xff) }
		var count [256]int
		for _, k := range keys {
			count[digit(k)]++
		}
		var next, end [256]int // where the next key of each range goes, and its end
		sum := 0
		for d, c := range count {
			next[d] = sum
			sum += c
			end[d] = sum
		}
		for d := range next {
			for next[d] < end[d] {
				k := keys[next[d]]
				if e := digit(k); e != d {
					// Into its range; the key swapped back is placed next.
					keys[next[d]], keys[next[e]] = keys[next[e]], k
					next[e]++
					continue
				}
				next[d]++
			}
		}
		start := 0
		for _, c := range count {
			if err := sortRange(keys[start : start+c]); err != nil {
				return err
			}
			start += c
		}
		return nil
	}
	return sortRange(keys)
}
