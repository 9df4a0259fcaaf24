package semantics

// The fast paths of the state coding (encode, decode): most values of a
// state vector are small, and are coded many at a time by
// packSmallPrefix and unpackSmallPrefix. On amd64 these are SSE2
// assembly (pack_amd64.s), sixteen values at a time; elsewhere they are
// the loops below, which the tests also check on amd64.

// packSmallPrefixGo writes the longest prefix of src whose values lie in
// [0, 64) to dst, each as the byte 2v (its zigzag varint), and returns its
// length. dst must be at least as long as src.
func packSmallPrefixGo(dst []byte, src []int32) int {
	for i, v := range src {
		if uint32(v) >= 64 {
			return i
		}
		dst[i] = byte(v << 1)
	}
	return len(src)
}

// unpackSmallPrefixGo decodes the longest prefix of src whose bytes are
// even and below 0x80, each b as the value b/2, into dst, and returns its
// length. dst must be at least as long as src.
func unpackSmallPrefixGo(dst []int32, src []byte) int {
	for i, c := range src {
		if c&0x81 != 0 {
			return i
		}
		dst[i] = int32(c >> 1)
	}
	return len(src)
}
