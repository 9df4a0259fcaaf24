package golang

import (
	"bufio"
	"errors"
	"fmt"
	"go/constant"
	"go/types"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/linbis/linbis/frontend/syntax"
)

// loaded caches the packages the tests load, by directory under
// testdata: each go/packages load runs the go command.
var loaded = map[string]*Package{}

// load returns the target cfg describes in testdata/dir.
func load(dir string, cfg Config) (*Target, error) {
	p, ok := loaded[dir]
	if !ok {
		var err error
		if p, err = LoadPackage("./testdata/"+dir, ""); err != nil {
			return nil, err
		}
		loaded[dir] = p
	}
	return p.Target(cfg)
}

// names returns the client's method names and the constructor's name.
func names(t *Target) (methods []string, ctor string) {
	for _, m := range t.Methods {
		methods = append(methods, MethodName(m))
	}
	if t.Ctor != nil {
		ctor = t.Ctor.Name()
	}
	return methods, ctor
}

// TestExamplesLoad: every Go example loads inside the subset, with the
// client's methods in declaration order and its constructor.
func TestExamplesLoad(t *testing.T) {
	for _, c := range []struct {
		dir, typ, typeName string
		methods            []string
		ctor               string
		funcs              int
	}{
		{"treiber", "Stack", "Stack[int]", []string{"Push", "Pop"}, "", 2},
		{"msqueue", "Queue", "Queue", []string{"Enqueue", "Dequeue"}, "NewQueue", 5},
		{"spincounter", "Counter", "Counter", []string{"Inc", "Get"}, "", 4},
		{"mutexstack", "Stack", "Stack", []string{"Push", "Pop"}, "", 2},
		{"racecounter", "Counter", "Counter", []string{"Inc", "Get"}, "", 2},
		{"loadstore", "Counter", "Counter", []string{"Inc"}, "", 1},
		{"lencount", "Stack", "Stack", []string{"Push", "Pop", "Length"}, "", 3},
	} {
		tg, err := load(c.dir, Config{Type: c.typ})
		if err != nil {
			t.Errorf("%s: %v", c.dir, err)
			continue
		}
		methods, ctor := names(tg)
		if tg.typeName() != c.typeName || !slices.Equal(methods, c.methods) || ctor != c.ctor || len(tg.Funcs) != c.funcs {
			t.Errorf("%s: type %s, methods %v, constructor %q, %d functions; want %s, %v, %q, %d",
				c.dir, tg.typeName(), methods, ctor, len(tg.Funcs), c.typeName, c.methods, c.ctor, c.funcs)
		}
		// Callees come before their callers.
		pos := map[string]int{}
		for i, f := range tg.Funcs {
			pos[f.Name()] = i
		}
		if c.dir == "msqueue" && !(pos["load"] < pos["Enqueue"] && pos["cas"] < pos["Dequeue"]) {
			t.Errorf("msqueue: functions %v: callees must come first", tg.Funcs)
		}
	}
}

// want is a refusal a `want` comment of testdata/refuse expects.
type want struct {
	line    int
	msg, at string
}

var wantRE = regexp.MustCompile(`// want "([^"]*)"(?: @"([^"]*)")?`)

// TestRefusals loads each type of testdata/refuse, each of which uses
// constructs outside the subset or that the translation refuses, and
// translates those that load; it holds the errors to the file's want
// comments: one error per construct, at its line, its message starting as
// the comment says, and at the column of the text after @. The last type,
// Panic, is inside the subset.
func TestRefusals(t *testing.T) {
	const file = "testdata/refuse/refuse.go"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	var wants []want
	var typeNames []string
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	for n := 1; sc.Scan(); n++ {
		if m := wantRE.FindStringSubmatch(sc.Text()); m != nil {
			wants = append(wants, want{line: n, msg: m[1], at: m[2]})
		}
		if f := strings.Fields(sc.Text()); len(f) > 2 && f[0] == "type" && strings.HasPrefix(f[2], "struct") {
			typeNames = append(typeNames, f[1])
		}
	}
	if len(wants) < 20 || len(typeNames) < 20 {
		t.Fatalf("read %d wants and %d types from %s", len(wants), len(typeNames), file)
	}
	var got []*syntax.Error
	for _, typ := range typeNames {
		tg, err := load("refuse", Config{Type: typ})
		if err == nil {
			_, _, err = tg.Model() // the constructs the translation refuses
		}
		var list syntax.ErrorList
		switch {
		case typ == "Panic" && err != nil:
			t.Errorf("Panic is inside the subset, got %v", err)
		case typ == "Panic":
		case !errors.As(err, &list):
			t.Errorf("%s: want refusals, got %v", typ, err)
		default:
			got = append(got, list...)
		}
	}
	matched := make([]bool, len(wants))
	for _, e := range got {
		ok := false
		for i, w := range wants {
			if matched[i] || e.Pos.Line != w.line || !strings.HasPrefix(e.Msg, w.msg) || !strings.Contains(e.Msg, " is not supported (") {
				continue
			}
			if e.Pos.File != file {
				t.Errorf("%v: reported in file %s, want %s", e, e.Pos.File, file)
			}
			if w.at != "" && !strings.HasPrefix(lines[w.line-1][e.Pos.Col-1:], w.at) {
				t.Errorf("%v: column %d, want the column of %q in %q", e, e.Pos.Col, w.at, lines[w.line-1])
			}
			matched[i], ok = true, true
			break
		}
		if !ok {
			t.Errorf("unexpected error %v", e)
		}
	}
	for i, w := range wants {
		if !matched[i] {
			t.Errorf("%s:%d: no error %q", file, w.line, w.msg)
		}
	}
}

// TestTypeArguments: a generic type gets int for each type parameter
// unless given; given ones are checked and must be in the subset.
func TestTypeArguments(t *testing.T) {
	for _, c := range []struct{ dir, typ, want, err string }{
		{"treiber", "Stack", "Stack[int]", ""},
		{"treiber", "Stack[uint8]", "Stack[uint8]", ""},
		{"ctor", "Pair", "Pair[int, int]", ""},
		{"ctor", "Pair[int8, bool]", "Pair[int8, bool]", ""},
		{"treiber", "Stack[string]", "", "a result of Pop has type string"},
		{"treiber", "Stack[int, int]", "", "Stack has 1 type parameters, got 2 type arguments"},
		{"treiber", "Stack[nosuch]", "", "nosuch is not a type of package treiber"},
		{"ctor", "Pair[[]int, int]", "", "does not satisfy comparable"},
		{"ctor", "Plain[int]", "", "Plain is not generic"},
		{"ctor", "Missing", "", "has no type Missing"},
		{"ctor", "NotStruct", "", "type NotStruct is not a struct"},
		{"ctor", "a.b", "", "expected a type name"},
	} {
		tg, err := load(c.dir, Config{Type: c.typ})
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("--type %s: error %v, want one saying %q", c.typ, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("--type %s: %v", c.typ, err)
		case c.err == "" && tg.typeName() != c.want:
			t.Errorf("--type %s: loaded %s, want %s", c.typ, tg.typeName(), c.want)
		}
	}
}

// TestConstructors: NewT() or New() returning *T, --new with constant
// arguments, else the zero value; the wrong forms are errors.
func TestConstructors(t *testing.T) {
	for _, c := range []struct {
		typ, new, ctor string
		args           []int64
		err            string
	}{
		{"Box", "", "New", nil, ""},
		{"Plain", "", "", nil, ""},
		{"Ring", "NewRing(2)", "NewRing", []int64{2}, ""},
		{"Ring", "NewRing(1 + 2)", "NewRing", []int64{3}, ""},
		{"Ring", "", "", nil, "constructor NewRing has parameters: give its arguments with --new 'NewRing(…)'"},
		{"Ring", "NewRing(x)", "", nil, "undefined: x"},
		{"Ring", "NewRing(2, 3)", "", nil, "too many arguments"},
		{"Ring", "NewRing", "", nil, "expected a call"},
		{"Ring", "New()", "", nil, "New does not return *Ring"},
		{"Ring", "Nothing(1)", "", nil, "has no function Nothing"},
		{"Gen", "", "NewGen[int]", nil, ""},
		{"Gen[uint8]", "NewGen()", "NewGen[uint8]", nil, ""},
	} {
		tg, err := load("ctor", Config{Type: c.typ, New: c.new})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s --new %q: error %v, want one saying %q", c.typ, c.new, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s --new %q: %v", c.typ, c.new, err)
			continue
		}
		var args []int64
		for _, a := range tg.CtorArgs {
			v, _ := constant.Int64Val(a.Value)
			args = append(args, v)
		}
		if _, ctor := names(tg); ctor != c.ctor || !slices.Equal(args, c.args) {
			t.Errorf("%s --new %q: constructor %q%v, want %q%v", c.typ, c.new, ctor, args, c.ctor, c.args)
		}
	}
}

// TestMethods: by default the exported methods the client can call;
// --methods names any, unexported too, in its order.
func TestMethods(t *testing.T) {
	for _, c := range []struct {
		methods []string
		want    []string
		err     string
	}{
		{nil, []string{"Get", "Set"}, ""},
		{[]string{"Set", "reset"}, []string{"Set", "reset"}, ""},
		{[]string{"Name"}, nil, "parameter s of Name has type string: the client passes only integers, bool and any"},
		{[]string{"Nope"}, nil, "*Box has no method Nope"},
	} {
		tg, err := load("ctor", Config{Type: "Box", Methods: c.methods})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("--methods %v: error %v, want one saying %q", c.methods, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("--methods %v: %v", c.methods, err)
		}
		if got, _ := names(tg); !slices.Equal(got, c.want) {
			t.Errorf("--methods %v: %v, want %v", c.methods, got, c.want)
		}
	}
	// The methods an embedded sync.Mutex promotes are not the client's,
	// unless named.
	for _, c := range []struct{ methods, want []string }{
		{nil, []string{"Push", "Pop"}},
		{[]string{"Push", "Unlock"}, []string{"Push", "Unlock"}},
	} {
		tg, err := load("slicestack", Config{Type: "Embedded", Methods: c.methods})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := names(tg); !slices.Equal(got, c.want) {
			t.Errorf("Embedded, --methods %v: %v, want %v", c.methods, got, c.want)
		}
	}
}

// TestLoadErrors: a package that does not exist or does not compile is
// one clear error.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/go.mod", []byte("module m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(dir+"/bad.go", []byte("package bad\n\nfunc f() int { return x }\n"), 0o644)
	_, err := LoadPackage(".", dir)
	if err == nil || err.Error() != "bad.go:3:23: undefined: x" {
		t.Errorf("a package with a type error: %v, want bad.go:3:23: undefined: x", err)
	}
	if _, err := LoadPackage("./nosuchdir", dir); err == nil {
		t.Error("a missing directory loaded")
	}
	if _, err := load("ctor", Config{}); err == nil || !strings.Contains(err.Error(), "--type") {
		t.Errorf("no --type: %v", err)
	}
}

// TestSignedView: an integer is held as its signed view at its type's
// width, and a constant that does not fit in 32 bits is refused.
func TestSignedView(t *testing.T) {
	u64, u32, u8 := types.Typ[types.Uint64], types.Typ[types.Uint32], types.Typ[types.Uint8]
	i64, i32 := types.Typ[types.Int64], types.Typ[types.Int32]
	for _, c := range []struct {
		v    constant.Value
		typ  types.Type
		want int32
		fits bool
	}{
		{constant.MakeUint64(1<<64 - 1), u64, -1, true}, // ^uint64(0)
		{constant.MakeUint64(1<<63 + 5), u64, 0, false},
		{constant.MakeUint64(1 << 31), u32, -1 << 31, true},
		{constant.MakeUint64(255), u8, -1, true},
		{constant.MakeUint64(127), u8, 127, true},
		{constant.MakeInt64(-1 << 31), i32, -1 << 31, true},
		{constant.MakeInt64(1 << 31), i64, 0, false},
		{constant.MakeInt64(-7), i64, -7, true},
	} {
		got, fits := SignedView(c.v, c.typ)
		if fits != c.fits || fits && got != c.want {
			t.Errorf("SignedView(%s, %s) = %d, %v; want %d, %v", c.v, c.typ, got, fits, c.want, c.fits)
		}
	}
}

func ExampleLoad() {
	tg, err := Load("./testdata/lencount", Config{Type: "Stack"})
	if err != nil {
		fmt.Println(err)
		return
	}
	methods, _ := names(tg)
	fmt.Println(tg.typeName(), methods)
	// Output: Stack [Push Pop Length]
}

// TestInsideSubset: every type of testdata/subset, each using a group of
// constructs inside the subset, loads without an error.
func TestInsideSubset(t *testing.T) {
	for _, typ := range []string{"Arrays", "Globals", "Flow", "Any", "Unsafe", "Box", "Quarter"} {
		tg, err := load("subset", Config{Type: typ})
		if err != nil {
			t.Errorf("%s: %v", typ, err)
			continue
		}
		if typ == "Globals" && len(tg.Globals) != 2 {
			t.Errorf("Globals uses %v, want hits and limit", tg.Globals)
		}
	}
}
