package progress

import (
	"errors"
	"fmt"
	"strings"

	"github.com/linbis/linbis/lts"
)

// Property is a progress property of a concurrent object (see the package
// documentation for the exact definition of each).
type Property int

const (
	// LockFree: no reachable cycle keeps an operation pending and returns nothing.
	LockFree Property = iota
	// WaitFree: no thread takes infinitely many steps of one pending operation.
	WaitFree
	// ObstructionFree: a thread running alone completes its operation.
	ObstructionFree
	// DeadlockFree: no reachable state has a pending operation and no enabled step.
	DeadlockFree
	// StarvationFree: under weak fairness every pending operation completes.
	StarvationFree
)

// AllProperties lists every property in the order they are reported.
var AllProperties = []Property{LockFree, WaitFree, ObstructionFree, DeadlockFree, StarvationFree}

var propertyNames = [...]string{"lockfree", "waitfree", "obstructionfree", "deadlockfree", "starvationfree"}

// String returns the property's command-line name, e.g. "lockfree".
func (p Property) String() string {
	if p < 0 || int(p) >= len(propertyNames) {
		return fmt.Sprintf("Property(%d)", int(p))
	}
	return propertyNames[p]
}

// Title returns the property's name as prose, e.g. "lock-free".
func (p Property) Title() string {
	return strings.Replace(p.String(), "free", "-free", 1)
}

// MarshalText encodes the property by name, so that JSON shows "lockfree".
func (p Property) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText decodes a property name.
func (p *Property) UnmarshalText(b []byte) error {
	q, err := ParseProperty(string(b))
	if err == nil {
		*p = q
	}
	return err
}

// ParseProperty parses a property name: "lockfree", "waitfree",
// "obstructionfree", "deadlockfree" or "starvationfree". Case and the
// hyphens of "lock-free" are ignored.
func ParseProperty(s string) (Property, error) {
	key := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "-", ""))
	for i, n := range propertyNames {
		if key == n {
			return Property(i), nil
		}
	}
	return 0, fmt.Errorf("unknown progress property %q (want one of %s)", s, strings.Join(propertyNames[:], ", "))
}

// NeedsThreads reports whether deciding p requires thread attribution
// (lts.Meta): every property but LockFree and DeadlockFree does.
func (p Property) NeedsThreads() bool { return p != LockFree && p != DeadlockFree }

// ErrNeedsThreads is wrapped by the error Check returns for a property that
// needs to know which thread took each internal step, on an LTS without
// thread attribution (a plain .aut file) or with a reachable internal step
// attributed to no thread.
var ErrNeedsThreads = errors.New("needs thread attribution")

// Supported returns the properties that can be decided on l: all of them
// when l carries thread attribution, otherwise LockFree and DeadlockFree,
// which need only the call/ret labels. (Check still refuses the
// thread-specific ones if a reachable step is attributed to no thread.)
func Supported(l *lts.LTS) []Property {
	var out []Property
	for _, p := range AllProperties {
		if !p.NeedsThreads() || hasThreads(l) {
			out = append(out, p)
		}
	}
	return out
}

func hasThreads(l *lts.LTS) bool { return l.Meta != nil && l.Meta.Thread != nil }
