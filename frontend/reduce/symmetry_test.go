package reduce

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/explore"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
	"github.com/linbis/linbis/frontend/syntax"
	"github.com/linbis/linbis/lts"
)

// hpTreiber is Treiber's stack with a hazard pointer per thread (HP[tid],
// set before the pop's second read of Top and cleared after) and a count
// of each thread's pushes (a tid-indexed array of data): a model whose
// symmetry moves tid-indexed arrays of both kinds.
const hpTreiber = `object HPTreiber {
  heap Node { value int; next ref Node }
  shared Top ref Node = null
  shared HP [1..nthreads] ref Node = null
  shared Pushes [1..nthreads] int = 0

  method push(v int) {
    x := new Node{value: v}
    done := false
    while !done {
      old := Top
      x.next = old
      done = cas(Top, old, x)
    }
    Pushes[tid] = Pushes[tid] + 1
  }

  method pop() int {
    while true {
      old := Top
      if old == null { return EMPTY }
      HP[tid] = old
      if Top == old {
        nx := old.next
        if cas(Top, old, nx) {
          HP[tid] = null
          return old.value
        }
      }
      HP[tid] = null
    }
  }
}

spec StackSpec {
  heap Node { value int; next ref Node }
  shared Top ref Node = null
  method push(v int) { atomic { Top = new Node{value: v, next: Top} } }
  method pop() int {
    atomic {
      if Top == null { return EMPTY }
      t := Top
      Top = t.next
      return t.value
    }
  }
}
client { threads 3; ops 1 }`

// ownerLockStack is a stack under a lock that records its owner's id: a
// model that stores thread ids (in owner, in the locals me and seen, in
// the tid-indexed array Last) and compares them, and indexes an array by
// a stored id (Helped[seen]).
const ownerLockStack = `object OwnerLockStack {
  heap Node { value int; next ref Node }
  shared owner int = 0
  shared Top ref Node = null
  shared Last [1..nthreads] int = 0
  shared Helped [1..nthreads] bool = false

  method push(v int) {
    me := tid
    while !cas(owner, 0, me) { skip }
    assert owner == me
    Top = new Node{value: v, next: Top}
    owner = 0
  }

  method pop() int {
    seen := owner
    Last[tid] = seen
    if seen != 0 && seen != tid { Helped[seen] = true }
    while !cas(owner, 0, tid) { skip }
    t := Top
    if t == null {
      owner = 0
      return EMPTY
    }
    Top = t.next
    assert owner == tid
    owner = 0
    return t.value
  }
}
spec auto
client { threads 3; ops 1 }`

// parseFile parses and checks a model file.
func parseFile(t testing.TB, path string) *check.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	return parseSource(t, path, string(src))
}

// parseSource parses and checks a model given as text.
func parseSource(t testing.TB, name, src string) *check.Program {
	t.Helper()
	ast, err := syntax.Parse(name, []byte(src))
	require.NoError(t, err)
	prog, err := check.Check(ast)
	require.NoError(t, err)
	return prog
}

// explored is an exploration with its state vectors, by id.
type explored struct {
	p      *ir.Program
	l      *lts.LTS
	states [][]int32
	ids    map[string]int32 // by encoding
}

// exploreStates explores obj and keeps its state vectors (through the
// test hook Options.keepStates).
func exploreStates(t *testing.T, prog *check.Program, obj *check.Object, b ir.Bounds, explicit bool) *explored {
	t.Helper()
	x, err := tryExploreStates(prog, obj, b, explicit, 500_000)
	require.NoError(t, err)
	return x
}

// tryExploreStates is exploreStates returning the exploration's error.
func tryExploreStates(prog *check.Program, obj *check.Object, b ir.Bounds, explicit bool, maxStates int) (*explored, error) {
	x := &explored{ids: map[string]int32{}}
	o := semantics.Options{Explicit: explicit, Workers: 1, MaxStates: maxStates}
	o.KeepStates = func(p *ir.Program, states iter.Seq[[]byte]) {
		x.p = p
		for enc := range states {
			x.ids[string(enc)] = int32(len(x.states))
			x.states = append(x.states, semantics.Decode(nil, enc))
		}
	}
	l, err := explore.Explore(prog, obj, b, o)
	if err != nil {
		return nil, err
	}
	if int(l.NumStates) != len(x.states) {
		return nil, fmt.Errorf("the LTS has %d states, the set %d", l.NumStates, len(x.states))
	}
	x.l = l
	return x, nil
}

// id returns the id of a state vector, or -1 if it is not in the LTS.
func (x *explored) id(st []int32) int32 {
	if id, ok := x.ids[string(semantics.Encode(nil, st))]; ok {
		return id
	}
	return -1
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]uint8 {
	perm := make([]uint8, n)
	for i := range perm {
		perm[i] = uint8(i)
	}
	var all [][]uint8
	for {
		all = append(all, slices.Clone(perm))
		if !nextPermutation(perm) {
			return all
		}
	}
}

// symmetricModels are the bundled models (and hpTreiber) that the
// symmetry check accepts, with the bounds of the property tests.
var symmetricModels = []struct {
	name string
	file string // under ../examples, or "" for src
	src  string
	b    ir.Bounds
}{
	{"treiber", "treiber.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"treiber-free", "treiber-free.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"ms-queue", "ms-queue.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}},
	{"spinlock-stack", "spinlock-stack.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"hw-queue", "hw-queue.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"counter3", "counter3.lin", "", ir.Bounds{Threads: 3, Ops: 2, Values: []int{1}}},
	{"cas-counter", "cas-counter.lin", "", ir.Bounds{Threads: 3, Ops: 2, Values: []int{1}}},
	{"hp-treiber", "", hpTreiber, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"owner-lock-stack", "", ownerLockStack, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}},
	{"hp-stack-sym", "hp-stack-sym.lin", "", ir.Bounds{Threads: 3, Ops: 1, Values: []int{1, 2}}},
	{"per-thread", "", perThread, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}},
	{"swap-tids", "", swapTids, ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}},
}

// swapTids passes thread ids through swap: last (an int) holds thread ids
// because swap stores tid into it, prev holds the one swap gives back, a
// swap of 0 as a statement drops one, and faa counts data.
const swapTids = `object SwapTids {
  shared last int = 0
  shared seen [1..nthreads] int = 0
  shared c int(0..3) wrap = 0
  method visit() bool {
    prev := swap(last, tid)
    if prev != 0 { seen[prev] = faa(c, 1) }
    swap(last, 0)
    return prev == tid
  }
}
spec auto
`

// perThread exercises the per-thread forms: a thread-valued square array
// (Seen), a [thread][2] array of references (Mine), a shared thread
// variable (last), a thread local (me), a loop over the other threads
// outside an atomic block and one over all threads inside one.
const perThread = `object PerThread {
  heap Node { value int; next ref Node }
  shared Top ref Node = null
  shared last thread
  shared Seen [thread][thread] thread
  shared Mine [thread][2] ref Node = null
  method put(v int) int {
    atomic { Mine[tid][0] = new Node{value: v, next: Top}; Top = Mine[tid][0]; last = tid }
    for j in others {
      atomic { var me thread = last; Seen[tid][j] = me }
    }
    c := 0
    atomic { for j in threads { if Mine[j][0] != null { c = c + 1 } }; Mine[tid][1] = Top }
    return c
  }
}
spec auto
`

func loadModel(t *testing.T, name, file, src string) *check.Program {
	t.Helper()
	if file == "" {
		return parseSource(t, name+".lin", src)
	}
	return parseFile(t, "../examples/"+file)
}

// TestSymmetryAcceptsSymmetricModels: the symmetry check accepts both
// objects of every model of symmetricModels, and finds hpTreiber's two
// tid-indexed arrays.
func TestSymmetryAcceptsSymmetricModels(t *testing.T) {
	for _, m := range symmetricModels {
		prog := loadModel(t, m.name, m.file, m.src)
		for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
			p, err := ir.Compile(prog, obj, m.b.Threads, m.b.Values, false, false)
			require.NoError(t, err)
			s, reason := NewSymmetry(p, m.b)
			require.NotNil(t, s, "%s/%s: %s", m.name, obj.Name, reason)
			assert.Empty(t, reason)
			switch {
			case m.name == "hp-treiber" && obj == prog.Impl:
				assert.Len(t, s.TidArrays, 2, "HP and Pushes")
				assert.Len(t, s.FixedRoots, 1, "Top")
				assert.False(t, s.ThreadIDs)
			case m.name == "hp-stack-sym" && obj == prog.Impl:
				assert.Equal(t, []ir.ThreadArray{{Off: 1, RowLen: 1}, {Off: 4, RowLen: 3}, {Off: 13, RowLen: 3, Square: true}}, s.TidArrays, "HP, RL, PL")
				assert.Len(t, s.FixedRoots, 1, "Top")
				assert.True(t, s.ThreadIDs, "the visited sets of the loops over threads")
			case m.name == "per-thread" && obj == prog.Impl:
				assert.Len(t, s.TidArrays, 2, "Seen, Mine")
				assert.Equal(t, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, s.TidShared, "last and Seen")
				assert.Equal(t, []int32{1}, s.TidScalars, "last")
			case m.name == "swap-tids" && obj == prog.Impl:
				assert.Equal(t, []int32{0}, s.TidShared, "last")
				assert.Equal(t, []ir.ThreadArray{{Off: 1, RowLen: 1}}, s.TidArrays, "seen, indexed by the thread ids swap gives")
			case m.name == "owner-lock-stack" && obj == prog.Impl:
				assert.Len(t, s.TidArrays, 2, "Last and Helped")
				assert.Equal(t, []int32{0, 2, 3, 4}, s.TidShared, "owner and Last")
				assert.Equal(t, []int32{0}, s.TidScalars, "owner")
				assert.True(t, s.ThreadIDs)
			}
		}
	}
}

// TestSymmetryRefusesAsymmetricModels: models that use tid or nthreads
// otherwise than HP[tid], or restrict threads with only, are refused with
// a reason that names the offending use's position.
func TestSymmetryRefusesAsymmetricModels(t *testing.T) {
	// variant replaces push's body in hpTreiber with body.
	variant := func(body string) string {
		const push = "    Pushes[tid] = Pushes[tid] + 1\n"
		require.Contains(t, hpTreiber, push)
		return strings.Replace(hpTreiber, push, body+"\n", 1)
	}
	for _, c := range []struct {
		name, file, src string
		b               ir.Bounds
		want            string // in the reason, after the file name
		// at, for a file: the reason names the position atOff bytes into
		// the first occurrence of at in the file.
		at    string
		atOff int
	}{
		{name: "hp-stack tid arithmetic", file: "hp-stack.lin", at: "base := (tid - 1)", atOff: 9, want: "tid is used in arithmetic"},
		{name: "hp-stack-revised loop over thread indices", file: "hp-stack-revised.lin", at: "if i != tid", atOff: 8, want: "tid is used compared with a value that is not a thread id"},
		{name: "kregister only", file: "kregister.lin", b: ir.Bounds{Only: map[int][]string{1: {"write"}, 2: {"read"}}},
			at: "only 1: write", want: "the client's only clause"},
		{name: "in a node", src: variant("    x.value = tid"), want: ":15:15: a thread id is stored in a heap field"},
		{name: "in a new node", src: variant("    y := new Node{value: tid}"), want: ":15:26: a thread id is stored in a heap field"},
		{name: "order comparison", src: variant("    if tid < 2 { Pushes[tid] = 1 }"), want: ":15:8: tid is used in an order comparison"},
		{name: "equality with data", src: variant("    if 2 == tid { Pushes[tid] = 1 }"), want: ":15:13: tid is used compared with a value that is not a thread id"},
		{name: "stored thread id in arithmetic", src: variant("    me := tid\n    Pushes[tid] = me + 1"), want: ":16:19: the thread id in me is used in arithmetic"},
		{name: "stored thread id returned", src: strings.Replace(variant(""), "return old.value", "w := tid\n          return w", 1),
			want: ":28:18: the thread id in w is used returned"},
		{name: "thread-id local given data", src: variant("    me := tid\n    me = 2"), want: ":16:10: me holds thread ids and is given another value"},
		{name: "parameter", src: variant("    v = tid"), want: ":7:3: a parameter of push is given a thread id"},
		{name: "other index", src: variant("    Pushes[tid] = 1\n    Pushes[1] = 2"), want: ":16:12: Pushes is indexed by a thread id elsewhere and by another value here"},
		{name: "index expression", src: variant("    Pushes[tid + 0] = 2"), want: ":15:12: tid is used in arithmetic"},
		{name: "array not 1..nthreads", src: strings.Replace(variant("    Pushes[tid] = 1"), "Pushes [1..nthreads]", "Pushes [0..nthreads]", 1),
			want: ":15:12: a thread id indexes Pushes, whose indices are 0..3, not 1..nthreads"},
		{name: "faa on thread ids", src: variant("    me := tid\n    faa(me, 1)"), want: ":16:5: faa on me, which holds thread ids"},
		{name: "swap of data into thread ids", src: variant("    me := tid\n    o := swap(me, 2)"), want: ":16:19: swap into me, which holds thread ids, of a value that is neither a thread id nor 0"},
		{name: "swapped-out thread id in arithmetic", src: variant("    me := tid\n    Pushes[tid] = swap(me, tid) + 1"), want: ":16:19: the thread id in swap is used in arithmetic"},
		{name: "swap of a thread id into a node", src: variant("    o := swap(x.value, tid)"), want: ":15:24: a thread id is stored in a heap field"},
		{name: "loc to a tid-indexed element", src: variant("    l := &Pushes[tid]\n    *l = 1"), want: ":15:10: the address of Pushes[tid] is taken"},
		{name: "thread id through a loc", src: variant("    l := &x.value\n    *l = tid"), want: ":16:10: a thread id is stored through a loc"},
		{name: "loc to a thread-id variable", src: strings.Replace(variant("    Owner = tid\n    l := &Owner"), "shared Top ref Node = null", "shared Top ref Node = null\n  shared Owner int = 0", 1),
			want: ":17:10: the address of Owner, which holds thread ids, is taken"},
		{name: "scan of a per-thread array", src: variant("    i := 1\n    while i <= nthreads { Pushes[i] = 0; i = i + 1 }"),
			want: ":16:34: Pushes [1..nthreads] is indexed by a value that is not a thread id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var prog *check.Program
			want := c.want
			if c.file != "" {
				prog = parseFile(t, "../examples/"+c.file)
				i := strings.Index(string(prog.File.Src), c.at)
				require.GreaterOrEqual(t, i, 0, "%q is in %s", c.at, c.file)
				before := string(prog.File.Src[:i+c.atOff])
				line, col := strings.Count(before, "\n")+1, len(before)-strings.LastIndexByte(before, '\n')
				want = fmt.Sprintf(":%d:%d: %s", line, col, c.want)
			} else {
				prog = parseSource(t, "variant.lin", c.src)
			}
			b := c.b
			b.Threads, b.Ops, b.Values = 3, 1, []int{1}
			p, err := ir.Compile(prog, prog.Impl, b.Threads, b.Values, false, false)
			require.NoError(t, err)
			s, reason := NewSymmetry(p, b)
			assert.Nil(t, s)
			assert.Contains(t, reason, want)
			assert.NotContains(t, reason, "\n", "one line")
			name := c.file
			if name == "" {
				name = "variant.lin"
			}
			assert.True(t, strings.HasPrefix(reason, "../examples/"+name) || strings.HasPrefix(reason, name), reason)
		})
	}
}

// TestSymmetryInitBlockExempt: the init block may use tid and nthreads (it
// runs once, before the threads); the same uses in a method are refused.
func TestSymmetryInitBlockExempt(t *testing.T) {
	src := strings.Replace(hpTreiber, "  method push(v int) {", "  init { i := tid\n while i <= nthreads { Pushes[i] = 1; i = i + 1 } }\n  method push(v int) {", 1)
	prog := parseSource(t, "init.lin", src)
	b := ir.Bounds{Threads: 2, Ops: 1, Values: []int{1}}
	p, err := ir.Compile(prog, prog.Impl, b.Threads, b.Values, false, false)
	require.NoError(t, err)
	s, reason := NewSymmetry(p, b)
	require.NotNil(t, s, reason)
}

// symmetryModes are the heap modes of the property tests.
var symmetryModes = []struct {
	name     string
	explicit bool
}{{"gc", false}, {"explicit", true}}

// TestSymmetryCanonicalRepresentatives checks canon on every state of the
// symmetric models at three threads, both objects, both heap modes,
// against brute force over the whole group:
//   - apply(st, perm) is rep, for the perm that canon returns;
//   - every permutation of a state is a state of the LTS (the initial
//     state is symmetric), and transitions map to transitions: for each
//     permutation π, the transitions of π·s are those of s with the
//     threads and the thread ids in the labels renamed by π and the
//     targets permuted (the static check's claim, checked);
//   - (a) permuting a state's threads (a random permutation, seeded) never
//     changes its representative;
//   - (b) states with the same representative are permutations of each
//     other, and states in the same orbit have the same representative:
//     the representative is a function of the orbit, found by brute force
//     (the orbit of s is {π·s}, its least id names it);
//   - (d) the number of representatives is the number of orbits, counted
//     by Burnside's lemma (the mean number of states a permutation fixes);
//   - stabilizer returns the permutations that fix the representative.
func TestSymmetryCanonicalRepresentatives(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 2))
	forSymmetricSystems(t, func(t *testing.T, x *explored, s *Symmetry) {
		checkRepresentatives(t, r, x, s)
	})
}

// forSymmetricSystems runs f, as a subtest, on the explored states and
// the symmetry of each symmetric bundled model's implementation and
// specification, in each heap mode.
func forSymmetricSystems(t *testing.T, f func(t *testing.T, x *explored, s *Symmetry)) {
	for _, m := range symmetricModels {
		prog := loadModel(t, m.name, m.file, m.src)
		for _, obj := range []*check.Object{prog.Impl, prog.Spec} {
			for _, mode := range symmetryModes {
				t.Run(m.name+"/"+obj.Name+"/"+mode.name, func(t *testing.T) {
					x := exploreStates(t, prog, obj, m.b, mode.explicit)
					s, reason := NewSymmetry(x.p, m.b)
					require.NotNil(t, s, reason)
					f(t, x, s)
				})
			}
		}
	}
}

// checkRepresentatives runs the checks of
// TestSymmetryCanonicalRepresentatives on one exploration.
func checkRepresentatives(t *testing.T, r *rand.Rand, x *explored, s *Symmetry) {
	c := semantics.NewCanonicaliser(x.p, s.Threads)
	group := permutations(s.Threads)
	n := len(x.states)
	// image[g][id]: the id of group[g]·states[id].
	image := make([][]int32, len(group))
	fixed := 0
	for g, perm := range group {
		image[g] = make([]int32, n)
		for id, st := range x.states {
			image[g][id] = x.id(s.Apply(st, perm, c))
			require.GreaterOrEqual(t, image[g][id], int32(0), "the permutation %v of state %d %v is not a state of the LTS", perm, id, st)
			if image[g][id] == int32(id) {
				fixed++
			}
		}
	}
	require.Zero(t, fixed%len(group), "Burnside: the fixed points add up to a multiple of the group's order")
	orbits := fixed / len(group)
	checkTransitionsPermute(t, x, group, image)

	// The orbit of a state, named by its least id.
	orbitOf := make([]int32, n)
	for id := range n {
		orbitOf[id] = int32(id)
		for g := range group {
			orbitOf[id] = min(orbitOf[id], image[g][id])
		}
	}
	repOfOrbit := map[int32]string{}
	orbitOfRep := map[string]int32{}
	for id, st := range x.states {
		rep, perm := s.Canon(st, c)
		rep = slices.Clone(rep) // apply below may reuse its buffer
		key := string(semantics.Encode(nil, rep))
		require.Equal(t, rep, s.Apply(st, perm, c), "rep = apply(st, perm) for state %d", id)
		require.Equal(t, orbitOf[id], orbitOf[x.id(rep)], "the representative of state %d is in its orbit", id)
		if k, ok := repOfOrbit[orbitOf[id]]; ok {
			require.Equal(t, k, key, "(a) two states of an orbit (one is state %d) have different representatives", id)
		}
		repOfOrbit[orbitOf[id]] = key
		if o, ok := orbitOfRep[key]; ok {
			require.Equal(t, o, orbitOf[id], "(b) state %d has the representative of another orbit", id)
		}
		orbitOfRep[key] = orbitOf[id]
		// The stabiliser of the representative, as canon found it,
		// against brute force.
		flat, count, order, exact := s.Stabilizer(nil, maxTiedOrders)
		require.True(t, exact)
		require.Equal(t, int64(count), order)
		var stab [][]uint8
		for k := 0; k < len(flat); k += len(group[0]) {
			stab = append(stab, flat[k:k+len(group[0])])
		}
		require.Len(t, stab, count)
		require.Equal(t, group[0], stab[0], "the identity first")
		var want [][]uint8
		for _, g := range group {
			if slices.Equal(s.Apply(rep, g, c), rep) {
				want = append(want, g)
			}
		}
		slices.SortFunc(stab, slices.Compare)
		require.Equal(t, want, stab, "the stabiliser of the representative of state %d", id)
		// (a) directly, on a random permutation of the state.
		perm = group[r.IntN(len(group))]
		moved := slices.Clone(s.Apply(st, perm, c))
		rep2, _ := s.Canon(moved, c)
		require.Equal(t, key, string(semantics.Encode(nil, rep2)), "(a) state %d permuted by %v", id, perm)
	}
	assert.Equal(t, orbits, len(orbitOfRep), "(d) representatives vs orbits by Burnside's lemma")
	assert.Zero(t, s.counts.fallbacks)
	t.Logf("%d states, %d orbits; %d of %d canonicalisations tried tied orders (%d orders)",
		n, orbits, s.counts.enumerated, s.counts.canons, s.counts.orders)
}

// checkTransitionsPermute checks that each permutation maps the LTS onto
// itself, up to the renaming of threads in transitions and labels.
func checkTransitionsPermute(t *testing.T, x *explored, group [][]uint8, image [][]int32) {
	l := x.l
	labelID := map[string]int32{}
	for i, name := range l.Labels {
		labelID[name] = int32(i)
	}
	type tr struct {
		label, dst int32
		thread     uint8
		sourceStep int16
	}
	out := func(s int32, perm []uint8, labels, img []int32) []tr {
		var trs []tr
		for i := l.Out[s]; i < l.Out[s+1]; i++ {
			trs = append(trs, tr{label: labels[l.Label[i]], dst: img[l.Dst[i]],
				thread: perm[l.Meta.Thread[i]-1] + 1, sourceStep: l.Meta.Step[i]})
		}
		slices.SortFunc(trs, func(a, b tr) int {
			if a.label != b.label {
				return int(a.label - b.label)
			}
			if a.dst != b.dst {
				return int(a.dst - b.dst)
			}
			if a.thread != b.thread {
				return int(a.thread) - int(b.thread)
			}
			return int(a.sourceStep) - int(b.sourceStep)
		})
		return trs
	}
	identity, idLabels := group[0], make([]int32, len(l.Labels))
	for i := range idLabels {
		idLabels[i] = int32(i)
	}
	for g, perm := range group[1:] {
		// The labels renamed by perm, by id (-1: not a label of the LTS).
		labels := make([]int32, len(l.Labels))
		for i, name := range l.Labels {
			id, ok := labelID[renameLabel(t, name, perm)]
			labels[i] = id
			if !ok {
				labels[i] = -1
			}
		}
		img := image[g+1]
		for s := range l.NumStates {
			if a, b := out(s, perm, labels, img), out(img[s], identity, idLabels, image[0]); !slices.Equal(a, b) {
				require.Equal(t, a, b, "the transitions of state %d permuted by %v are not those of its image %d", s, perm, img[s])
			}
		}
	}
}

// TestSymmetryFallback: with the tied orders capped below what some
// states need, canon falls back to a representative in the orbit and
// counts it, and stabilizer says it does not know the stabiliser; and it
// lists a stabiliser only up to the size asked.
func TestSymmetryFallback(t *testing.T) {
	prog := parseFile(t, "../examples/treiber.lin")
	b := ir.Bounds{Threads: 3, Ops: 1, Values: []int{1}}
	x := exploreStates(t, prog, prog.Impl, b, false)
	s, reason := NewSymmetry(x.p, b)
	require.NotNil(t, s, reason)
	s.MaxOrders = 1
	c := semantics.NewCanonicaliser(x.p, 3)
	group := permutations(3)
	for _, st := range x.states {
		fallbacks := s.counts.fallbacks
		rep, perm := s.Canon(st, c)
		if s.counts.fallbacks > fallbacks {
			_, count, order, exact := s.Stabilizer(nil, maxTiedOrders)
			assert.False(t, exact, "the stabiliser is not known after a fallback")
			assert.Zero(t, count)
			assert.GreaterOrEqual(t, order, int64(2), "a bound: the permutations within the tied groups")
		}
		rep = slices.Clone(rep) // apply below may reuse its buffer
		require.Equal(t, rep, s.Apply(st, perm, c))
		inOrbit := false
		for _, g := range group {
			inOrbit = inOrbit || slices.Equal(rep, s.Apply(st, g, c))
		}
		require.True(t, inOrbit)
	}
	assert.Positive(t, s.counts.fallbacks, "treiber has states with threads tied on private nodes")
	assert.Zero(t, s.counts.enumerated)
	// The initial state's three idle threads: 6 orders, more than 5.
	s.Canon(x.states[0], c)
	stab, count, order, exact := s.Stabilizer(nil, 5)
	assert.True(t, exact)
	assert.Equal(t, int64(6), order)
	assert.Zero(t, count)
	assert.Empty(t, stab)
	stab, count, _, _ = s.Stabilizer(nil, 6)
	assert.Equal(t, 6, count, "every permutation fixes the initial state")
	assert.Len(t, stab, 6*3)
}

// TestSymmetryOrbitFigures logs orbit counts against state counts on
// larger bounds (set LINBIS_SYMMETRY_FIGURES=1; a few seconds each),
// checking that each orbit has at most n! states.
func TestSymmetryOrbitFigures(t *testing.T) {
	if os.Getenv("LINBIS_SYMMETRY_FIGURES") == "" {
		t.Skip("set LINBIS_SYMMETRY_FIGURES=1")
	}
	for _, c := range []struct {
		file     string
		threads  int
		ops      int
		explicit bool
	}{
		{"treiber.lin", 3, 2, false}, {"treiber.lin", 4, 1, false}, {"ms-queue.lin", 3, 1, false},
		{"treiber.lin", 3, 2, true}, {"treiber.lin", 4, 1, true}, {"ms-queue.lin", 3, 1, true},
		{"treiber-free.lin", 3, 2, true},
	} {
		prog := parseFile(t, "../examples/"+c.file)
		b := ir.Bounds{Threads: c.threads, Ops: c.ops, Values: []int{1, 2}}
		o := semantics.Options{Explicit: c.explicit, MaxStates: 5_000_000}
		reps := map[string]bool{}
		var s *Symmetry
		o.KeepStates = func(p *ir.Program, states iter.Seq[[]byte]) {
			var reason string
			s, reason = NewSymmetry(p, b)
			require.NotNil(t, s, reason)
			cn := semantics.NewCanonicaliser(p, c.threads)
			for enc := range states {
				st := semantics.Decode(nil, enc)
				rep, _ := s.Canon(st, cn)
				reps[string(semantics.Encode(nil, rep))] = true
			}
		}
		l, err := explore.Explore(prog, prog.Impl, b, o)
		require.NoError(t, err)
		fact := 1
		for k := 2; k <= c.threads; k++ {
			fact *= k
		}
		assert.GreaterOrEqual(t, len(reps)*fact, int(l.NumStates))
		t.Logf("%s %d/%d explicit=%v: %d states, %d orbits (%.2fx); canon: %d calls, %d tried tied orders (%d orders), %d fallbacks",
			c.file, c.threads, c.ops, c.explicit, l.NumStates, len(reps), float64(l.NumStates)/float64(len(reps)),
			s.counts.canons, s.counts.enumerated, s.counts.orders, s.counts.fallbacks)
	}
}

// BenchmarkSymmetryCanon measures canon on the states of Treiber's stack
// at 4 threads × 1 operation (garbage-collected), one state per
// iteration, cycling through them.
func BenchmarkSymmetryCanon(b *testing.B) {
	prog := parseFile(b, "../examples/treiber.lin")
	bounds := ir.Bounds{Threads: 4, Ops: 1, Values: []int{1, 2}}
	var states [][]int32
	var p *ir.Program
	o := semantics.Options{Workers: 1}
	o.KeepStates = func(pr *ir.Program, encs iter.Seq[[]byte]) {
		p = pr
		for enc := range encs {
			states = append(states, semantics.Decode(nil, enc))
		}
	}
	_, err := explore.Explore(prog, prog.Impl, bounds, o)
	require.NoError(b, err)
	s, reason := NewSymmetry(p, bounds)
	require.NotNil(b, s, reason)
	c := semantics.NewCanonicaliser(p, bounds.Threads)
	buf := make([]int32, 0, 256)
	// The tests' self-check of the renumbering is off, as in a real run.
	semantics.CheckSkips = false
	defer func() { semantics.CheckSkips = true }()
	identities := int64(0)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// A copy, as the search gives canon a fresh successor: the
		// state's bytes are not in the cache.
		buf = append(buf[:0], states[i]...)
		if rep, _ := s.Canon(buf, c); &rep[0] == &buf[0] {
			identities++
		}
		i = (i + 1) % len(states)
	}
	b.ReportMetric(float64(s.counts.enumerated)/float64(s.counts.canons), "tied/op")
	b.ReportMetric(float64(identities)/float64(s.counts.canons), "kept/op")
}

// renameLabel renames the thread of a visible label, e.g. call(1,push,2),
// by perm (threads from 1 in labels, from 0 in perm).
func renameLabel(t *testing.T, label string, perm []uint8) string {
	open := strings.IndexByte(label, '(')
	if open < 0 {
		return label
	}
	end := open + 1 + strings.IndexAny(label[open+1:], ",)")
	th, err := strconv.Atoi(label[open+1 : end])
	require.NoError(t, err, label)
	return label[:open+1] + strconv.Itoa(int(perm[th-1])+1) + label[end:]
}

// TestSymmetryHPStackForms: the HP stack that cuts per-thread slices out
// of shared arrays by tid arithmetic is refused, in one positioned line;
// the same algorithm with per-thread arrays and a loop over the other
// threads (hp-stack-sym) is accepted, at several thread counts.
func TestSymmetryHPStackForms(t *testing.T) {
	for _, threads := range []int{2, 3, 4} {
		b := ir.Bounds{Threads: threads, Ops: 1, Values: []int{1}}
		old := parseFile(t, "../examples/hp-stack.lin")
		p, err := ir.Compile(old, old.Impl, threads, b.Values, false, false)
		require.NoError(t, err)
		s, reason := NewSymmetry(p, b)
		assert.Nil(t, s)
		assert.Regexp(t, `^\.\./examples/hp-stack\.lin:\d+:\d+: tid is used in arithmetic; [^\n]*$`, reason)

		sym := parseFile(t, "../examples/hp-stack-sym.lin")
		for _, obj := range []*check.Object{sym.Impl, sym.Spec} {
			p, err := ir.Compile(sym, obj, threads, b.Values, false, false)
			require.NoError(t, err)
			s, reason := NewSymmetry(p, b)
			assert.NotNil(t, s, reason)
			assert.Empty(t, reason)
		}
	}
}
