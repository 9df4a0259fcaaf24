package format

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fastjson"

	"github.com/linbis/linbis/history/record"
	"github.com/linbis/linbis/lts"
)

// maxLine bounds one input line (JSON Lines, EDN line, Jepsen log line).
const maxLine = 16 << 20

// ReadJSONL reads a history in the JSON Lines schema of the package doc
// (of opts, the deadline and the reading of nil reads apply).
func ReadJSONL(r io.Reader, name string, opts ReadOptions) (*record.History, error) {
	h := &record.History{Name: name, Format: "jsonl", CASFail: opts.CASFail, Ops: make([]record.Op, 0, opts.Lines)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	clock := newReadingClock(opts)
	var lr lineReader
	nilRead, nilReads := opts.NilRead.Or(record.NilReadAbsent), 0
	h.NilRead = nilRead
	for sc.Scan() {
		line++
		if clock.tick() {
			if err := clock.check(name, line); err != nil {
				return nil, err
			}
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		op, err := lr.op(sc.Bytes(), name, line)
		if err != nil {
			return nil, err
		}
		if record.IsRead(op.Method) && !op.Unknown && op.Result == record.Nil {
			if nilRead == record.NilReadUnknown {
				op.Unknown, op.Result = true, ""
			}
			nilReads++
		}
		h.Ops = append(h.Ops, op)
	}
	if err := sc.Err(); err != nil {
		return nil, &lts.ParseError{File: name, Line: line + 1, Col: 1, Msg: "unreadable line: " + err.Error()}
	}
	warnEmpty(h)
	if nilReads > 0 {
		h.Notes = append(h.Notes, nilReadNote(name, nilReads, nilRead))
	}
	warnOverlaps(h)
	return h, nil
}

// maxWarnings bounds the warnings of one kind that are listed one by one.
const maxWarnings = 5

// warnOverlaps warns about operations of one client that overlap in time:
// a client is a thread, which calls one operation at a time. They are
// checked as concurrent all the same (as if from different clients), which
// is why this is a warning and not an error.
func warnOverlaps(h *record.History) {
	// One array of indices sorted by client, then call: a list per client
	// grew by appending, six times the memory.
	order := make([]int32, len(h.Ops))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := cmp.Compare(h.Ops[a].Client, h.Ops[b].Client); c != 0 {
			return c
		}
		return cmp.Compare(h.Ops[a].Call, h.Ops[b].Call)
	})
	var found []string
	count := 0
	for k := 1; k < len(order); k++ {
		prev, op := &h.Ops[order[k-1]], &h.Ops[order[k]]
		if op.Client != prev.Client || op.Call > prev.Return {
			continue
		}
		count++
		if len(found) < maxWarnings {
			ends := fmt.Sprintf("returns at %d", prev.Return)
			if prev.IsPending() {
				ends = "never returns"
			}
			found = append(found, fmt.Sprintf("%s:%d:%d: client %d calls %s at %d, but its %s of line %d %s: a client's operations should not overlap (they are checked as concurrent)",
				h.Name, op.Pos.Line, op.Pos.Col, op.Client, op.Method, op.Call, prev.Method, prev.Pos.Line, ends))
		}
	}
	h.Warnings = append(h.Warnings, found...)
	if count > len(found) {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%s: %d more overlapping operations of one client", h.Name, count-len(found)))
	}
}

// lineReader decodes the lines of one JSON Lines history. Its parser
// (fastjson) reuses its memory from line to line: decoding each line into a
// map with encoding/json made most of the reading time and garbage many
// times the file's size, which set the peak memory of small runs
// (benchmarks/RESULTS.md). Lines the parser rejects are decoded again by
// encoding/json only to report the error, with its position (syntaxError).
type lineReader struct {
	p fastjson.Parser
	// methods interns method names: a history has a handful of them.
	methods map[string]string
	buf     []byte // scratch for values rendered as text
}

// jsonFields are the fields of the schema, in the order of the messages.
var jsonFields = []string{"client", "call", "return", "method", "key", "input", "output", "unknown"}

// op decodes one line of the JSON Lines schema.
func (lr *lineReader) op(text []byte, name string, line int) (record.Op, error) {
	fail := func(field, format string, args ...any) (record.Op, error) {
		col := 1
		if field != "" {
			if i := bytes.Index(text, []byte(`"`+field+`"`)); i >= 0 {
				col = i + 1
			}
		}
		return record.Op{}, &lts.ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	// The parser accepts some text that is not JSON (numbers such as 01);
	// the validator, which allocates nothing, does not.
	if fastjson.ValidateBytes(text) != nil {
		return record.Op{}, syntaxError(text, name, line)
	}
	v, err := lr.p.ParseBytes(text)
	if err != nil {
		return record.Op{}, syntaxError(text, name, line)
	}
	obj, err := v.Object()
	if err != nil {
		return fail("", "expected a JSON object per line, found %s", jsonKind(v))
	}
	unknown := ""
	obj.Visit(func(k []byte, _ *fastjson.Value) {
		if unknown == "" && !slices.Contains(jsonFields, string(k)) {
			unknown = string(k)
		}
	})
	if unknown != "" {
		return fail(unknown, "unknown field %q: expected client, call, return, method, key, input, output or unknown", unknown)
	}
	op := record.Op{Pos: record.Pos{Line: line, Col: 1}}
	// client: an integer, or a name, hashed to a number (names cannot be
	// numbered in order of appearance line by line).
	raw := obj.Get("client")
	if raw == nil {
		return fail("", `missing field "client": expected the client (thread) of the operation`)
	}
	c, err := lr.int(raw)
	if err != nil {
		s, err := raw.StringBytes()
		if err != nil {
			return fail("client", `field "client": expected an integer or a string, found %s`, lr.text(raw))
		}
		c = int64(clientNumber(string(s)))
	}
	op.Client = int(c)
	if op.Call, err = lr.int(obj.Get("call")); err != nil {
		return fail("call", `field "call": expected an integer timestamp`)
	}
	if raw := obj.Get("return"); raw != nil && raw.Type() != fastjson.TypeNull {
		if op.Return, err = lr.int(raw); err != nil {
			return fail("return", `field "return": expected an integer timestamp or null`)
		}
		if op.Return < op.Call {
			return fail("return", `field "return": %d is before the call at %d`, op.Return, op.Call)
		}
		if op.Return == record.Pending {
			return fail("return", `field "return": %d is reserved for pending operations: omit the field instead`, op.Return)
		}
	} else {
		op.Return = record.Pending
		op.Unknown = true
	}
	var method []byte
	if raw := obj.Get("method"); raw != nil {
		method, _ = raw.StringBytes()
	}
	if len(method) == 0 {
		return fail("method", `field "method": expected a non-empty string`)
	}
	if !utf8.Valid(method) {
		return fail("method", `field "method": %v`, errNotUTF8)
	}
	op.Method = lr.intern(method)
	if raw := obj.Get("key"); raw != nil {
		if op.Key, err = lr.scalar(raw); err == errNotUTF8 {
			return fail("key", `field "key": %v`, err)
		} else if err != nil {
			return fail("key", `field "key": expected a string or a number`)
		}
	}
	if raw := obj.Get("input"); raw != nil {
		if raw.Type() == fastjson.TypeArray { // Array() of a non-array makes an error: garbage
			arr, _ := raw.Array()
			for _, a := range arr {
				v, err := lr.value(a)
				if err != nil {
					return fail("input", `field "input": %v`, err)
				}
				op.Args = append(op.Args, v)
			}
		} else {
			v, err := lr.value(raw)
			if err != nil {
				return fail("input", `field "input": %v`, err)
			}
			op.Args = []string{v}
		}
	}
	if raw := obj.Get("output"); raw != nil {
		if op.Result, err = lr.value(raw); err != nil {
			return fail("output", `field "output": %v`, err)
		}
	}
	if raw := obj.Get("unknown"); raw != nil {
		u, err := raw.Bool()
		if err != nil {
			return fail("unknown", `field "unknown": expected true or false`)
		}
		op.Unknown = op.Unknown || u
	}
	return op, nil
}

// syntaxError reports why text is not one JSON object, with the column
// encoding/json finds.
func syntaxError(text []byte, name string, line int) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if dec.More() {
			return &lts.ParseError{File: name, Line: line, Col: 1, Msg: "expected one JSON object per line, found more after it"}
		}
		// Valid for encoding/json but not for the parser: not expected,
		// but a line must never be accepted without being read.
		return &lts.ParseError{File: name, Line: line, Col: 1, Msg: "expected a JSON object"}
	}
	col := 1
	var se *json.SyntaxError
	if errors.As(err, &se) {
		col = int(se.Offset)
	}
	return &lts.ParseError{File: name, Line: line, Col: max(col, 1), Msg: "expected a JSON object: " + err.Error()}
}

// jsonKind names the kind of a JSON value, as encoding/json's messages do.
func jsonKind(v *fastjson.Value) string {
	switch v.Type() {
	case fastjson.TypeArray:
		return "array"
	case fastjson.TypeString:
		return "string"
	case fastjson.TypeNumber:
		return "number"
	case fastjson.TypeTrue, fastjson.TypeFalse:
		return "bool"
	}
	return "null"
}

// clientNumber maps a client name to a stable number (FNV-1a, non-negative).
func clientNumber(s string) int {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return int(h >> 1)
}

// text renders v as compact JSON, as written (valid until the next call).
func (lr *lineReader) text(v *fastjson.Value) []byte {
	lr.buf = v.MarshalTo(lr.buf[:0])
	return lr.buf
}

// int reads an integer written as one (not 1.0 or "1").
func (lr *lineReader) int(v *fastjson.Value) (int64, error) {
	if v == nil {
		return 0, errors.New("missing")
	}
	if v.Type() != fastjson.TypeNumber {
		return 0, errors.New("not a number")
	}
	return strconv.ParseInt(string(lr.text(v)), 10, 64)
}

// intern returns b as a string, shared by equal method names.
func (lr *lineReader) intern(b []byte) string {
	if s, ok := lr.methods[string(b)]; ok {
		return s
	}
	if lr.methods == nil {
		lr.methods = map[string]string{}
	}
	s := string(b)
	lr.methods[s] = s
	return s
}

// scalar returns a string or number in its canonical text.
func (lr *lineReader) scalar(v *fastjson.Value) (string, error) {
	switch v.Type() {
	case fastjson.TypeString, fastjson.TypeNumber:
		return lr.value(v)
	}
	return "", errors.New("not a scalar")
}

// errNotUTF8 is the error of a JSON string that is not UTF-8.
var errNotUTF8 = errors.New("a string that is not UTF-8: expected text in UTF-8")

// value returns the canonical text of a JSON value (value.go): null as
// Nil, numbers by their exact value.
func (lr *lineReader) value(v *fastjson.Value) (string, error) {
	if v.Type() == fastjson.TypeNull {
		return record.Nil, nil
	}
	b, err := lr.appendValue(nil, v)
	return string(b), err
}

// appendValue appends the canonical text of v, null as nil, to b.
func (lr *lineReader) appendValue(b []byte, v *fastjson.Value) ([]byte, error) {
	switch v.Type() {
	case fastjson.TypeNull:
		return append(b, "nil"...), nil
	case fastjson.TypeTrue:
		return append(b, "true"...), nil
	case fastjson.TypeFalse:
		return append(b, "false"...), nil
	case fastjson.TypeString:
		s := v.GetStringBytes()
		if !utf8.Valid(s) {
			return b, errNotUTF8
		}
		return appendQuoted(b, string(s)), nil
	case fastjson.TypeNumber:
		n, ok := exactDecimal(string(lr.text(v)))
		if !ok { // the validator let through no other number
			return b, fmt.Errorf("malformed number %s", lr.text(v))
		}
		return append(b, n...), nil
	case fastjson.TypeArray:
		arr, _ := v.Array()
		b = append(b, '[')
		for i, a := range arr {
			if i > 0 {
				b = append(b, ' ')
			}
			var err error
			if b, err = lr.appendValue(b, a); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	}
	// An object: a map, its entries in the order of their text.
	obj, _ := v.Object()
	var entries []string
	var err error
	obj.Visit(func(k []byte, x *fastjson.Value) {
		if err != nil {
			return
		}
		if !utf8.Valid(k) {
			err = errNotUTF8
			return
		}
		e := append(appendQuoted(nil, string(k)), ' ')
		e, err = lr.appendValue(e, x)
		entries = append(entries, string(e))
	})
	if err != nil {
		return b, err
	}
	slices.Sort(entries)
	return append(append(append(b, '{'), strings.Join(slices.Compact(entries), ", ")...), '}'), nil
}
