package progress

import (
	"strconv"
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
// numbered from 1 (ARCHITECTURE.md, "Labels").
const MaxThread = 4096

// ParseAction classifies label by the label syntax of ARCHITECTURE.md:
// "tau" is Internal; "call(T,M)" or "call(T,M,ARGS)" is a Call and
// "ret(T,M)" or "ret(T,M,VAL)" a Return of thread T (1 ≤ T ≤ MaxThread) and
// method M, with rest the raw ARGS or VAL ("" when absent). Spaces after
// commas are allowed. Anything else — including a label that starts like a
// call but does not parse — is Visible, with thread 0 and method "".
func ParseAction(label string) (kind Kind, thread int32, method, rest string) {
	if label == lts.TauName {
		return Internal, 0, "", ""
	}
	var body string
	switch {
	case strings.HasPrefix(label, "call(") && strings.HasSuffix(label, ")"):
		kind, body = Call, label[len("call("):len(label)-1]
	case strings.HasPrefix(label, "ret(") && strings.HasSuffix(label, ")"):
		kind, body = Return, label[len("ret("):len(label)-1]
	default:
		return Visible, 0, "", ""
	}
	tid, after, ok := strings.Cut(body, ",")
	if !ok {
		return Visible, 0, "", ""
	}
	n, err := strconv.ParseInt(strings.TrimSpace(tid), 10, 32)
	if err != nil || n < 1 || n > MaxThread {
		return Visible, 0, "", ""
	}
	method, rest, _ = strings.Cut(after, ",")
	method, rest = strings.TrimSpace(method), strings.TrimSpace(rest)
	if method == "" || strings.ContainsAny(method, "() \t") {
		return Visible, 0, "", ""
	}
	return kind, int32(n), method, rest
}

// looksLikeOperation reports whether label starts like a call or a return,
// so that a label that does not parse can be pointed out to the user.
func looksLikeOperation(label string) bool {
	return strings.HasPrefix(label, "call") || strings.HasPrefix(label, "ret")
}
