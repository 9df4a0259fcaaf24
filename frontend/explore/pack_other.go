//go:build !amd64

package explore

// packSmallPrefix is packSmallPrefixGo (amd64 has an assembly version).
func packSmallPrefix(dst []byte, src []int32) int { return packSmallPrefixGo(dst, src) }

// unpackSmallPrefix is unpackSmallPrefixGo (amd64 has an assembly version).
func unpackSmallPrefix(dst []int32, src []byte) int { return unpackSmallPrefixGo(dst, src) }
