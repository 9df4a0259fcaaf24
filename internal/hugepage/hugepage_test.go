package hugepage

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestMakeIsMake checks that Make gives what make gives, below and above
// the size it advises from, and that the slice is writable throughout.
func TestMakeIsMake(t *testing.T) {
	type rec struct{ a, b int32 }
	for _, n := range []int{0, 1, 1000, minBytes/8 - 1, minBytes / 8, minBytes/8 + 12345} {
		s := Make[rec](n)
		require.Len(t, s, n)
		for i := range s {
			if s[i] != (rec{}) {
				t.Fatalf("n %d: index %d is %v, not zero", n, i, s[i])
			}
			s[i] = rec{int32(i), -1}
		}
		for i := range s {
			if s[i] != (rec{int32(i), -1}) {
				t.Fatalf("n %d: index %d is %v after the write", n, i, s[i])
			}
		}
	}
}

// TestAdviseTakesHeapMemory checks that a range holding no whole huge
// page is left alone, and that where the kernel has transparent huge
// pages switched on it takes the advice on a slice of the Go heap.
func TestAdviseTakesHeapMemory(t *testing.T) {
	s := make([]byte, 3*minBytes)
	require.False(t, advise(unsafe.Pointer(&s[1]), hugePageSize-1), "no whole huge page")
	if runtime.GOOS != "linux" {
		return
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || string(b) == "" {
		t.Skip("no transparent huge pages in this kernel")
	}
	on := !strings.Contains(string(b), "[never]")
	require.Equal(t, on, advise(unsafe.Pointer(&s[1]), uintptr(len(s)-1)), "enabled: %s", b)
}
