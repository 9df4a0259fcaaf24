package history

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkEtcdAll parses and checks every etcd log of Porcupine's suite
// (102 histories, cas-register) per iteration.
func BenchmarkEtcdAll(b *testing.B) {
	needPorcupine(b)
	spec, err := Builtin("cas-register")
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i <= 102; i++ {
			if i == 95 {
				continue
			}
			h, err := ReadFile(etcdFile(i), "jepsen-log")
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
	spec, err := Builtin("kv")
	require.NoError(b, err)
	for _, name := range []string{"c01-ok", "c01-bad", "c10-ok", "c10-bad", "c50-ok", "c50-bad"} {
		h, err := ReadFile(filepath.Join(porcupineDir, "kv", name+".txt"), "edn")
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
	spec, err := Builtin("queue")
	require.NoError(b, err)
	for _, n := range []int{100, 1000} {
		ops := genHistory(rand.New(rand.NewPCG(1, uint64(n))), spec, n, 1, true, false)
		h := &History{Name: "gen", Ops: ops}
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
