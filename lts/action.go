package lts

import (
	"fmt"
	"strconv"
	"strings"
)

// Action is a visible call or return event, parsed from a label in the
// syntax of README.md, "Labels": call(T,M,ARGS) and ret(T,M,VAL).
type Action struct {
	Call   bool   // true for call, false for ret
	Thread int32  // thread number, from 1
	Method string // method name
	Value  string // arguments of a call, result of a return ("" for none)
}

// MaxThread is the largest thread number ParseAction accepts.
const MaxThread = 4096

// ParseAction parses a call or ret label: "call(T,M)" or "call(T,M,ARGS)",
// "ret(T,M)" or "ret(T,M,VAL)", with 1 ≤ T ≤ MaxThread and M a name
// without parentheses or blanks; spaces after commas are allowed. ok is
// false for anything else, including a label that starts like a call but
// does not parse.
func ParseAction(label string) (a Action, ok bool) {
	var body string
	switch {
	case strings.HasPrefix(label, "call(") && strings.HasSuffix(label, ")"):
		a.Call, body = true, label[len("call("):len(label)-1]
	case strings.HasPrefix(label, "ret(") && strings.HasSuffix(label, ")"):
		body = label[len("ret(") : len(label)-1]
	default:
		return Action{}, false
	}
	tid, after, found := strings.Cut(body, ",")
	if !found {
		return Action{}, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(tid), 10, 32)
	if err != nil || n < 1 || n > MaxThread {
		return Action{}, false
	}
	method, value, _ := strings.Cut(after, ",")
	a.Thread, a.Method, a.Value = int32(n), strings.TrimSpace(method), strings.TrimSpace(value)
	if a.Method == "" || strings.ContainsAny(a.Method, "() \t") {
		return Action{}, false
	}
	return a, true
}

// String renders the action as a person reads it: "push(1)", "pop() → 2".
func (a Action) String() string {
	if a.Call {
		return fmt.Sprintf("call %s(%s)", a.Method, a.Value)
	}
	if a.Value == "" {
		return fmt.Sprintf("ret %s", a.Method)
	}
	return fmt.Sprintf("ret %s → %s", a.Method, a.Value)
}
