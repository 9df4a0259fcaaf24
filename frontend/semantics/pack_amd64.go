package semantics

// The state coding's fast paths in SSE2 assembly (amd64's baseline), see
// pack.go: encoding was the largest single cost of an exploration with the
// best Go loop found (benchmarks/RESULTS.md).

//go:noescape
func packSmall(dst *byte, src *int32, n int) int

//go:noescape
func unpackSmall(dst *int32, src *byte, n int) int

// packSmallPrefix is packSmallPrefixGo, in assembly. (Written to stay
// within the inlining budget: encodeTo calls it for every state.)
func packSmallPrefix(dst []byte, src []int32) int {
	if len(src) == 0 {
		return 0
	}
	return packSmall(&dst[:len(src)][0], &src[0], len(src))
}

// unpackSmallPrefix is unpackSmallPrefixGo, in assembly.
func unpackSmallPrefix(dst []int32, src []byte) int {
	if len(src) == 0 {
		return 0
	}
	_ = dst[len(src)-1]
	return unpackSmall(&dst[0], &src[0], len(src))
}
