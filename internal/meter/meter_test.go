package meter

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMeterRateLimitsAndClears(t *testing.T) {
	var buf bytes.Buffer
	m := New(&buf, time.Hour)
	m.Report("exploring", 10, "states")
	assert.Empty(t, buf.String(), "nothing before the first interval")
	m.interval = 0
	m.Report("exploring", 10, "states")
	assert.Contains(t, buf.String(), "exploring: 10 states")
	m.Done()
	assert.Contains(t, buf.String(), "\r\033[K")
}

func TestNilMeterIsSilent(t *testing.T) {
	var m *Meter
	m.Report("x", 1, "y")
	m.Done()
}
