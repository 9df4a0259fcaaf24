package explore

// pairIndex finds product pairs (state, subset) by value: an open-
// addressing table of 12-byte slots, the pair packed in 64 bits beside its
// id. Pairs are the bulk of an on-the-fly search's memory after the
// states themselves, so no Go map (about 3× the bytes per entry).
type pairIndex struct {
	keys []uint64 // state<<32 | uint32(subset)+1; 0 = empty
	ids  []int32
	n    int
}

func newPairIndex() pairIndex {
	return pairIndex{keys: make([]uint64, 1<<10), ids: make([]int32, 1<<10)}
}

func pairKey(state, subset int32) uint64 { return uint64(state)<<32 | uint64(uint32(subset)+1) }

// slot is where the lookup of key k starts (a multiplicative hash).
func (x *pairIndex) slot(k uint64) uint64 {
	return (k * 0x9e3779b97f4a7c15) >> 20 & uint64(len(x.keys)-1)
}

// find returns the id of a pair and whether it is present.
func (x *pairIndex) find(state, subset int32) (int32, bool) {
	k := pairKey(state, subset)
	mask := uint64(len(x.keys) - 1)
	for i := x.slot(k); ; i = (i + 1) & mask {
		switch x.keys[i] {
		case k:
			return x.ids[i], true
		case 0:
			return 0, false
		}
	}
}

// insert adds a pair that is absent, with its id.
func (x *pairIndex) insert(state, subset, id int32) {
	if (x.n+1)*4 > len(x.keys)*3 {
		x.grow()
	}
	x.put(pairKey(state, subset), id)
	x.n++
}

func (x *pairIndex) put(k uint64, id int32) {
	mask := uint64(len(x.keys) - 1)
	i := x.slot(k)
	for x.keys[i] != 0 {
		i = (i + 1) & mask
	}
	x.keys[i], x.ids[i] = k, id
}

func (x *pairIndex) grow() {
	keys, ids := x.keys, x.ids
	x.keys, x.ids = make([]uint64, 2*len(keys)), make([]int32, 2*len(keys))
	for i, k := range keys {
		if k != 0 {
			x.put(k, ids[i])
		}
	}
}
