package record

// The readings a reader applies to what Jepsen and Porcupine record
// differently: a read that returned nil, a cas completed :fail.

import (
	"fmt"
	"strings"
)

// CASFail says what a :fail completion of a cas means.
type CASFail int

const (
	// CASFailDrop is Jepsen's meaning, the default for every format: a
	// :fail did not take effect, for every operation; the failed cas is
	// dropped.
	CASFailDrop CASFail = iota
	// CASFailFalse is Porcupine's convention: a :fail cas that carries no
	// error is a cas that returned false (the comparison failed), which
	// constrains the register's value during the call. A :fail carrying an
	// error is dropped all the same.
	CASFailFalse
)

// CASFailModes names the CASFail values as --cas-fail spells them.
var CASFailModes = []string{"drop", "false"}

// ParseCASFail parses a --cas-fail value.
func ParseCASFail(s string) (CASFail, error) {
	for i, m := range CASFailModes {
		if s == m {
			return CASFail(i), nil
		}
	}
	return 0, fmt.Errorf("--cas-fail %q: expected one of %s", s, strings.Join(CASFailModes, ", "))
}

// String names m as --cas-fail spells it.
func (m CASFail) String() string { return CASFailModes[m] }

// NilRead says what a read (read, get) that returned nil means.
type NilRead int

const (
	// NilReadAuto is the reading of the format's tool: NilReadUnknown for
	// Jepsen's EDN and text logs (Knossos), NilReadAbsent for JSON Lines
	// (Porcupine, whose etcd model reads nil as a key not there).
	NilReadAuto NilRead = iota
	// NilReadUnknown is Knossos's reading: the value was not observed, and
	// the read matches any state.
	NilReadUnknown
	// NilReadAbsent is Porcupine's: the register or key holds no value
	// (nil, which a register never written holds; kv's empty string).
	NilReadAbsent
)

// NilReadModes names the NilRead values as --nil-read spells them.
var NilReadModes = []string{"auto", "unknown", "absent"}

// ParseNilRead parses a --nil-read value.
func ParseNilRead(s string) (NilRead, error) {
	for i, m := range NilReadModes {
		if s == m {
			return NilRead(i), nil
		}
	}
	return 0, fmt.Errorf("--nil-read %q: expected one of %s", s, strings.Join(NilReadModes, ", "))
}

// String names m as --nil-read spells it.
func (m NilRead) String() string { return NilReadModes[m] }

// Or returns m, or def when m is NilReadAuto.
func (m NilRead) Or(def NilRead) NilRead {
	if m == NilReadAuto {
		return def
	}
	return m
}

// IsCAS reports whether f names a compare-and-set, to which CASFail applies.
func IsCAS(f string) bool { return f == "cas" || f == "compare-and-set" }

// IsRead reports whether f names a read of a register or a key, whose
// result arrives with the completion.
func IsRead(f string) bool { return f == "read" || f == "get" }
