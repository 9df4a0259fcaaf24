package parallel

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestForEachCallsEachIndexOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		for _, n := range []int{0, 1, 7, 1000} {
			calls := make([]atomic.Int32, n)
			ForEach(workers, n, func(i int) { calls[i].Add(1) })
			for i := range calls {
				assert.Equal(t, int32(1), calls[i].Load(), "workers %d, n %d, index %d", workers, n, i)
			}
		}
	}
}
