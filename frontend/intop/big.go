package intop

import (
	"math"
	"sync"
)

// The values of the 64-bit kinds beyond what a slot holds as itself.
// A slot holds such a value as a code in [codeBase, DirectMin), given the
// first time a run makes the value and kept for the process's life, so
// that each value has one code (equal values, equal slots: the states a
// run reaches are told apart as the Go program's are). A code is the
// value's hash, probed linearly past the codes of other values: which
// code a value gets does not depend on the order in which the runs
// (of any number of workers) make the values, unless two collide.

const (
	codeBase = math.MinInt32
	numCodes = 1 << 28
	// DirectMin is the least 64-bit value a slot holds as itself.
	DirectMin = codeBase + numCodes
)

// bigValues is the table of codes: the value of each code, and the code
// of each value.
var bigValues struct {
	sync.RWMutex
	value map[int32]int64
	code  map[int64]int32
}

// decodeWide returns the 64 bits of a slot value of a 64-bit kind.
func decodeWide(x int32) uint64 {
	if x >= DirectMin {
		return uint64(int64(x))
	}
	bigValues.RLock()
	v, ok := bigValues.value[x]
	bigValues.RUnlock()
	if !ok {
		return uint64(int64(x)) // no value has this code: only a front end's mistake writes one
	}
	return uint64(v)
}

// encodeWide returns the slot value of the 64-bit value v: v itself
// within [DirectMin, 2^31), else its code.
func encodeWide(v int64) (int32, Fault) {
	if v >= DirectMin && v <= math.MaxInt32 {
		return int32(v), OK
	}
	bigValues.RLock()
	c, ok := bigValues.code[v]
	bigValues.RUnlock()
	if ok {
		return c, OK
	}
	bigValues.Lock()
	defer bigValues.Unlock()
	if c, ok := bigValues.code[v]; ok {
		return c, OK
	}
	if len(bigValues.code) == numCodes {
		return 0, Overflow
	}
	if bigValues.code == nil {
		bigValues.code, bigValues.value = map[int64]int32{}, map[int32]int64{}
	}
	h := uint64(v) * 0x9e3779b97f4a7c15 // Fibonacci hashing: the top 28 bits
	i := int32(h >> (64 - 28))
	for {
		c := codeBase + i
		if _, taken := bigValues.value[c]; !taken {
			bigValues.value[c], bigValues.code[v] = v, c
			return c, OK
		}
		i = (i + 1) & (numCodes - 1)
	}
}
