package hugepage

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// madvCollapse is MADV_COLLAPSE (Linux 6.1), which package syscall lacks.
const madvCollapse = 25

// disabled reports whether the administrator turned transparent huge
// pages off ("[never]"): MADV_COLLAPSE would collapse pages even then.
var disabled = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err != nil || strings.Contains(string(b), "[never]")
})

// advise asks for huge pages on the whole huge pages in [p, p+size):
// MADV_HUGEPAGE for the pages not yet touched, which then fault in as huge
// pages, and MADV_COLLAPSE for those that are, which copies them into
// huge pages at once (memory that the Go heap reuses, which make has
// zeroed). Both are best effort and their failures are ignored: a kernel
// without transparent huge pages rejects them, an older kernel has no
// MADV_COLLAPSE, and the collapse rejects untouched memory or finds no
// free huge page; the slice then keeps small pages. It reports whether the
// first advice was taken.
func advise(p unsafe.Pointer, size uintptr) bool {
	lo := (uintptr(p) + hugePageSize - 1) &^ (hugePageSize - 1)
	hi := (uintptr(p) + size) &^ (hugePageSize - 1)
	if hi <= lo || disabled() {
		return false
	}
	// lo lies inside the slice at p, so the pointer stays valid.
	b := unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo)
	if syscall.Madvise(b, syscall.MADV_HUGEPAGE) != nil {
		return false
	}
	syscall.Madvise(b, madvCollapse)
	return true
}
