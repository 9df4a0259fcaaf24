package history

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/require"
)

// BenchmarkEtcdAll parses and checks every etcd log of Porcupine's suite
// (102 histories, cas-register) per iteration.
func BenchmarkEtcdAll(b *testing.B) {
	needPorcupine(b)
	spec, err := model.Builtin("cas-register")
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i <= 102; i++ {
			if i == 95 {
				continue
			}
			h, err := format.ReadFile(etcdFile(i), format.ReadOptions{Format: "jepsen-log"})
			require.NoError(b, err)
			res, err := Check(h, spec, Options{})
			require.NoError(b, err)
			if res.Verdict != expectEtcd(i) {
				b.Fatalf("etcd_%03d: %v", i, res.Verdict)
			}
		}
	}
}

// BenchmarkKV checks Porcupine's key-value histories: partitioned by key,
// and as one object (the product of the keys) for c01 and c10.
func BenchmarkKV(b *testing.B) {
	needPorcupine(b)
	spec, err := model.Builtin("kv")
	require.NoError(b, err)
	for _, name := range []string{"c01-ok", "c01-bad", "c10-ok", "c10-bad", "c50-ok", "c50-bad"} {
		h, err := format.ReadFile(filepath.Join(porcupineDir, "kv", name+".txt"), format.ReadOptions{Format: "edn"})
		require.NoError(b, err)
		for _, whole := range []bool{false, true} {
			if whole && name[:3] == "c50" {
				continue
			}
			mode := "partitioned"
			if whole {
				mode = "unpartitioned"
			}
			b.Run(name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				var res *Result
				for b.Loop() {
					res, err = Check(h, spec, Options{NoPartition: whole})
					require.NoError(b, err)
				}
				b.ReportMetric(float64(res.Configurations), "configs")
			})
		}
	}
}

// BenchmarkQueue compares the bad-pattern procedure with the general
// search on generated linearizable queue histories with unique values.
// The search is run on the small history only: its states are whole queue
// contents, so on long histories it needs far more time and memory.
func BenchmarkQueue(b *testing.B) {
	spec, err := model.Builtin("queue")
	require.NoError(b, err)
	for _, n := range []int{100, 1000} {
		ops := genHistory(rand.New(rand.NewPCG(1, uint64(n))), spec, n, 1, true, false)
		h := &record.History{Name: "gen", Ops: ops}
		for _, algo := range []Algorithm{Auto, General} {
			if algo == General && n > 100 {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, map[Algorithm]string{Auto: "patterns", General: "search"}[algo]), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					res, err := Check(h, spec, Options{Algorithm: algo})
					require.NoError(b, err)
					if res.Verdict != Linearizable {
						b.Fatal(res.Verdict)
					}
				}
			})
		}
	}
}

// BenchmarkStack compares the polynomial stack procedure (patterns, then
// peeling) with the general search on generated linearizable stack
// histories with unique values, widened so that operations overlap more.
// "bad" appends, after everything, a small violation no pattern sees
// (TestStackPeelDecidesWhatPatternsMiss), so the peeling must run to the
// end and refute.
func BenchmarkStack(b *testing.B) {
	spec, err := model.Builtin("stack")
	require.NoError(b, err)
	for _, n := range []int{100, 1000, 10000} {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		ops := genHistory(rng, spec, n, 1, true, false)
		widen(rng, ops, 40)
		good := &record.History{Name: "gen", Ops: ops}
		bad := &record.History{Name: "gen+bad", Ops: append([]record.Op(nil), ops...)}
		t0 := int64(10*n + 1000)
		for _, o := range [][4]int64{{1, 13, 'u', 0}, {4, 31, 'u', 1}, {30, 50, 'u', 2}, {36, 63, 'u', 3},
			{32, 52, 'u', 4}, {51, 77, 'o', 4}, {53, 79, 'o', 0}, {72, 89, 'o', 2}} {
			op := record.Op{Client: len(bad.Ops), Call: t0 + o[0], Return: t0 + o[1], Method: "push"}
			v := fmt.Sprint("bad", o[3])
			if o[2] == 'u' {
				op.Args = []string{v}
			} else {
				op.Method, op.Result = "pop", v
			}
			bad.Ops = append(bad.Ops, op)
		}
		for _, c := range []struct {
			h    *record.History
			want Verdict
		}{{good, Linearizable}, {bad, NotLinearizable}} {
			verdict := map[Verdict]string{Linearizable: "ok", NotLinearizable: "bad"}[c.want]
			// The decision alone; Check adds, for a violation, a search
			// for a prefix and a stuck operation, capped at one second.
			b.Run(fmt.Sprintf("n=%d/%s/decide", n, verdict), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if v, ok := stackDecide(c.h.Ops); !ok || (v == nil) != (c.want == Linearizable) {
						b.Fatal(v, ok)
					}
				}
			})
			for _, algo := range []Algorithm{Auto, General} {
				if algo == General && n > 100 {
					continue
				}
				name := fmt.Sprintf("n=%d/%s/%s", n, verdict, map[Algorithm]string{Auto: "check", General: "search"}[algo])
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						res, err := Check(c.h, spec, Options{Algorithm: algo})
						require.NoError(b, err)
						if res.Verdict != c.want {
							b.Fatal(res.Verdict)
						}
					}
				})
			}
		}
	}
}

// BenchmarkStackNested is the peeling's worst case: k sequential pushes
// then k sequential pops, so each round peels one value (k rounds of O(n)).
func BenchmarkStackNested(b *testing.B) {
	for _, n := range []int{1000, 10000, 40000} {
		k := n / 2
		ops := make([]record.Op, 0, n)
		for i := range n {
			op := record.Op{Client: 1, Call: int64(10 * i), Return: int64(10*i + 5), Method: "push", Args: []string{fmt.Sprint(i)}}
			if i >= k {
				op.Method, op.Args, op.Result = "pop", nil, fmt.Sprint(n-1-i)
			}
			ops = append(ops, op)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v, ok := stackDecide(ops); !ok || v != nil {
					b.Fatal(v, ok)
				}
			}
		})
	}
}
