package frontend

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStepListing pins the granularity of the steps (Yang et al.'s
// critical semantic choice) on a model that has every kind of boundary,
// through the instruction listing of `linbis compile --steps`. What it
// shows, by line of the listing:
//   - push: allocating and initialising a node is local work (1); reading
//     Top is shared (2, ▶); the atomic block is one step (3, ▶), inside
//     which nothing ends it (4-6, │), though Top = n and x = x + 1 touch
//     shared state; no text is cut (8).
//   - m: passing a local or constant to bump is local, with no step of
//     its own (9); bump's statements keep their own lines (L6, L7) and
//     its return assigns a (11) and jumps to the end of the inlined body
//     (12); continue outer is a back edge that ends the step (17, ↺),
//     break outer a plain jump out of both loops (15); choose is a local
//     branch (19) whose block writes x (20, ▶).
//   - dead: a local is cleared where it is dead, e.g. d once bump's
//     return has read it (11).
func TestStepListing(t *testing.T) {
	src := `object O {
  heap Node { v int; next ref Node }
  shared Top ref Node = null
  shared x int = 0
  proc bump(d int) int {
    x = x + d
    return x
  }
  method push(v int) {
    n := new Node{v: v}
    n.next = Top
    atomic { Top = n; x = x + 1 }
  }
  method m() int {
    outer: while true {
      a := bump(1)
      while a < 3 {
        if x == 2 { break outer }
        a = a + 1
        continue outer
      }
      choose { x = 0 } or { skip }
    }
    return 0
  }
}
spec auto
`
	want := `method push(v int)
   1    assign    n := new Node{v: v}                      L10  dead: n
   2 ▶  assign    n.next = Top                             L11  dead: v
   3 ▶  atomic    atomic { Top = n; x = x + 1 }            L12  dead: v
   4 │  assign    Top = n                                  L12  dead: v
   5 │  assign    x = x + 1                                L12  dead: v n
   6 │  end       }                                             dead: v n
   7    return    end of push                              L13  dead: v n
   8    ret       ret after a return in an atomic block    L13  dead: v n

method m() int
   9    assign    d := argument                                 dead: a d
  10 ▶  assign    bump: x = x + d                          L6   dead: a
  11 ▶  assign    bump: return x                           L7   dead: a d
  12    jump      → 13                                          dead: d
  13    branch    while a < 3, else → 19                   L17  dead: d
  14 ▶  branch    if x == 2, else → 16                     L18  dead: d
  15    jump      → 23                                          dead: a d
  16    assign    a = a + 1                                L19  dead: d
  17 ↺  jump      continue outer → 9                       L20  dead: a d
  18 ↺  jump      while a < 3 → 13                         L17  dead: d
  19    branch    choose { x = 0 } or { skip }, else → 22  L22  dead: a d
  20 ▶  assign    x = 0                                    L22  dead: a d
  21    jump      → 22                                          dead: a d
  22 ↺  jump      outer: while true → 9                    L15  dead: a d
  23    return    return 0                                 L24  dead: a d
  24    falloff   end of m                                 L25  dead: a d
  25    ret       ret after a return in an atomic block    L25  dead: a d
`
	m, err := Parse("steps.lin", []byte(src))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, ir.Listing(&buf, m.Program, m.Program.Impl, m.DefaultBounds(), ir.Mode{}))
	assert.Equal(t, want, buf.String())
}

// instrLine matches an instruction line of a listing.
var instrLine = regexp.MustCompile(`^ *\d+ `)

// TestListingOfEveryExample prints every bundled model's steps, which
// must name a source line for every instruction that can end a step.
func TestListingOfEveryExample(t *testing.T) {
	for _, name := range Examples() {
		src, err := Example(name)
		require.NoError(t, err)
		m, err := Parse(name+".lin", src)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, Listing(&buf, m, m.DefaultBounds(), Options{}), name)
		lines := 0
		for _, line := range strings.Split(buf.String(), "\n") {
			if instrLine.MatchString(line) {
				lines++
				if strings.ContainsAny(line, "▶↺") {
					assert.Regexp(t, ` L\d+ `, line+" ", "%s: a step boundary without a source line", name)
				}
			}
		}
		assert.Positive(t, lines, name)
	}
}
