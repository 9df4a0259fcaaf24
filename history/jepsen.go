package history

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/linbis/linbis/lts"
)

// event is one line of a Jepsen history: an invocation or a completion.
type event struct {
	process int
	typ     string // invoke, ok, fail or info
	f       string
	value   ednValue
	key     string
	// failed says a :fail completion carries an error (an :error field in
	// EDN, a value other than the invocation's in a text log): the
	// operation did not run to a result.
	failed bool
	pos    Pos
}

// CASFail says what a :fail completion of a cas means.
type CASFail int

const (
	// CASFailAuto is Jepsen's reading (CASFailDrop) for EDN and
	// Porcupine's (CASFailFalse) for Jepsen text logs, the format of
	// Porcupine's etcd test data, whose convention it is.
	CASFailAuto CASFail = iota
	// CASFailDrop is Jepsen's meaning: a :fail did not take effect, for
	// every operation; the failed cas is dropped.
	CASFailDrop
	// CASFailFalse is Porcupine's convention: a :fail cas that carries no
	// error is a cas that returned false (the comparison failed), which
	// constrains the register's value during the call. A :fail carrying an
	// error is dropped all the same.
	CASFailFalse
)

// CASFailModes names the CASFail values as --cas-fail spells them.
var CASFailModes = []string{"auto", "drop", "false"}

// ParseCASFail parses a --cas-fail value.
func ParseCASFail(s string) (CASFail, error) {
	for i, m := range CASFailModes {
		if s == m {
			return CASFail(i), nil
		}
	}
	return 0, fmt.Errorf("--cas-fail %q: expected one of %s", s, strings.Join(CASFailModes, ", "))
}

// String names m as --cas-fail spells it.
func (m CASFail) String() string { return CASFailModes[m] }

// ReadEDN reads a Jepsen history in EDN: one vector of operation maps, or a
// sequence of maps (typically one per line). See the package doc; opts
// gives the meaning of a failed cas.
func ReadEDN(r io.Reader, name string, opts ReadOptions) (*History, error) {
	return readEDN(r, name, opts, ednWindow)
}

// readEDN is ReadEDN reading window bytes at least at a time.
func readEDN(r io.Reader, name string, opts ReadOptions, window int) (*History, error) {
	// The events are converted as they are read (ednStream): only a window
	// of the text is held, and no parsed map outlives its event.
	s := newEDNStream(r, name, window)
	evs := make([]event, 0, opts.lines) // Jepsen writes an event per line
	// Events of non-client processes, counted per process, listed in
	// order of first appearance with where that was.
	type skippedProcess struct {
		name   string
		first  Pos
		events int
	}
	var skipped []skippedProcess
	index := map[string]int{}
	texts := map[string]string{} // the event's names, copied out of the window once
	add := func(m *ednValue) error {
		ev, skip, err := mapEvent(&s.er, m)
		if err != nil {
			return err
		}
		if skip != "" {
			k, ok := index[skip]
			if !ok {
				k = len(skipped)
				skip = strings.Clone(skip)
				index[skip] = k
				skipped = append(skipped, skippedProcess{name: skip, first: ev.pos})
			}
			skipped[k].events++
			return nil
		}
		ev.own(texts)
		evs = append(evs, ev)
		return nil
	}
	clock := readingClock{deadline: opts.Deadline}
	var vector *Pos // where the first form starts when it is a vector or list of events
	for forms := 0; ; forms++ {
		end, err := s.atEnd()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if end {
			break
		}
		if clock.expired() {
			line, _ := s.er.lineCol(s.er.pos)
			return nil, deadlineError(name, line)
		}
		if vector != nil {
			// More than one form: the vector was not the history but a
			// form where an event should be.
			return nil, &lts.ParseError{File: name, Line: vector.Line, Col: vector.Col, Msg: notAnEvent}
		}
		closer := map[byte]byte{'[': ']', '(': ')'}[s.er.src[s.er.pos]]
		if forms > 0 || closer == 0 {
			m, err := s.read(0)
			if err == nil {
				err = add(&m)
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		// One vector (or list) of events, as Jepsen writes history.edn:
		// its elements are read one by one as top-level forms are.
		line, col := s.er.lineCol(s.er.pos)
		vector = &Pos{Line: line, Col: col}
		s.er.pos++
		for {
			end, err := s.atEnd()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if end {
				return nil, &lts.ParseError{File: name, Line: line, Col: col, Msg: fmt.Sprintf("unclosed collection: expected %q before the end of input", closer)}
			}
			if s.er.src[s.er.pos] == closer {
				s.er.pos++
				break
			}
			if clock.expired() {
				line, _ := s.er.lineCol(s.er.pos)
				return nil, deadlineError(name, line)
			}
			m, err := s.read(1)
			if err == nil {
				err = add(&m)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	if opts.CASFail == CASFailAuto {
		opts.CASFail = CASFailDrop
	}
	h, err := assemble(evs, name, opts.CASFail)
	if err != nil {
		return nil, err
	}
	h.Format = "edn"
	for _, p := range skipped {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%s:%d:%d: skipped %d events of process %s, which is not a client (the first is here)", name, p.first.Line, p.first.Col, p.events, p.name))
	}
	return h, nil
}

// notAnEvent is the error at a form where an event map should be.
const notAnEvent = "expected an operation map {:process … :type … :f …}"

// own copies ev's text out of the input it was read from (a window of an
// ednStream), names through texts (a history has few of them), so that the
// input can go.
func (ev *event) own(texts map[string]string) {
	name := func(s string) string {
		t, ok := texts[s]
		if !ok {
			t = strings.Clone(s)
			texts[t] = t
		}
		return t
	}
	ev.typ, ev.f, ev.key = name(ev.typ), name(ev.f), name(ev.key)
	ev.value.own()
}

// mapEvent converts one operation map; skip names the process of an
// event of a non-client process (the :nemesis), which is skipped.
func mapEvent(er *ednReader, m *ednValue) (ev event, skip string, err error) {
	if m.kind != ednMap {
		return ev, "", er.errAt(m.off, notAnEvent)
	}
	line, col := er.lineCol(m.off)
	ev.pos = Pos{Line: line, Col: col}
	ev.value = ednValue{kind: ednNil, off: m.off}
	var has [3]bool
	for i := 0; i < len(m.items); i += 2 {
		k, v := &m.items[i], &m.items[i+1]
		if k.kind != ednKeyword {
			continue
		}
		switch k.text {
		case "process":
			has[0] = true
			switch v.kind {
			case ednKeyword, ednSymbol, ednString:
				return ev, v.canon(), nil // :nemesis and other non-client processes
			case ednInt:
			default:
				return ev, "", er.errAt(v.off, ":process: expected an integer (a client) or a name such as :nemesis")
			}
			p, err := strconv.Atoi(v.text)
			if err != nil {
				return ev, "", er.errAt(v.off, ":process out of range")
			}
			ev.process = p
		case "type":
			has[1] = true
			if v.kind != ednKeyword || !validType(v.text) {
				return ev, "", er.errAt(v.off, ":type: expected :invoke, :ok, :fail or :info")
			}
			ev.typ = v.text
		case "f":
			has[2] = true
			if v.kind != ednKeyword && v.kind != ednSymbol && v.kind != ednString {
				return ev, "", er.errAt(v.off, ":f: expected a keyword naming the operation")
			}
			ev.f = v.text
		case "value":
			ev.value = *v
		case "error":
			ev.failed = v.kind != ednNil
		case "key":
			if v.kind == ednNil {
				return ev, "", er.errAt(v.off, ":key: expected a key, found nil")
			}
			ev.key = v.canon()
		}
	}
	for i, name := range []string{":process", ":type", ":f"} {
		if !has[i] {
			return ev, "", er.errAt(m.off, "operation map without %s", name)
		}
	}
	return ev, "", nil
}

func validType(t string) bool {
	return t == "invoke" || t == "ok" || t == "fail" || t == "info"
}

// ReadJepsenLog reads a Jepsen text log (see the package doc); lines that
// are not "jepsen.util -" operation lines are skipped. opts gives the
// meaning of a failed cas.
func ReadJepsenLog(r io.Reader, name string, opts ReadOptions) (*History, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var evs []event
	line := 0
	clock := readingClock{deadline: opts.Deadline}
	for sc.Scan() {
		line++
		if clock.expired() {
			return nil, deadlineError(name, line)
		}
		text := sc.Text()
		const marker = "jepsen.util - "
		at := strings.Index(text, marker)
		if at < 0 {
			continue
		}
		ev, err := logEvent(text, at+len(marker), name, line)
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		return nil, &lts.ParseError{File: name, Line: line + 1, Col: 1, Msg: "unreadable line: " + err.Error()}
	}
	if opts.CASFail == CASFailAuto {
		opts.CASFail = CASFailFalse
	}
	h, err := assemble(evs, name, opts.CASFail)
	if err == nil {
		h.Format = "jepsen-log"
	}
	return h, err
}

// logEvent parses "PROC :TYPE :F VALUE" starting at byte start of text.
func logEvent(text string, start int, name string, line int) (event, error) {
	er := &ednReader{src: text, name: name, pos: start}
	fix := func(err error) error {
		var pe *lts.ParseError
		if errors.As(err, &pe) {
			pe.Line = line
		}
		return err
	}
	ev := event{pos: Pos{Line: line, Col: start + 1}}
	var fields [3]ednValue
	for i, what := range []string{"a process number", "an operation type (:invoke, :ok, :fail or :info)", "an operation name such as :read"} {
		if er.atEnd() {
			return ev, fix(er.errAt(er.pos, "expected %s", what))
		}
		v, err := er.read(0)
		if err != nil {
			return ev, fix(err)
		}
		fields[i] = v
	}
	p, err := strconv.Atoi(fields[0].text)
	if fields[0].kind != ednInt || err != nil {
		return ev, fix(er.errAt(fields[0].off, "expected a process number"))
	}
	ev.process = p
	if fields[1].kind != ednKeyword || !validType(fields[1].text) {
		return ev, fix(er.errAt(fields[1].off, "expected an operation type (:invoke, :ok, :fail or :info)"))
	}
	ev.typ = fields[1].text
	if fields[2].kind != ednKeyword {
		return ev, fix(er.errAt(fields[2].off, "expected an operation name such as :read"))
	}
	ev.f = fields[2].text
	ev.value = ednValue{kind: ednNil, off: er.pos}
	if !er.atEnd() {
		if ev.value, err = er.read(0); err != nil {
			return ev, fix(err)
		}
		if !er.atEnd() {
			return ev, fix(er.errAt(er.pos, "unexpected text after the value"))
		}
	}
	// A text log has no :error field: a failure gives the error in place
	// of the value (":fail :read :timed-out").
	ev.failed = ev.typ == "fail" && ev.value.kind == ednKeyword
	return ev, nil
}

// assemble pairs invocations with completions per process (the n-th event
// of the file is time n) following the conventions of the package doc;
// casFail (not CASFailAuto) gives the meaning of a failed cas.
func assemble(evs []event, name string, casFail CASFail) (*History, error) {
	// Most events pair up: half of them are invocations.
	h := &History{Name: name, Ops: make([]Op, 0, len(evs)/2+1)}
	open := map[int]int{} // process -> index of its invocation in h.Ops
	casFalse := 0         // failed cas read as returning false
	nilReads := 0         // reads that returned nil, read as unknown
	keep := make([]bool, 0, len(evs)/2)
	for t, ev := range evs {
		at := func(format string, args ...any) error {
			return &lts.ParseError{File: name, Line: ev.pos.Line, Col: ev.pos.Col, Msg: fmt.Sprintf(format, args...)}
		}
		if ev.typ == "invoke" {
			if i, busy := open[ev.process]; busy {
				return nil, at("process %d invokes %s before its %s of line %d completed", ev.process, ev.f, h.Ops[i].Method, h.Ops[i].Pos.Line)
			}
			op := Op{Client: ev.process, Call: int64(t), Return: Pending, Unknown: true, Method: ev.f, Key: ev.key, Pos: ev.pos}
			switch {
			case ev.value.kind == ednNil:
			case isRead(ev.f):
				// Jepsen clients may put a placeholder or the read's key in
				// the invocation; the result comes with the completion.
			case ev.value.kind == ednVector && isCAS(ev.f):
				for i := range ev.value.items {
					op.Args = append(op.Args, ev.value.items[i].canon())
				}
			default:
				op.Args = []string{ev.value.canon()}
			}
			open[ev.process] = len(h.Ops)
			h.Ops = append(h.Ops, op)
			keep = append(keep, true)
			continue
		}
		i, ok := open[ev.process]
		if !ok {
			return nil, at("%s of %s by process %d without an invocation", ev.typ, ev.f, ev.process)
		}
		op := &h.Ops[i]
		if op.Method != ev.f || op.Key != ev.key {
			return nil, at("completion of %s %q by process %d does not match its invocation %s %q on line %d", ev.f, ev.key, ev.process, op.Method, op.Key, op.Pos.Line)
		}
		delete(open, ev.process)
		switch ev.typ {
		case "ok":
			op.Return, op.Unknown = int64(t), false
			op.Result = ev.value.canon()
			switch {
			case isCAS(ev.f):
				op.Result = "true"
			case isRead(ev.f) && ev.value.kind == ednNil:
				// Knossos's models take a nil read as "value not known"
				// (the invocation's nil not yet filled in): it matches any
				// state.
				op.Unknown, op.Result = true, ""
				nilReads++
			}
		case "fail":
			if isCAS(ev.f) && casFail == CASFailFalse && !ev.failed {
				op.Return, op.Unknown, op.Result = int64(t), false, "false"
				casFalse++
			} else {
				keep[i] = false // did not take effect
			}
		case "info":
			// Stays pending: it may take effect at any time after its call.
		}
	}
	out := h.Ops[:0]
	for i, k := range keep {
		if k {
			out = append(out, h.Ops[i])
		}
	}
	h.Ops = out
	if len(evs) == 0 {
		return nil, &lts.ParseError{File: name, Line: 1, Col: 1, Msg: "no operations: expected Jepsen events {:process … :type … :f …}"}
	}
	if nilReads > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("%s: %d reads completed :ok with value nil, taken as Knossos takes them: value not known, matching any state", name, nilReads))
	}
	if casFalse > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("%s: %d :fail cas completions read as a cas that returned false (Porcupine's convention; --cas-fail drop reads them as Jepsen does: not taken effect)", name, casFalse))
	}
	return h, nil
}

func isCAS(f string) bool { return f == "cas" || f == "compare-and-set" }

// isRead reports whether f names a read of a register or a key, whose
// result arrives with the completion.
func isRead(f string) bool { return f == "read" || f == "get" }
