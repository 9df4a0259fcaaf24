package lts

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseAction(t *testing.T) {
	cases := []struct {
		label string
		want  Action
		ok    bool
		text  string
	}{
		{"call(1,push,2)", Action{Call: true, Thread: 1, Method: "push", Value: "2"}, true, "call push(2)"},
		{"call(2,pop)", Action{Call: true, Thread: 2, Method: "pop"}, true, "call pop()"},
		{"ret(2,pop,EMPTY)", Action{Thread: 2, Method: "pop", Value: "EMPTY"}, true, "ret pop → EMPTY"},
		{"ret(1,push)", Action{Thread: 1, Method: "push"}, true, "ret push"},
		{"call(1,put,3,4)", Action{Call: true, Thread: 1, Method: "put", Value: "3,4"}, true, "call put(3,4)"},
		{"tau", Action{}, false, ""},
		{"call(x,push)", Action{}, false, ""},
		{"call(0,push)", Action{}, false, ""},
		{"ret(1)", Action{}, false, ""},
		{"lin(1,push,2)", Action{}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			got, ok := ParseAction(c.label)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.want, got)
			if ok {
				assert.Equal(t, c.text, got.String())
			}
		})
	}
}
