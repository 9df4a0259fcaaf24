package lts

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/internal/mcrl2check"
)

// TestMCRL2ActionsKeepLinbisLabels: the labels linbis's models produce are
// mCRL2 terms as they stand, so nothing is renamed and the declarations
// overload call and ret by argument pattern.
func TestMCRL2ActionsKeepLinbisLabels(t *testing.T) {
	labels := []string{TauName, "call(1,push,1)", "ret(1,push)", "call(2,pop)", "ret(2,pop,EMPTY)", "ret(2,pop,-1)",
		"call(1,add,3)", "ret(1,add,true)", "ret(1,add,false)", "lin(1,push,1)", "call(1,cas,1,2)", "ret(1,read,0)"}
	m := NewMCRL2Actions(labels)
	assert.Nil(t, m.Renamed())
	for _, l := range labels {
		assert.Equal(t, l, m.Name(l))
	}
	assert.Equal(t, `sort Name = struct EMPTY | add | cas | pop | push | read;
act
  call: Int # Name;
  call: Int # Name # Int;
  call: Int # Name # Int # Int;
  lin: Int # Name # Int;
  ret: Int # Name;
  ret: Int # Name # Bool;
  ret: Int # Name # Int;
  ret: Int # Name # Name;
`, withoutComments(m.Declarations()))
}

// TestMCRL2ActionsRename: keywords and predefined names get an underscore,
// consistently; labels that are not terms become one action each, never
// merged with another label.
func TestMCRL2ActionsRename(t *testing.T) {
	m := NewMCRL2Actions([]string{"call(1,sum,1)", "ret(1,sum)", "max(2)", "SEND !1", "SEND_1", "a b", "a_b", "call(1,push,01)", "x()", "Name"})
	assert.Equal(t, map[string]string{"call(1,sum,1)": "call(1,sum_,1)", "ret(1,sum)": "ret(1,sum_)", "max(2)": "max_(2)",
		"SEND !1": "SEND__1", "a b": "a_b_", "call(1,push,01)": "call_1_push_01_", "x()": "x__"}, m.Renamed())
	assert.Contains(t, m.Declarations(), "sort Name_ = struct sum_;")
}

// TestMCRL2ActionsRandom: on random label sets mixing terms, keywords and
// odd characters, the naming is one-to-one, keeps every label that is
// already a term of unreserved identifiers, and the declarations, read by
// mcrl2check's own parser, declare every name with its argument sorts.
func TestMCRL2ActionsRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	words := []string{"call", "ret", "push", "pop", "EMPTY", "sum", "max", "map", "true", "false", "Name", "x'", "_y", "tau"}
	args := append(words, "0", "1", "-3", "01", "a b", "")
	for i := 0; i < 2000; i++ {
		var labels []string
		for k := rng.Intn(12); k >= 0; k-- {
			l := words[rng.Intn(len(words))]
			if n := rng.Intn(4); n > 0 {
				parts := make([]string, n)
				for j := range parts {
					parts[j] = args[rng.Intn(len(args))]
				}
				l += "(" + strings.Join(parts, ",") + ")"
			}
			if rng.Intn(10) == 0 {
				l += "!"
			}
			labels = append(labels, l)
		}
		m := NewMCRL2Actions(labels)
		byName := map[string]string{}
		var names []string
		for _, l := range labels {
			n := m.Name(l)
			if l == TauName {
				require.Equal(t, TauName, n)
				continue
			}
			if prev, ok := byName[n]; ok {
				require.Equal(t, prev, l, "two labels named %s: %v", n, labels)
			}
			byName[n] = l
			names = append(names, n)
			if _, renamed := m.Renamed()[l]; !renamed {
				require.Equal(t, l, n)
			}
			if tm, ok := parseMCRL2Term(l); ok && !mcrl2Reserved[tm.action] && !anyReserved(tm.args) {
				require.Equal(t, l, n, "a term of unreserved identifiers was renamed")
			}
		}
		d, err := mcrl2check.ParseDeclarations(m.Declarations())
		require.NoError(t, err, "%v:\n%s", labels, m.Declarations())
		require.NoError(t, d.Declared(names), "%v:\n%s", labels, m.Declarations())
		for c := range d.Constructor {
			require.False(t, mcrl2Reserved[c], "constructor %s is reserved", c)
		}
	}
}

func anyReserved(args []string) bool {
	for _, a := range args {
		if mcrl2Reserved[a] && a != "true" && a != "false" {
			return true
		}
	}
	return false
}

func withoutComments(s string) string {
	var sb strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(line, "%") {
			fmt.Fprint(&sb, line)
		}
	}
	return sb.String()
}
