// Package hugepage allocates the big flat arrays that the checkers read in
// random order so that the OS may back them with huge pages.
//
// Why: bisimulation minimisation on a model checker's LTS reads its
// per-state arrays (blocks, marks, where the arcs into a state lie, the
// arcs themselves) at states that no cache line or 4 KiB page holds
// together: each such read is a last-level cache miss and, on arrays of
// hundreds of megabytes, a TLB miss as well, whose page walk adds to the
// miss. Linux backs anonymous memory with 2 MiB pages when asked
// (transparent huge pages, which many systems enable only for memory
// advised with MADV_HUGEPAGE); the Go runtime does not ask for the heap, so
// Make asks for the slices it returns. The contents are what make gives
// either way; only the page size may differ.
package hugepage

import "unsafe"

// minBytes is the smallest slice that Make advises: the advice applies to
// whole huge pages inside the slice, and each advised range is a mapping
// of its own in the kernel, so small slices are left alone.
const minBytes = 4 << 20

// hugePageSize is the size of a transparent huge page on the platforms
// the checkers run on (x86-64, arm64 with 4 KiB base pages).
const hugePageSize = 2 << 20

// Make returns make([]T, n), asking the OS to back the huge pages that lie
// wholly inside it with huge pages when it is at least minBytes long (see
// advise: pages not yet touched fault in as huge pages, touched ones are
// collapsed into huge pages). Any T is safe: the advice moves no memory
// and changes no contents.
func Make[T any](n int) []T {
	s := make([]T, n)
	var zero T
	if size := uintptr(n) * unsafe.Sizeof(zero); size >= minBytes {
		advise(unsafe.Pointer(unsafe.SliceData(s)), size)
	}
	return s
}
