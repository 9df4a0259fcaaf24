package history

import (
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
)

// stepCache interns spec states and remembers transitions, so that the
// search calls Spec.Step once per (state, operation) pair and compares
// states as int32 ids.
type stepCache struct {
	spec   model.Spec
	ids    map[string]int32
	states []string
	keys   []uint64 // open addressing: state<<32 | op+1; 0 is empty
	vals   []int32  // the next state, or -1 when the step is not allowed
	count  int
	acct   *account // charged for the states and the table
}

// maxStepSlots bounds the table: a full one is emptied, not grown.
var maxStepSlots = 1 << 16

func newStepCache(spec model.Spec, acct *account) *stepCache {
	c := &stepCache{}
	c.reset(spec, acct)
	return c
}

// reset empties the cache for a new search charged to acct, keeping its
// table (charged to acct) and the room of its map.
func (c *stepCache) reset(spec model.Spec, acct *account) {
	if c.keys == nil {
		c.ids, c.keys, c.vals = map[string]int32{}, make([]uint64, 1024), make([]int32, 1024)
	} else {
		clear(c.ids)
		clear(c.keys)
		clear(c.states) // let the old states go
		c.states = c.states[:0]
	}
	c.spec, c.count, c.acct = spec, 0, acct
	acct.charge(int64(len(c.keys)) * 12)
}

// stateCost estimates the bytes one interned state holds: the string, its
// map entry and its slice slot.
func stateCost(s string) int64 { return int64(len(s)) + 64 }

func (c *stepCache) intern(s string) int32 {
	if id, ok := c.ids[s]; ok {
		return id
	}
	id := int32(len(c.states))
	c.ids[s] = id
	c.states = append(c.states, s)
	c.acct.charge(stateCost(s))
	return id
}

// step returns the state after op i from state, or -1 if not allowed.
func (c *stepCache) step(state int32, i int, op *record.Op) int32 {
	key := uint64(state)<<32 | uint64(i+1)
	mask := uint64(len(c.keys) - 1)
	j := mix(key) & mask
	for ; c.keys[j] != 0; j = (j + 1) & mask {
		if c.keys[j] == key {
			return c.vals[j]
		}
	}
	ns := int32(-1)
	if ok, next := c.spec.Step(c.states[state], op); ok {
		ns = c.intern(next)
	}
	if c.acct.full && 4*c.count > 3*len(c.keys) {
		return ns // the search stops at its next poll: keep the table from filling
	}
	c.keys[j], c.vals[j] = key, ns
	c.count++
	if 2*c.count > len(c.keys) && !c.acct.full {
		// The doubled table, while the old one is still held, must fit
		// the budget; else the budget is spent (forgetting transitions
		// instead made the search crawl on to the same end).
		switch {
		case len(c.keys) >= maxStepSlots:
			// Past this size the table costs more than it saves: the
			// transitions the search needs again are mostly recent.
			clear(c.keys)
			c.count = 0
		case c.acct.afford(int64(len(c.keys)) * 24):
			c.grow()
		default:
			c.acct.full = true
		}
	}
	return ns
}

// grow doubles the table.
func (c *stepCache) grow() {
	oldK, oldV := c.keys, c.vals
	c.keys, c.vals = make([]uint64, 2*len(oldK)), make([]int32, 2*len(oldK))
	c.acct.charge(int64(len(oldK)) * 12) // twice the old table held, the old one garbage
	mask := uint64(len(c.keys) - 1)
	for t, k := range oldK {
		if k != 0 {
			j := mix(k) & mask
			for c.keys[j] != 0 {
				j = (j + 1) & mask
			}
			c.keys[j], c.vals[j] = k, oldV[t]
		}
	}
}

// mix finalises a hash for table indexing (the MurmurHash3 finaliser).
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}
