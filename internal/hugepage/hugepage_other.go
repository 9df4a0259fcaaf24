//go:build !linux

package hugepage

import "unsafe"

// advise does nothing where huge pages are not asked for by madvise.
func advise(unsafe.Pointer, uintptr) bool { return false }
