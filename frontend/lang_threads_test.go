package frontend

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGoldenLoopOverThreads pins the LTS of a loop over threads, derived by
// hand. Thread 1 writes X[j] = 1 for each thread j, in any order; thread 2
// skips the loop (if tid == 1: no symmetry needed here), so its call and
// its ret are its only steps (B0 → B1 → B2). Thread 1: A0 -call-> A1; from
// A1 one step picks j = 1 or j = 2 (a nondeterministic choice) and writes
// X[j]: two τ, to A2a (X = [1 0]) and A2b (X = [0 1]); the next step picks
// the other thread and writes: both reach A3 (X = [1 1], the visited set
// {1, 2}; j is dead, reset), a diamond; then the loop ends and the return
// is the ret step (A3 -ret-> A4). The product has 6 × 3 = 18 states and
// 6 × 3 + 2 × 6 = 30 transitions: below, 1 → 3, 4 → 7 is the diamond when
// thread 2 is idle, 5 → 8, 9 → 12 when it has called, 10 → 13, 14 → 16
// when it is done.
func TestGoldenLoopOverThreads(t *testing.T) {
	src := `object O {
  shared X [thread] int = 0
  method m() {
    if tid == 1 { for j in threads { X[j] = 1 } }
  }
}
spec auto`
	want := `des (0, 30, 18)
(0,"call(1,m)",1)
(0,"call(2,m)",2)
(1,"tau",3)
(1,"tau",4)
(1,"call(2,m)",5)
(2,"call(1,m)",5)
(2,"ret(2,m)",6)
(3,"tau",7)
(3,"call(2,m)",8)
(4,"tau",7)
(4,"call(2,m)",9)
(5,"tau",8)
(5,"tau",9)
(5,"ret(2,m)",10)
(6,"call(1,m)",10)
(7,"ret(1,m)",11)
(7,"call(2,m)",12)
(8,"tau",12)
(8,"ret(2,m)",13)
(9,"tau",12)
(9,"ret(2,m)",14)
(10,"tau",13)
(10,"tau",14)
(11,"call(2,m)",15)
(12,"ret(1,m)",15)
(12,"ret(2,m)",16)
(13,"tau",16)
(14,"tau",16)
(15,"ret(2,m)",17)
(16,"ret(1,m)",17)
`
	assert.Equal(t, want, autOf(t, src, Bounds{Threads: 2, Ops: 1, Values: []int{1}}))
}
