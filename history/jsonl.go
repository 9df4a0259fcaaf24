package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/linbis/linbis/lts"
)

// maxLine bounds one input line (JSON Lines, EDN line, Jepsen log line).
const maxLine = 16 << 20

// ReadJSONL reads a history in the JSON Lines schema of the package doc
// (of opts, only the deadline applies).
func ReadJSONL(r io.Reader, name string, opts ReadOptions) (*History, error) {
	h := &History{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	clock := readingClock{deadline: opts.Deadline}
	for sc.Scan() {
		line++
		if clock.expired() {
			return nil, deadlineError(name, line)
		}
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' {
			continue
		}
		op, err := jsonOp(sc.Bytes(), name, line)
		if err != nil {
			return nil, err
		}
		h.Ops = append(h.Ops, op)
	}
	if err := sc.Err(); err != nil {
		return nil, &lts.ParseError{File: name, Line: line + 1, Col: 1, Msg: "unreadable line: " + err.Error()}
	}
	if len(h.Ops) == 0 {
		return nil, &lts.ParseError{File: name, Line: line + 1, Col: 1, Msg: "no operations: expected one JSON object per line"}
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
func warnOverlaps(h *History) {
	byClient := map[int][]int{}
	for i := range h.Ops {
		byClient[h.Ops[i].Client] = append(byClient[h.Ops[i].Client], i)
	}
	var found []string
	count := 0
	for _, c := range h.Clients() {
		ops := byClient[c]
		sort.SliceStable(ops, func(a, b int) bool { return h.Ops[ops[a]].Call < h.Ops[ops[b]].Call })
		for k := 1; k < len(ops); k++ {
			prev, op := &h.Ops[ops[k-1]], &h.Ops[ops[k]]
			if op.Call > prev.Return {
				continue
			}
			count++
			if len(found) < maxWarnings {
				ends := fmt.Sprintf("returns at %d", prev.Return)
				if prev.IsPending() {
					ends = "never returns"
				}
				found = append(found, fmt.Sprintf("%s:%d:%d: client %d calls %s at %d, but its %s of line %d %s: a client's operations should not overlap (they are checked as concurrent)",
					h.Name, op.Pos.Line, op.Pos.Col, c, op.Method, op.Call, prev.Method, prev.Pos.Line, ends))
			}
		}
	}
	h.Warnings = append(h.Warnings, found...)
	if count > len(found) {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%s: %d more overlapping operations of one client", h.Name, count-len(found)))
	}
}

// jsonOp decodes one line of the JSON Lines schema.
func jsonOp(text []byte, name string, line int) (Op, error) {
	fail := func(field, format string, args ...any) (Op, error) {
		col := 1
		if field != "" {
			if i := bytes.Index(text, []byte(`"`+field+`"`)); i >= 0 {
				col = i + 1
			}
		}
		return Op{}, &lts.ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil {
		col := 1
		var se *json.SyntaxError
		if errors.As(err, &se) {
			col = int(se.Offset)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fail("", "expected a JSON object per line, found %s", te.Value)
		}
		return Op{}, &lts.ParseError{File: name, Line: line, Col: max(col, 1), Msg: "expected a JSON object: " + err.Error()}
	}
	if dec.More() {
		return fail("", "expected one JSON object per line, found more after it")
	}
	op := Op{Pos: Pos{Line: line, Col: 1}}
	known := map[string]bool{"client": true, "call": true, "return": true, "method": true, "key": true, "input": true, "output": true, "unknown": true}
	for k := range fields {
		if !known[k] {
			return fail(k, "unknown field %q: expected client, call, return, method, key, input, output or unknown", k)
		}
	}
	// client: integer, or a string (interned to a number in order of appearance is not
	// possible line by line, so a string must itself be a decimal integer or is hashed).
	raw, ok := fields["client"]
	if !ok {
		return fail("", `missing field "client": expected the client (thread) of the operation`)
	}
	c, err := jsonInt(raw)
	if err != nil {
		var s string
		if string(raw) == "null" || json.Unmarshal(raw, &s) != nil {
			return fail("client", `field "client": expected an integer or a string, found %s`, raw)
		}
		c = int64(clientNumber(s))
	}
	op.Client = int(c)
	if op.Call, err = jsonInt(fields["call"]); err != nil {
		return fail("call", `field "call": expected an integer timestamp`)
	}
	if raw, ok := fields["return"]; ok && string(raw) != "null" {
		if op.Return, err = jsonInt(raw); err != nil {
			return fail("return", `field "return": expected an integer timestamp or null`)
		}
		if op.Return < op.Call {
			return fail("return", `field "return": %d is before the call at %d`, op.Return, op.Call)
		}
		if op.Return == Pending {
			return fail("return", `field "return": %d is reserved for pending operations: omit the field instead`, op.Return)
		}
	} else {
		op.Return = Pending
		op.Unknown = true
	}
	if json.Unmarshal(fields["method"], &op.Method) != nil || op.Method == "" {
		return fail("method", `field "method": expected a non-empty string`)
	}
	if raw, ok := fields["key"]; ok {
		if op.Key, err = jsonScalar(raw); err != nil || op.Key == Nil {
			return fail("key", `field "key": expected a string or a number`)
		}
	}
	if raw, ok := fields["input"]; ok {
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) == nil {
			for _, a := range arr {
				op.Args = append(op.Args, jsonValue(a))
			}
		} else {
			op.Args = []string{jsonValue(raw)}
		}
	}
	if raw, ok := fields["output"]; ok {
		op.Result = jsonValue(raw)
	}
	if raw, ok := fields["unknown"]; ok {
		var u bool
		if json.Unmarshal(raw, &u) != nil {
			return fail("unknown", `field "unknown": expected true or false`)
		}
		op.Unknown = op.Unknown || u
	}
	return op, nil
}

// clientNumber maps a client name to a stable number (FNV-1a, non-negative).
func clientNumber(s string) int {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return int(h >> 1)
}

func jsonInt(raw json.RawMessage) (int64, error) {
	if raw == nil {
		return 0, errors.New("missing")
	}
	return strconv.ParseInt(string(raw), 10, 64)
}

// jsonScalar returns a string or number as text.
func jsonScalar(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	if _, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return string(raw), nil
	}
	return "", errors.New("not a scalar")
}

// jsonValue canonicalises a JSON value: strings as they are, null as Nil,
// numbers and booleans as written, arrays and objects as compact JSON.
func jsonValue(raw json.RawMessage) string {
	if string(raw) == "null" {
		return Nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}
