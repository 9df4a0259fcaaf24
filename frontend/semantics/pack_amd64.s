#include "textflag.h"

// PACK16_CHECK loads the sixteen int32 at SI+4*i into X0-X3 and sets the
// flags for JNE: not equal unless they all lie in [0, 64) (their OR has no
// bit in X7's mask; X6 is zero).
#define PACK16_CHECK(i) \
	MOVOU	(SI)(i*4), X0; \
	MOVOU	16(SI)(i*4), X1; \
	MOVOU	32(SI)(i*4), X2; \
	MOVOU	48(SI)(i*4), X3; \
	MOVO	X0, X4; \
	POR	X1, X4; \
	POR	X2, X4; \
	POR	X3, X4; \
	PAND	X7, X4; \
	PCMPEQL	X6, X4; \
	PMOVMSKB	X4, BX; \
	CMPL	BX, $0xffff

// PACK16_STORE narrows the values in X0-X3 to bytes, doubles them and
// stores the sixteen bytes at DI+i.
#define PACK16_STORE(i) \
	PACKSSLW	X1, X0; \
	PACKSSLW	X3, X2; \
	PACKUSWB	X2, X0; \
	PADDB	X0, X0; \
	MOVOU	X0, (DI)(i*1)

// UNPACK16_CHECK loads the sixteen bytes at SI+i into X0 and sets the
// flags for JNE: not equal unless they are all even and below 0x80.
#define UNPACK16_CHECK(i) \
	MOVOU	(SI)(i*1), X0; \
	MOVO	X0, X1; \
	PAND	X7, X1; \
	PCMPEQB	X6, X1; \
	PMOVMSKB	X1, BX; \
	CMPL	BX, $0xffff

// UNPACK16_STORE halves the bytes in X0, widens them to int32 and stores
// the sixteen at DI+4*i.
#define UNPACK16_STORE(i) \
	PSRLW	$1, X0; \
	MOVO	X0, X1; \
	PUNPCKLBW	X6, X0; \
	PUNPCKHBW	X6, X1; \
	MOVO	X0, X2; \
	PUNPCKLWL	X6, X0; \
	PUNPCKHWL	X6, X2; \
	MOVO	X1, X3; \
	PUNPCKLWL	X6, X1; \
	PUNPCKHWL	X6, X3; \
	MOVOU	X0, (DI)(i*4); \
	MOVOU	X2, 16(DI)(i*4); \
	MOVOU	X1, 32(DI)(i*4); \
	MOVOU	X3, 48(DI)(i*4)

// func packSmall(dst *byte, src *int32, n int) int
//
// Packs the longest prefix of src[:n] whose values lie in [0, 64), each as
// the byte 2v (its zigzag varint), sixteen or eight at a time: the values
// of a group are checked together (their OR has no bit outside the low
// six), narrowed to bytes with the saturating packs (which keep them, as
// they are small), and doubled. A group holding a larger value is packed
// one value at a time, up to that value.
TEXT ·packSmall(SB), NOSPLIT|NOFRAME, $0-32
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	XORQ	AX, AX
	MOVOU	packMask<>(SB), X7
	PXOR	X6, X6

pack16:
	LEAQ	16(AX), DX
	CMPQ	DX, CX
	JGT	packTail
	PACK16_CHECK(AX)
	JNE	pack1
	PACK16_STORE(AX)
	MOVQ	DX, AX
	JMP	pack16

	// Fewer than sixteen values left: if there are sixteen in all, the
	// last sixteen are checked and packed together, again rewriting some
	// packed already (with the same bytes), rather than one at a time.
packTail:
	CMPQ	AX, CX
	JGE	packed
	CMPQ	CX, $16
	JLT	pack8
	LEAQ	-16(CX), DX
	PACK16_CHECK(DX)
	JNE	pack1
	PACK16_STORE(DX)
	MOVQ	CX, AX
	JMP	packed

pack8:
	LEAQ	8(AX), DX
	CMPQ	DX, CX
	JGT	pack1
	MOVOU	(SI)(AX*4), X0
	MOVOU	16(SI)(AX*4), X1
	MOVO	X0, X4
	POR	X1, X4
	PAND	X7, X4
	PCMPEQL	X6, X4
	PMOVMSKB	X4, BX
	CMPL	BX, $0xffff
	JNE	pack1
	PACKSSLW	X1, X0
	PACKUSWB	X0, X0
	PADDB	X0, X0
	MOVQ	X0, (DI)(AX*1)
	MOVQ	DX, AX

pack1:
	CMPQ	AX, CX
	JGE	packed
	MOVL	(SI)(AX*4), BX
	CMPL	BX, $63
	JHI	packed
	SHLL	$1, BX
	MOVB	BX, (DI)(AX*1)
	INCQ	AX
	JMP	pack1

packed:
	MOVQ	AX, ret+24(FP)
	RET

// func unpackSmall(dst *int32, src *byte, n int) int
//
// Unpacks the longest prefix of src[:n] whose bytes are even and below
// 0x80 (one-byte zigzag varints of values in [0, 64)), each as b/2, sixteen
// or eight at a time: the bytes are halved by a shift of the 16-bit words
// (the high byte is even, so no bit crosses into the low one) and widened
// by interleaving with zeros.
TEXT ·unpackSmall(SB), NOSPLIT|NOFRAME, $0-32
	MOVQ	dst+0(FP), DI
	MOVQ	src+8(FP), SI
	MOVQ	n+16(FP), CX
	XORQ	AX, AX
	MOVOU	unpackMask<>(SB), X7
	PXOR	X6, X6

unpack16:
	LEAQ	16(AX), DX
	CMPQ	DX, CX
	JGT	unpackTail
	UNPACK16_CHECK(AX)
	JNE	unpack1
	UNPACK16_STORE(AX)
	MOVQ	DX, AX
	JMP	unpack16

	// The last sixteen together, as in packSmall.
unpackTail:
	CMPQ	AX, CX
	JGE	unpacked
	CMPQ	CX, $16
	JLT	unpack8
	LEAQ	-16(CX), DX
	UNPACK16_CHECK(DX)
	JNE	unpack1
	UNPACK16_STORE(DX)
	MOVQ	CX, AX
	JMP	unpacked

unpack8:
	LEAQ	8(AX), DX
	CMPQ	DX, CX
	JGT	unpack1
	MOVQ	(SI)(AX*1), X0
	MOVO	X0, X1
	PAND	X7, X1
	PCMPEQB	X6, X1
	PMOVMSKB	X1, BX
	CMPL	BX, $0xffff
	JNE	unpack1
	PSRLW	$1, X0
	PUNPCKLBW	X6, X0
	MOVO	X0, X2
	PUNPCKLWL	X6, X0
	PUNPCKHWL	X6, X2
	MOVOU	X0, (DI)(AX*4)
	MOVOU	X2, 16(DI)(AX*4)
	MOVQ	DX, AX

unpack1:
	CMPQ	AX, CX
	JGE	unpacked
	MOVBLZX	(SI)(AX*1), BX
	TESTL	$0x81, BX
	JNE	unpacked
	SHRL	$1, BX
	MOVL	BX, (DI)(AX*4)
	INCQ	AX
	JMP	unpack1

unpacked:
	MOVQ	AX, ret+24(FP)
	RET

DATA	packMask<>+0(SB)/8, $0xffffffc0ffffffc0
DATA	packMask<>+8(SB)/8, $0xffffffc0ffffffc0
GLOBL	packMask<>(SB), RODATA|NOPTR, $16

DATA	unpackMask<>+0(SB)/8, $0x8181818181818181
DATA	unpackMask<>+8(SB)/8, $0x8181818181818181
GLOBL	unpackMask<>(SB), RODATA|NOPTR, $16
