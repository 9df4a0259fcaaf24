package reduce

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/check"
	"github.com/linbis/linbis/frontend/ir"
	"github.com/linbis/linbis/frontend/semantics"
)

var updatePins = flag.Bool("update", false, "rewrite testdata/reductions.golden")

// TestBundledReductionsPinned pins, for every bundled model's
// implementation and specification, whether the symmetry check accepts it
// (or why not) and a digest of the partial-order reduction's footprints
// (what every thread's step from every pc may read and write, and whether
// it tests privacy), at 2 threads, 2 operations, in both heap modes. A
// change to the IR or to the analyses that loses a reduction on a bundled
// model (an expression kind one of them no longer classifies, a location
// it no longer tells apart) shows here as a difference, not as a slower
// search. go test ./frontend/reduce -run Pinned -update rewrites the
// golden file after a change that is meant.
func TestBundledReductionsPinned(t *testing.T) {
	files, err := filepath.Glob("../examples/*.lin")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out strings.Builder
	for _, f := range files {
		prog := parseFile(t, f)
		name := strings.TrimSuffix(filepath.Base(f), ".lin")
		for i, obj := range []*check.Object{prog.Impl, prog.Spec} {
			role := [...]string{"implementation", "specification"}[i]
			for _, explicit := range []bool{false, true} {
				b := ir.Bounds{Threads: 2, Ops: 2, Values: []int{1}}
				sys, err := semantics.NewSystem(prog, obj, b, semantics.Options{Explicit: explicit})
				require.NoError(t, err, name)
				sym := "symmetric"
				if _, why := NewSymmetry(sys.Program, b); why != "" {
					sym = "not symmetric: " + why
				}
				a := NewPOR(sys.Program, b, sys.Allowed, sys.Options.Explicit)
				fmt.Fprintf(&out, "%s %s explicit=%v: %s; footprints %s\n", name, role, explicit, sym, footprintDigest(a))
			}
		}
	}
	golden := filepath.Join("testdata", "reductions.golden")
	if *updatePins {
		require.NoError(t, os.WriteFile(golden, []byte(out.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), out.String())
}

// footprintDigest is the first 8 bytes, in hex, of a SHA-256 over every
// step footprint of a (reads, writes, opaque, privacy test), thread by
// thread and pc by pc.
func footprintDigest(a *POR) string {
	h := sha256.New()
	var buf [8]byte
	word := func(w uint64) {
		binary.LittleEndian.PutUint64(buf[:], w)
		h.Write(buf[:])
	}
	flag := func(b bool) {
		if b {
			word(1)
		} else {
			word(0)
		}
	}
	for t, steps := range a.step {
		for pc, f := range steps {
			for _, w := range f.reads {
				word(w)
			}
			for _, w := range f.writes {
				word(w)
			}
			flag(f.opaque)
			flag(a.stepPriv[t][pc])
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:8])
}
