package lts

import (
	"fmt"
	"strconv"
	"strings"
)

// Action is a visible call or return event, parsed from a label in the
// syntax of ARCHITECTURE.md: call(T,M,ARGS) and ret(T,M,VAL).
type Action struct {
	Call   bool   // true for call, false for ret
	Thread int32  // thread number, from 1
	Method string // method name
	Value  string // arguments of a call, result of a return ("" for none)
}

// ParseAction parses a call or ret label; ok is false for anything else.
func ParseAction(label string) (a Action, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(label, "call(") && strings.HasSuffix(label, ")"):
		a.Call, rest = true, label[5:len(label)-1]
	case strings.HasPrefix(label, "ret(") && strings.HasSuffix(label, ")"):
		rest = label[4 : len(label)-1]
	default:
		return Action{}, false
	}
	parts := strings.SplitN(rest, ",", 3)
	if len(parts) < 2 {
		return Action{}, false
	}
	t, err := strconv.Atoi(parts[0])
	if err != nil || t < 1 {
		return Action{}, false
	}
	a.Thread, a.Method = int32(t), parts[1]
	if len(parts) == 3 {
		a.Value = parts[2]
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
