package reduce

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ownerLog keeps, in a local array, the owners of a lock word it saw:
// thread ids in a local array, whose every slot the symmetry checker
// must then rename.
const ownerLog = `object OwnerLog {
  shared owner int = 0
  shared hits int = 0
  method grab() bool {
    var seen [2] int
    seen[0] = owner
    ok := cas(owner, 0, tid)
    seen[1] = owner
    if seen[0] == seen[1] { hits = hits + 1 }
    if ok { owner = 0 }
    return ok
  }
}
spec auto`

// TestSymmetryLocalArrays: a local array that receives thread ids is a
// thread-id location as a whole (both its slots), and the
// representatives pass the checks of TestSymmetryCanonicalRepresentatives.
func TestSymmetryLocalArrays(t *testing.T) {
	s := checkSymmetric(t, "ownerlog.lin", ownerLog, rand.New(rand.NewPCG(26, 2)))
	assert.Equal(t, uint64(0b11), s.TidLocals[0]&0b11, "seen[0] and seen[1]")
}

// TestSymmetryRefusesLocalArrayIndex: a thread id as the index of a local
// array is refused (the array's elements would have to move).
func TestSymmetryRefusesLocalArrayIndex(t *testing.T) {
	src := strings.Replace(strings.Replace(ownerLog, "seen[0] = owner", "seen[tid] = owner", 1), "[2] int", "[4] int", 1)
	assert.Contains(t, symmetryRefusal(t, src), "v.lin:6:10: tid is used in the index of a local array")
}
