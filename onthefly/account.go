package onthefly

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// accountEnv names the environment variable that makes Check print, to
// standard error at the end of the pair search, the bytes of each of its
// structures (account): the figures of issue 38's bytes a pair, read by
// their sizes rather than by the process's peak.
const accountEnv = "LINBIS_FLY_BYTES"

// heapProfileEnv names the environment variable that, beside accountEnv,
// makes Check collect the garbage at the end of each pair search, print
// the live heap, and write a heap profile (runtime/pprof) to the file it
// names, overwritten at each rung of the ladder: what the heap holds
// beyond the structures account counts (`go tool pprof -sample_index
// inuse_space BINARY FILE`; GODEBUG=memprofilerate=65536 samples finer).
const heapProfileEnv = "LINBIS_FLY_HEAP"

// byteCount is one structure's bytes, as allocated.
type byteCount struct {
	name  string
	bytes int64
}

// account returns the bytes of the search's structures, as allocated
// (the blocks, the tables' slots), not as used.
func (f *flySearch) account() []byteCount {
	chunks := func(blocks, elem int) int64 { return int64(blocks) * chunkLen * int64(elem) }
	s := f.states
	var parts int64
	for i := range s.kinds {
		c := &s.kinds[i]
		parts += int64(cap(c.at))*4 + int64(cap(c.len))*2 + int64(cap(c.hash))*8 + int64(len(c.table))*8
	}
	parts += chunks(len(s.partVals.blocks), 4)
	var cache int64
	for _, c := range f.cache {
		cache += int64(len(c.slots))*24 + int64(len(c.ring))
	}
	tau := int64(f.tau.tos.r.bytes()) + chunks(len(f.tau.lens.blocks), 1) + chunks(len(f.tau.starts.blocks), 4) + int64(len(f.tau.long))*16
	return []byteCount{
		{"states' table", int64(s.table.n) * 4},
		{"tuples of part ids", int64(s.roots.bytes())},
		{"parts", parts},
		{"chains' heads", int64(f.headPair.bytes())},
		{"pairs' subsets", int64(f.subset.r.bytes())},
		{"next pairs", chunks(len(f.nextPair.words.blocks), 16) + chunks(len(f.nextPair.vals.blocks), 4)},
		{"successor cache", cache},
		{"levels, ample bits", f.search.LevelBytes()},
		{"since-tables", int64(len(f.since.fresh))*8 + chunks(len(f.since.touched.words.blocks), 8) + int64(cap(f.since.touchedList))*4},
		{"τ-lists", tau},
	}
}

// printAccount prints account's figures to w, per pair and per state,
// with the heap's.
func (f *flySearch) printAccount(w io.Writer) {
	pairs, states := float64(f.subset.Len()), float64(f.states.len())
	var sum, tau int64
	for _, c := range f.account() {
		fmt.Fprintf(w, "bytes: %-20s %9.1f MB %6.2f B/pair %6.2f B/state\n", c.name, float64(c.bytes)/1e6, float64(c.bytes)/pairs, float64(c.bytes)/states)
		sum += c.bytes
		if c.name == "τ-lists" {
			tau = c.bytes
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "bytes: %d successors computed, %d recognised by the successor cache, %d τ-edges kept\n", f.res.Stats.Transitions, f.res.Stats.Recognised, f.tau.entries())
	fmt.Fprintf(w, "bytes: %.0f pairs, %.0f states; structures %.1f MB (%.2f B/pair), without the τ-lists %.1f MB (%.2f B/pair); heap in use %.1f MB, from the OS %.1f MB\n",
		pairs, states, float64(sum)/1e6, float64(sum)/pairs, float64(sum-tau)/1e6, float64(sum-tau)/pairs, float64(ms.HeapInuse)/1e6, float64(ms.Sys)/1e6)
}

// maybeAccount prints account's figures to standard error when the
// environment asks for them (accountEnv).
func (f *flySearch) maybeAccount() {
	if os.Getenv(accountEnv) == "" {
		return
	}
	f.printAccount(os.Stderr)
	if path := os.Getenv(heapProfileEnv); path != "" {
		if err := writeHeapProfile(os.Stderr, path); err != nil {
			fmt.Fprintf(os.Stderr, "bytes: no heap profile: %v\n", err)
		}
	}
}

// writeHeapProfile collects the garbage, prints the live heap to w and
// writes the heap profile to the file at path.
func writeHeapProfile(w io.Writer, path string) error {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runtime.GC()
	runtime.ReadMemStats(&after)
	fmt.Fprintf(w, "bytes: heap live %.1f MB (%.1f MB of garbage collected); heap profile in %s\n",
		float64(after.HeapAlloc)/1e6, float64(before.HeapAlloc-after.HeapAlloc)/1e6, path)
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
