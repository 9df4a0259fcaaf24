package history

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// porcupineDir holds Porcupine's test histories (see shared/histories/README.md).
const porcupineDir = "../../shared/histories/porcupine"

// etcdLinearizable lists the etcd logs Porcupine's test suite expects to
// be linearizable; every other one (except the empty 095) is not.
var etcdLinearizable = map[int]bool{
	2: true, 5: true, 7: true, 18: true, 25: true, 31: true, 38: true, 45: true, 48: true,
	49: true, 51: true, 53: true, 56: true, 67: true, 75: true, 76: true, 80: true, 87: true,
	92: true, 98: true, 100: true, 101: true, 102: true,
}

func needPorcupine(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(porcupineDir); err != nil {
		tb.Skipf("Porcupine histories not found at %s (shared/ must sit beside the repository): %v", porcupineDir, err)
	}
}

func etcdFile(i int) string {
	return filepath.Join(porcupineDir, "jepsen", fmt.Sprintf("etcd_%03d.log", i))
}

func expectEtcd(i int) Verdict {
	if etcdLinearizable[i] || i == 95 { // 095 is empty: linearizable, as Knossos and Porcupine say
		return Linearizable
	}
	return NotLinearizable
}

// TestPorcupineEtcd checks every etcd log under Jepsen's reading (the
// default: a failed cas did not take effect, a read of nil is not known,
// as in Knossos) and under Porcupine's (a failed cas returned false, a
// read of nil found no value); on these logs they agree.
func TestPorcupineEtcd(t *testing.T) {
	needPorcupine(t)
	spec, err := model.Builtin("cas-register")
	require.NoError(t, err)
	for i := 0; i <= 102; i++ {
		for _, opts := range []format.ReadOptions{{}, {CASFail: record.CASFailFalse, NilRead: record.NilReadAbsent}} {
			t.Run(fmt.Sprintf("etcd_%03d/cas-fail=%s,nil-read=%s", i, opts.CASFail, opts.NilRead), func(t *testing.T) {
				h, err := format.ReadFile(etcdFile(i), opts)
				require.NoError(t, err)
				res, err := Check(h, spec, Options{})
				require.NoError(t, err)
				assert.Equal(t, expectEtcd(i), res.Verdict)
				if res.Verdict == NotLinearizable {
					require.NotNil(t, res.Failure)
					assert.GreaterOrEqual(t, res.Failure.Stuck, 0, "a failing search names the operation it cannot place")
					checkEvidence(t, h, spec, res.Failure)
				}
			})
		}
	}
}

func TestPorcupineKV(t *testing.T) {
	needPorcupine(t)
	spec, err := model.Builtin("kv")
	require.NoError(t, err)
	for _, c := range []string{"c01", "c10", "c50"} {
		for _, kind := range []string{"ok", "bad"} {
			name := c + "-" + kind
			want := Linearizable
			if kind == "bad" {
				want = NotLinearizable
			}
			h, err := format.ReadFile(filepath.Join(porcupineDir, "kv", name+".txt"), format.ReadOptions{Format: "auto"})
			require.NoError(t, err)
			t.Run(name+"/partitioned", func(t *testing.T) {
				res, err := Check(h, spec, Options{})
				require.NoError(t, err)
				assert.Equal(t, want, res.Verdict)
				assert.Equal(t, len(h.Keys()), res.Partitions)
				if res.Verdict == NotLinearizable {
					checkEvidence(t, h, spec, res.Failure)
				}
			})
			if c == "c50" {
				continue // unpartitioned c50 is out of reach (as for Porcupine)
			}
			t.Run(name+"/unpartitioned", func(t *testing.T) {
				res, err := Check(h, spec, Options{NoPartition: true})
				require.NoError(t, err)
				assert.Equal(t, want, res.Verdict)
				assert.Equal(t, 1, res.Partitions)
			})
		}
	}
}

// TestPorcupineKVMemory checks what the searches of Porcupine's largest kv
// history hold at most, partition after partition in one worker's memory
// as Check runs them: the step table stops growing at its bound and each
// key's values are a tree of appended values, not a text per state (which,
// with the table unbounded, held several times as much: benchmarks/RESULTS.md,
// "history: linbis vs Porcupine").
func TestPorcupineKVMemory(t *testing.T) {
	needPorcupine(t)
	h, err := format.ReadFile(filepath.Join(porcupineDir, "kv", "c50-ok.txt"), format.ReadOptions{Format: "auto"})
	require.NoError(t, err)
	spec, err := model.Builtin("kv")
	require.NoError(t, err)
	b := &budget{}
	x := &scratch{}
	for _, group := range spec.Partition(h.Ops) {
		r := search(h.Ops, group, spec, stop{budget: b}, x)
		require.Equal(t, Linearizable, r.verdict)
	}
	t.Logf("peak held: %.1f MiB", float64(b.peak.Load())/(1<<20))
	assert.Less(t, b.peak.Load(), int64(12<<20))
}
