package history

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/history/timeline"
	"github.com/linbis/linbis/internal/limits"
	"github.com/linbis/linbis/internal/meter"
)

// ops builds a history from "call return method args -> result" lines;
// return "-" is pending, result "?" unknown, "nil" the absent value.
func ops(t *testing.T, lines ...string) *record.History {
	t.Helper()
	h := &record.History{Name: "inline"}
	for i, l := range lines {
		f := strings.Fields(l)
		require.GreaterOrEqual(t, len(f), 3, l)
		op := record.Op{Client: i, Method: f[2], Pos: record.Pos{Line: i + 1, Col: 1}}
		_, err := fmtSscan(f[0], &op.Call)
		require.NoError(t, err)
		if f[1] == "-" {
			op.Return, op.Unknown = record.Pending, true
		} else {
			_, err = fmtSscan(f[1], &op.Return)
			require.NoError(t, err)
		}
		rest := f[3:]
		for len(rest) > 0 && rest[0] != "->" {
			op.Args, rest = append(op.Args, rest[0]), rest[1:]
		}
		if len(rest) == 2 {
			op.Result = rest[1]
			switch op.Result {
			case "?":
				op.Unknown, op.Result = true, ""
			case "nil":
				op.Result = record.Nil
			}
		}
		h.Ops = append(h.Ops, op)
	}
	return h
}

// TestHandChecked lists small histories whose verdicts are known by hand.
func TestHandChecked(t *testing.T) {
	cases := []struct {
		name, model string
		h           []string
		want        Verdict
	}{
		{"stale read", "register", []string{"0 1 write 1", "2 3 read -> nil"}, NotLinearizable},
		{"concurrent read may see old", "register", []string{"0 5 write 1", "1 2 read -> nil", "3 4 read -> 1"}, Linearizable},
		{"new-old inversion", "register", []string{"0 10 write 1", "1 2 read -> 1", "3 4 read -> nil"}, NotLinearizable},
		{"pending write may take effect", "register", []string{"0 - write 1", "5 6 read -> 1"}, Linearizable},
		{"pending write may not", "register", []string{"0 - write 1", "5 6 read -> nil"}, Linearizable},
		{"pending write cannot take effect twice", "register", []string{"0 - write 1", "1 2 write 2", "3 4 read -> 1", "5 6 read -> 2"}, NotLinearizable},
		{"unknown read matches anything", "register", []string{"0 1 write 1", "2 3 read -> ?"}, Linearizable},
		{"cas false needs a mismatch", "cas-register", []string{"0 1 write 1", "2 3 cas 1 2 -> false"}, NotLinearizable},
		{"cas true swaps", "cas-register", []string{"0 1 write 1", "2 3 cas 1 2 -> true", "4 5 read -> 2"}, Linearizable},
		{"queue FIFO", "queue", []string{"0 1 enq 1", "2 3 enq 2", "4 5 deq -> 2"}, NotLinearizable},
		{"queue overlap", "queue", []string{"0 3 enq 1", "1 2 enq 2", "4 5 deq -> 2"}, Linearizable},
		{"stack LIFO", "stack", []string{"0 1 push 1", "2 3 push 2", "4 5 pop -> 1"}, NotLinearizable},
		{"stack empty", "stack", []string{"0 1 push 1", "2 3 pop -> nil"}, NotLinearizable},
		{"stack empty covered by a chain", "stack", []string{"4 11 push 0", "1 24 push 1", "19 54 pop -> nil", "35 46 pop -> 0"}, NotLinearizable},
		{"stack empty in a gap", "stack", []string{"4 11 push 0", "30 40 push 1", "19 54 pop -> nil", "12 25 pop -> 0"}, Linearizable},
		{"set", "set", []string{"0 1 add 1 -> true", "2 3 add 1 -> true"}, NotLinearizable},
		{"set contains", "set", []string{"0 1 add 1", "2 3 remove 1", "4 5 contains 1 -> false"}, Linearizable},
		{"counter lost update", "counter", []string{"0 1 inc", "0 1 inc", "2 3 read -> 1"}, NotLinearizable},
		{"counter", "counter", []string{"0 1 inc", "0 4 add 5", "2 3 read -> 1", "5 6 read -> 6"}, Linearizable},
		{"kv append", "kv", []string{`0 1 append "x"`, `2 3 append "y"`, `4 5 get -> "xy"`}, Linearizable},
		{"kv append order", "kv", []string{`0 1 append "x"`, `2 3 append "y"`, `4 5 get -> "yx"`}, NotLinearizable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec, err := model.Builtin(c.model)
			require.NoError(t, err)
			h := ops(t, c.h...)
			for _, algo := range []Algorithm{Auto, General} {
				res, err := Check(h, spec, Options{Algorithm: algo})
				require.NoError(t, err)
				assert.Equal(t, c.want, res.Verdict)
			}
			assert.Equal(t, c.want == Linearizable, bruteForce(h.Ops, spec))
		})
	}
}

// TestStackPeelDecidesWhatPatternsMiss pins a history the stack patterns
// cannot refute although it is not linearizable (found by the long
// property run). 0 is pushed first and popped while 3 (never popped) is
// being pushed, so 3 must come after that pop and hence below 2, whose
// push precedes the pop of 0 and whose pop overlaps it; but then 2 sits
// above 0 when 0 is popped, or 3 sits above 0. No pairwise pattern sees
// it; the peeling does, without the general search: 1 can lie at the
// bottom (pushed before 0's push returns, never popped), and once it is
// set aside none of 0, 2, 3, 4 can (4 lives while 0 surely is in the stack).
func TestStackPeelDecidesWhatPatternsMiss(t *testing.T) {
	h := ops(t, "1 13 push 0", "4 31 push 1", "30 50 push 2", "36 63 push 3", "32 52 push 4",
		"51 77 pop -> 4", "53 79 pop -> 0", "72 89 pop -> 2")
	v, ok := stackPatterns(h.Ops)
	require.True(t, ok)
	assert.Nil(t, v, "the pairwise patterns miss it")
	spec, _ := model.Builtin("stack")
	require.False(t, bruteForce(h.Ops, spec))
	res, err := Check(h, spec, Options{})
	require.NoError(t, err)
	assert.Equal(t, NotLinearizable, res.Verdict)
	assert.Equal(t, []model.Procedure{model.StackPeel}, res.Algorithms)
	require.NotNil(t, res.Failure)
	assert.Contains(t, res.Failure.Pattern, "SP6: none of the values 0, 2, 3, 4 ")
	assert.ElementsMatch(t, []int{0, 2, 3, 4, 5, 6, 7}, res.Failure.Witness)
}

// TestStackPendingPushDecided: pending pushes do not send a stack history
// to the general search. 1 is pending and popped, so it took effect; 2 is
// pending and never popped, so it may be dropped; the empty pop comes
// after 1 was popped.
func TestStackPendingPushDecided(t *testing.T) {
	spec, _ := model.Builtin("stack")
	for _, c := range []struct {
		h    []string
		want Verdict
	}{
		{[]string{"0 - push 1", "1 2 push 2", "3 4 pop -> 1", "5 6 pop -> 2", "7 8 pop -> nil", "0 - push 3"}, Linearizable},
		{[]string{"0 - push 1", "1 2 push 2", "3 4 pop -> 1", "5 6 pop -> nil", "7 8 pop -> 2"}, NotLinearizable},
	} {
		h := ops(t, c.h...)
		require.Equal(t, c.want == Linearizable, bruteForce(h.Ops, spec))
		res, err := Check(h, spec, Options{})
		require.NoError(t, err)
		assert.Equal(t, c.want, res.Verdict)
		assert.Equal(t, []model.Procedure{model.StackPeel}, res.Algorithms)
	}
}

// TestStackPeelCases checks the peeling alone on histories decided by
// hand, including ones that need an empty pop or a virtual final pop.
func TestStackPeelCases(t *testing.T) {
	cases := []struct {
		name string
		h    []string
		want bool
	}{
		{"nested", []string{"0 1 push 1", "2 3 push 2", "4 5 pop -> 2", "6 7 pop -> 1"}, true},
		{"crossed", []string{"0 1 push 1", "2 3 push 2", "4 5 pop -> 1", "6 7 pop -> 2"}, false},
		{"concurrent pushes, either order", []string{"0 3 push 1", "1 2 push 2", "4 5 pop -> 1", "6 7 pop -> 2"}, true},
		{"empty pop between two lives", []string{"0 1 push 1", "2 3 pop -> 1", "4 5 pop -> nil", "6 7 push 2"}, true},
		{"empty pop inside a life", []string{"0 1 push 1", "2 3 pop -> nil", "4 5 pop -> 1"}, false},
		{"empty pop concurrent with the pop", []string{"0 1 push 1", "2 5 pop -> nil", "3 4 pop -> 1"}, true},
		{"never popped stays at the bottom", []string{"0 1 push 1", "2 3 push 2", "4 5 pop -> 2"}, true},
		{"never popped below a popped one", []string{"0 1 push 1", "2 3 push 2", "4 5 pop -> 1"}, false},
		{"pop overlapping its push", []string{"0 4 push 1", "1 2 pop -> 1"}, true},
		{"touching times are concurrent", []string{"0 2 push 1", "2 3 pop -> nil", "3 4 pop -> 1"}, true},
		{"only empty pops", []string{"0 1 pop -> nil", "0 1 pop -> nil"}, true},
	}
	spec, _ := model.Builtin("stack")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := ops(t, c.h...)
			require.Equal(t, c.want, bruteForce(h.Ops, spec), "the hand verdict")
			m, v, ok := matchValues(h.Ops)
			require.True(t, ok)
			require.Nil(t, v)
			got := stackPeel(h.Ops, m)
			assert.Equal(t, c.want, got == nil, "%v", got)
		})
	}
}

// within returns Options whose context ends after d with a time limit,
// as the history verb's --timeout does.
func within(t *testing.T, d time.Duration) Options {
	ctx, cancel := context.WithTimeoutCause(context.Background(), d, &limits.LimitError{Limit: limits.Time, Value: int64(d)})
	t.Cleanup(cancel)
	return Options{Context: ctx}
}

func TestTimeoutGivesUnknown(t *testing.T) {
	// Many concurrent writes and one impossible read: the search must try
	// every order of the writes before it can say no.
	var lines []string
	for range 40 {
		lines = append(lines, "0 100 write 1")
	}
	lines = append(lines, "0 100 read -> 2")
	h := ops(t, lines...)
	spec, _ := model.Builtin("register")
	res, err := Check(h, spec, within(t, time.Millisecond))
	require.NotNil(t, res, "%v", err)
	// Memoisation makes this one quick (all writes are alike), so it may
	// also be decided; what must never happen is a wrong answer.
	assert.Contains(t, []Verdict{NotLinearizable, Unknown}, res.Verdict)
	assert.Equal(t, res.Verdict == Unknown, err != nil, "%v", err)

	kv, _ := model.Builtin("kv")
	h, err = format.ReadFile(filepath.Join(porcupineDir, "kv", "c10-ok.txt"), format.ReadOptions{Format: "edn"})
	if err != nil {
		t.Skip("Porcupine histories not found")
	}
	opts := within(t, time.Nanosecond)
	opts.NoPartition = true
	res, err = Check(h, kv, opts)
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.Time, le.Limit)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Equal(t, TimeLimit, res.Limit)
	assert.Equal(t, 0, res.Decided)
	assert.Equal(t, "time budget of 1ns exhausted with 0 of 1 partitions decided", res.Reason)
	assert.EqualError(t, err, res.Reason)
}

// TestCancelStopsTheSearch: a search that would run for minutes (kv's
// c50 history unpartitioned) returns promptly once its context ends,
// with the context's *limits.LimitError, and a context cancelled without
// a limit leaves no verdict and names no limit.
func TestCancelStopsTheSearch(t *testing.T) {
	kv, _ := model.Builtin("kv")
	h, err := format.ReadFile(filepath.Join(porcupineDir, "kv", "c50-ok.txt"), format.ReadOptions{Format: "edn"})
	if err != nil {
		t.Skip("Porcupine histories not found")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		time.Sleep(50 * time.Millisecond)
		cancel(&limits.LimitError{Limit: limits.Time, Value: int64(50 * time.Millisecond)})
	}()
	start := time.Now()
	res, err := Check(h, kv, Options{NoPartition: true, Context: ctx})
	elapsed := time.Since(start)
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.Time, le.Limit)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Less(t, elapsed, 5*time.Second, "stopped promptly")
	t.Logf("stopped after %s", elapsed)

	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	res, err = Check(h, kv, Options{Context: ctx})
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, errors.As(err, &le), "a cancel is no limit")
	assert.Equal(t, Unknown, res.Verdict)
	assert.Equal(t, NoLimit, res.Limit)
	assert.Equal(t, 0, res.Decided)
}

func TestMemoryBudgetGivesUnknown(t *testing.T) {
	// The general search on this long queue history with unique values
	// explores many queue contents (the bad patterns decide it at once).
	spec, _ := model.Builtin("queue")
	ops := genHistory(rand.New(rand.NewPCG(1, 400)), spec, 400, 1, true, false)
	h := &record.History{Name: "gen", Ops: ops}
	opts := within(t, 20*time.Second)
	opts.Algorithm, opts.MaxMemory = General, 4<<20
	res, err := Check(h, spec, opts)
	var le *limits.LimitError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, limits.Memory, le.Limit)
	assert.Equal(t, int64(4<<20), le.Value)
	assert.Equal(t, Unknown, res.Verdict)
	assert.Equal(t, "memory budget of 4 MiB exhausted with 0 of 1 partitions decided", res.Reason)
	res, err = Check(h, spec, Options{})
	require.NoError(t, err)
	assert.Equal(t, Linearizable, res.Verdict)
}

func TestProgressAndWorkers(t *testing.T) {
	spec, _ := model.Builtin("register")
	rng := rand.New(rand.NewPCG(5, 5))
	h := &record.History{Name: "gen", Ops: genHistory(rng, spec, 200, 7, false, true)}
	var calls []int
	var mu sync.Mutex
	res, err := Check(h, spec, Options{Workers: 1, Progress: meter.Func(func(stage string, _ int64, unit string) {
		mu.Lock()
		defer mu.Unlock()
		var done, total int
		_, err := fmt.Sscanf(stage, "%d of %d partitions decided", &done, &total)
		require.NoError(t, err, stage)
		assert.Equal(t, 7, total)
		assert.Equal(t, "configurations", unit)
		if len(calls) == 0 || calls[len(calls)-1] != done {
			calls = append(calls, done)
		}
	})})
	require.NoError(t, err)
	assert.Equal(t, Linearizable, res.Verdict)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, calls)
	assert.Equal(t, 7, res.Decided)
}

func TestQueuePatternsScale(t *testing.T) {
	spec, _ := model.Builtin("queue")
	ops := genHistory(rand.New(rand.NewPCG(2, 2)), spec, 3000, 1, true, false)
	res, err := Check(&record.History{Name: "gen", Ops: ops}, spec, within(t, 10*time.Second))
	require.NoError(t, err)
	assert.Equal(t, Linearizable, res.Verdict)
	assert.Equal(t, []model.Procedure{model.QueuePatterns}, res.Algorithms)
	// A pending operation makes the patterns inapplicable: the search runs.
	ops[0].Return, ops[0].Unknown = record.Pending, true
	res, err = Check(&record.History{Name: "gen", Ops: ops[:50]}, spec, Options{})
	require.NoError(t, err)
	assert.Equal(t, []model.Procedure{model.Search}, res.Algorithms)
}

func TestGuessModel(t *testing.T) {
	cases := []struct {
		methods []string
		key     string
		want    string
	}{
		{[]string{"read", "write"}, "", "register"},
		{[]string{"read", "cas"}, "", "cas-register"},
		{[]string{"get", "append"}, "k", "kv"},
		{[]string{"enq", "deq"}, "", "queue"},
		{[]string{"push", "pop"}, "", "stack"},
		{[]string{"add", "contains"}, "", "set"},
		{[]string{"inc", "read"}, "", "counter"},
	}
	for _, c := range cases {
		h := &record.History{Name: "h"}
		for _, m := range c.methods {
			h.Ops = append(h.Ops, record.Op{Method: m, Key: c.key})
		}
		got, err := model.GuessModel(h)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, c.methods)
	}
	_, err := model.GuessModel(&record.History{Name: "h", Ops: []record.Op{{Method: "frobnicate"}}})
	assert.EqualError(t, err, "h: no built-in model has the methods frobnicate: give --model")
}

func TestTimelineOfFailure(t *testing.T) {
	h := ops(t, "0 1 enq 1", "2 3 enq 2", "4 5 deq -> 2", "6 - deq")
	spec, _ := model.Builtin("queue")
	res, err := Check(h, spec, Options{Algorithm: General})
	require.NoError(t, err)
	require.Equal(t, NotLinearizable, res.Verdict)
	tl := Timeline(h, res)
	assert.True(t, tl.Bad)
	require.Len(t, tl.Bars, 4)
	assert.Equal(t, timeline.Linearized, tl.Bars[0].Kind)
	assert.Equal(t, 1, tl.Bars[0].Order)
	assert.Equal(t, timeline.Stuck, tl.Bars[2].Kind)
	assert.Equal(t, timeline.Open, tl.Bars[3].End)
	assert.Equal(t, "enq(1)", tl.Bars[0].Label)
	assert.Contains(t, strings.Join(tl.Notes, " "), "deq() -> 2 (inline:3) cannot be placed")
}

func TestTimelineOfWitness(t *testing.T) {
	h := ops(t, "0 3 enq 1", "1 2 enq 2", "4 5 deq -> 2", "6 - deq")
	spec, _ := model.Builtin("queue")
	res, err := Check(h, spec, Options{Algorithm: General})
	require.NoError(t, err)
	require.Equal(t, Linearizable, res.Verdict)
	require.Equal(t, [][]int{{1, 0, 2}}, res.Witness, "enq(2) must go first; the pending deq is left out")
	tl := Timeline(h, res)
	assert.False(t, tl.Bad)
	orders := []int{}
	for _, b := range tl.Bars {
		orders = append(orders, b.Order)
	}
	assert.Equal(t, []int{2, 1, 3, 0}, orders)
	assert.Contains(t, strings.Join(tl.Notes, " "), "A linearization is numbered")
}

func TestShowState(t *testing.T) {
	assert.Equal(t, "nil", model.ShowState(record.Nil))
	assert.Equal(t, "[1 2]", model.ShowState("1"+model.SepElem+"2"+model.SepElem))
	put := record.Op{Method: "put", Key: `"b"`, Args: []string{`"x"`}}
	app := record.Op{Method: "append", Key: `"a"`, Args: []string{`"y"`}}
	kv, err := model.Builtin("kv")
	require.NoError(t, err)
	k := newKeyed(kv, []record.Op{put, app})
	ok, s := k.Step(k.Init(), &put)
	require.True(t, ok)
	_, s = k.Step(s, &app)
	assert.Equal(t, `{"a": "y", "b": "x"}`, k.ShowState(s))
	assert.Equal(t, `{"a": "y", "b": "x"}`, model.ShowStateOf(k, s))
	assert.Len(t, s, 8, "a product state holds one 4-byte id per key")
	// The same product state reached in another order is the same string.
	_, s2 := k.Step(k.Init(), &app)
	_, s2 = k.Step(s2, &put)
	assert.Equal(t, s, s2)
}

func fmtSscan(s string, v *int64) (int, error) { return fmt.Sscan(s, v) }

// TestSmallestFailingPartitionIsDeterministic checks that the failing
// partition reported is the first failing one in (size, first appearance)
// order on every run, whatever the workers' timing: each failing
// partition is checked alone to find that first one.
func TestSmallestFailingPartitionIsDeterministic(t *testing.T) {
	needPorcupine(t)
	spec, _ := model.Builtin("kv")
	h, err := format.ReadFile(filepath.Join(porcupineDir, "kv", "c10-bad.txt"), format.ReadOptions{})
	require.NoError(t, err)
	groups := spec.Partition(h.Ops)
	sort.SliceStable(groups, func(a, b int) bool { return len(groups[a]) < len(groups[b]) })
	want := ""
	for _, g := range groups {
		part := &record.History{Name: "part", Ops: make([]record.Op, len(g))}
		for k, i := range g {
			part.Ops[k] = h.Ops[i]
		}
		res, err := Check(part, spec, Options{})
		require.NoError(t, err)
		if res.Verdict == NotLinearizable {
			want = part.Ops[0].Key
			break
		}
	}
	require.NotEmpty(t, want)
	for run := range 20 {
		res, err := Check(h, spec, Options{Workers: 1 + run%3})
		require.NoError(t, err)
		require.Equal(t, NotLinearizable, res.Verdict)
		assert.Equal(t, want, res.Failure.Key, "run %d", run)
	}
}
