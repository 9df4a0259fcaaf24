package frontend

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linbis/linbis/frontend/syntax"
)

// linBlock is a fenced `lin` code block of LANGUAGE.md.
var linBlock = regexp.MustCompile("(?s)```lin\n(.*?)```")

// declStart tells a list of declarations from statements.
var declStart = regexp.MustCompile(`^(heap|word|shared|method|proc|init)\b`)

// docModel turns a LANGUAGE.md example into a model, as the document
// says: a complete model as it is, declarations inside an object with a
// few standard ones, statements as the body of that object's method m.
func docModel(example string) string {
	first := strings.TrimSpace(example)
	for strings.HasPrefix(first, "//") {
		_, first, _ = strings.Cut(first, "\n")
		first = strings.TrimSpace(first)
	}
	const decls = "  heap Node { value int; next ref Node }\n  shared x int = 0\n  shared y int = 0\n  shared Top ref Node = null\n"
	switch {
	case strings.HasPrefix(first, "object"):
		return example
	case declStart.MatchString(first):
		if !strings.Contains(example, "method ") {
			example += "\nmethod m() { skip }\n"
		}
		return "object Example {\n" + decls + example + "\n}\nspec auto\n"
	}
	return "object Example {\n" + decls + "  method m() {\n" + example + "\n  }\n}\nspec auto\n"
}

// TestLanguageDocExamples compiles every example of LANGUAGE.md, so that
// the document cannot drift from the parser, and requires every keyword
// of the language to appear in one of them.
func TestLanguageDocExamples(t *testing.T) {
	doc, err := os.ReadFile("LANGUAGE.md")
	require.NoError(t, err)
	blocks := linBlock.FindAllStringSubmatch(string(doc), -1)
	require.GreaterOrEqual(t, len(blocks), 9)
	all := ""
	for i, b := range blocks {
		src := docModel(b[1])
		all += b[1]
		m, err := Parse("LANGUAGE.md example", []byte(src))
		require.NoError(t, err, "example %d:\n%s", i+1, src)
		bounds := m.DefaultBounds()
		bounds.Threads = min(bounds.Threads, 2)
		if bounds.Ops > 1 {
			bounds.Ops = 1
		}
		_, _, err = Compile(m, bounds, Options{MaxStates: 200_000})
		require.NoError(t, err, "example %d:\n%s", i+1, src)
	}
	words := regexp.MustCompile(`[A-Za-z_]+`).FindAllString(all, -1)
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for tok := syntax.Token(0); tok < 127; tok++ {
		if tok.IsKeyword() {
			assert.True(t, seen[tok.String()], "no example uses the keyword %s", tok)
		}
	}
}
