package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExportedFieldsDocumented: every exported field of a struct type
// declared at a package's top level, or nested in one (exported or not:
// the JSON records of cmd are unexported types), in the non-test Go files
// outside testdata, has a comment of its own, above it or at the end of
// its line, that says what it holds. A comment above a group of fields
// documents only the first. Embedded fields are exempt: their type's doc
// says what they hold.
func TestExportedFieldsDocumented(t *testing.T) {
	missing := undocumentedFields(t, filepath.Join("..", ".."))
	var bad []string
	for _, m := range missing {
		if !slices.Contains(undocumentedAllowed, m) {
			bad = append(bad, m)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d exported struct fields without a doc comment of their own (say what each holds: its unit, what its zero value means):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
	for _, a := range undocumentedAllowed {
		assert.Contains(t, missing, a, "documented now: take it off undocumentedAllowed")
	}
}

// undocumentedFields returns the exported struct fields without a comment
// of their own under root, as slash-separated file:Type.Field, sorted.
func undocumentedFields(t *testing.T, root string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				out = appendUndocumented(out, filepath.ToSlash(rel)+":"+ts.Name.Name, ts.Type)
			}
		}
		return nil
	})
	require.NoError(t, err)
	slices.Sort(out)
	return out
}

// appendUndocumented appends to out the exported fields without a comment
// of their own of the struct types in typ (itself one, or nested in it),
// named prefix.Field (prefix.Field.Inner for a nested struct's).
func appendUndocumented(out []string, prefix string, typ ast.Expr) []string {
	ast.Inspect(typ, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, fld := range st.Fields.List {
			for _, id := range fld.Names {
				if id.IsExported() && fld.Doc == nil && fld.Comment == nil {
					out = append(out, prefix+"."+id.Name)
				}
			}
			if len(fld.Names) > 0 {
				out = appendUndocumented(out, prefix+"."+fld.Names[0].Name, fld.Type)
			} else {
				out = appendUndocumented(out, prefix, fld.Type)
			}
		}
		return false
	})
	return out
}
