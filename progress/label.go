package progress

import (
	"strings"

	"github.com/linbis/linbis/lts"
)

// Kind classifies an action label.
type Kind uint8

const (
	// Visible is any visible action that is neither a call nor a return.
	Visible Kind = iota
	// Internal is τ.
	Internal
	// Call is call(T,M,ARGS): thread T invokes method M.
	Call
	// Return is ret(T,M,VAL): thread T's pending invocation of M returns.
	Return
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Internal:
		return "internal"
	case Call:
		return "call"
	case Return:
		return "ret"
	}
	return "visible"
}

// MaxThread is the largest thread number ParseAction accepts; threads are
// numbered from 1 (README.md, "Labels").
const MaxThread = lts.MaxThread

// ParseAction classifies label by the label syntax of README.md, "Labels" (see
// lts.ParseAction): "tau" is Internal; a call or ret of thread T and method
// M is a Call or a Return, with rest the raw ARGS or VAL ("" when absent).
// Anything else — including a label that starts like a call but does not
// parse — is Visible, with thread 0 and method "".
func ParseAction(label string) (kind Kind, thread int32, method, rest string) {
	if label == lts.TauName {
		return Internal, 0, "", ""
	}
	a, ok := lts.ParseAction(label)
	if !ok {
		return Visible, 0, "", ""
	}
	kind = Return
	if a.Call {
		kind = Call
	}
	return kind, a.Thread, a.Method, a.Value
}

// looksLikeOperation reports whether label starts like a call or a return,
// so that a label that does not parse can be pointed out to the user.
func looksLikeOperation(label string) bool {
	return strings.HasPrefix(label, "call") || strings.HasPrefix(label, "ret")
}
