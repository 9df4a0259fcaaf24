// Package mgc builds the most general client of a CAS counter, the
// structured LTS family of linbis's performance work (the bundled example
// of `linbis info`, the MGC rows of benchmarks/RESULTS.md, bisim's and
// progress's benchmarks; written as .aut files by benchmarks/mgcaut).
package mgc

import (
	"fmt"

	"github.com/linbis/linbis/lts"
)

// Largest values of CASCounter's parameters: a state packs the counter in
// 8 bits and each thread's pc, operations done and value seen in 4 bits
// each, into 64 bits.
const (
	MaxThreads = 4
	MaxSteps   = 14
	MaxMod     = 16
	MaxOps     = 15
)

// CASCounter returns the LTS of threads threads (1 ≤ threads ≤ MaxThreads)
// each calling inc up to ops times: inc reads a shared counter (modulo
// mod), takes steps-1 more internal steps and then CASes, the counter
// moving if it still holds what was read, the read retried if it does not;
// the thread then returns. With spin, thread 1 may also stay forever at its
// read when the counter is mod-1 (a τ-self-loop: not lock-free). States are
// numbered in breadth-first order and each state's moves listed thread by
// thread, with thread attribution (lts.Meta), as an explorer would.
func CASCounter(threads, steps, mod, ops int, spin bool) *lts.LTS {
	if threads < 1 || threads > MaxThreads || steps < 1 || steps > MaxSteps || mod < 1 || mod > MaxMod || ops < 0 || ops > MaxOps {
		panic(fmt.Sprintf("mgc.CASCounter(%d, %d, %d, %d): out of range", threads, steps, mod, ops))
	}
	type local struct{ pc, done, seen int }
	decode := func(key uint64) (c int, th []local) {
		c = int(key & 0xff)
		for i := range threads {
			x := key >> (8 + 12*i)
			th = append(th, local{int(x & 0xf), int(x >> 4 & 0xf), int(x >> 8 & 0xf)})
		}
		return c, th
	}
	encode := func(c int, th []local) uint64 {
		key := uint64(c)
		for i, t := range th {
			key |= uint64(t.pc|t.done<<4|t.seen<<8) << (8 + 12*i)
		}
		return key
	}
	b := lts.NewBuilder()
	ids := map[uint64]int32{}
	var queue []uint64
	id := func(key uint64) int32 {
		if v, ok := ids[key]; ok {
			return v
		}
		v := b.AddState()
		ids[key] = v
		queue = append(queue, key)
		return v
	}
	calls, rets := make([]int32, threads), make([]int32, threads)
	for i := range threads {
		calls[i] = b.Label(fmt.Sprintf("call(%d,inc)", i+1))
		rets[i] = b.Label(fmt.Sprintf("ret(%d,inc)", i+1))
	}
	id(0)
	for q := 0; q < len(queue); q++ {
		src := int32(q)
		c, th := decode(queue[q])
		for i, t := range th {
			move := func(label int32, c2 int, t2 local) {
				next := append([]local(nil), th...)
				next[i] = t2
				b.AddTransitionMeta(src, label, id(encode(c2, next)), int32(i+1), -1)
			}
			switch {
			case t.pc == 0 && t.done < ops:
				move(calls[i], c, local{1, t.done, c})
			case t.pc >= 1 && t.pc <= steps:
				switch {
				case t.pc < steps:
					move(lts.Tau, c, local{t.pc + 1, t.done, t.seen})
				case c == t.seen:
					move(lts.Tau, (c+1)%mod, local{steps + 1, t.done, 0})
				default:
					move(lts.Tau, c, local{1, t.done, c})
				}
				if spin && t.pc == 1 && i == 0 && c == mod-1 {
					move(lts.Tau, c, t)
				}
			case t.pc == steps+1:
				move(rets[i], c, local{0, t.done + 1, 0})
			}
		}
	}
	return b.Build()
}
