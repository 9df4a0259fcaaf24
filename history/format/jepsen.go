package format

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/linbis/linbis/history/record"
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
	pos    record.Pos
}

// nilReadNote says how n reads of nil were taken, for History.Notes.
func nilReadNote(name string, n int, m record.NilRead) string {
	if m == record.NilReadAbsent {
		return fmt.Sprintf("%s: %d reads returned nil, taken as Porcupine takes them: no value (--nil-read absent; --nil-read unknown: value not known, as Knossos)", name, n)
	}
	return fmt.Sprintf("%s: %d reads returned nil, taken as Knossos takes them: value not known, matching any state (--nil-read unknown; --nil-read absent: no value, as Porcupine)", name, n)
}

// skippedProcesses counts the events of non-client processes (the
// :nemesis), per process, in order of first appearance.
type skippedProcesses struct {
	index map[string]int
	list  []skippedProcess
}

// skippedProcess is one non-client process: its name, where its first
// event is and how many it has.
type skippedProcess struct {
	name   string
	first  record.Pos
	events int
}

// add counts an event of process name at pos.
func (s *skippedProcesses) add(name string, pos record.Pos) {
	k, ok := s.index[name]
	if !ok {
		if s.index == nil {
			s.index = map[string]int{}
		}
		k = len(s.list)
		name = strings.Clone(name) // out of the reader's window
		s.index[name] = k
		s.list = append(s.list, skippedProcess{name: name, first: pos})
	}
	s.list[k].events++
}

// warn appends a warning per skipped process to h.Warnings.
func (s *skippedProcesses) warn(h *record.History) {
	for _, p := range s.list {
		h.Warnings = append(h.Warnings, fmt.Sprintf("%s:%d:%d: skipped %d events of process %s, which is not a client (the first is here)", h.Name, p.first.Line, p.first.Col, p.events, p.name))
	}
}

// ReadEDN reads a Jepsen history in EDN: one vector of operation maps, or a
// sequence of maps (typically one per line). See the package doc; opts
// gives the meaning of a failed cas.
func ReadEDN(r io.Reader, name string, opts ReadOptions) (*record.History, error) {
	return readEDN(r, name, opts, ednWindow)
}

// readEDN is ReadEDN reading window bytes at least at a time.
func readEDN(r io.Reader, name string, opts ReadOptions, window int) (*record.History, error) {
	// The events are converted as they are read (ednStream): only a window
	// of the text is held, and no parsed map outlives its event.
	s := newEDNStream(r, name, window)
	asm := newAssembler(name, opts, opts.Lines) // Jepsen writes an event per line
	texts := map[string]string{}                // the event's names, copied out of the window once
	add := func(m *ednValue) error {
		ev, skip, err := mapEvent(&s.er, m)
		if err != nil {
			return err
		}
		if skip != "" {
			asm.skipped.add(skip, ev.pos)
			return nil
		}
		ev.own(texts)
		return asm.add(&ev)
	}
	clock := newReadingClock(opts)
	var vector *record.Pos // where the first form starts when it is a vector or list of events
	for forms := 0; ; forms++ {
		end, err := s.atEnd()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if end {
			break
		}
		if clock.tick() {
			line, _ := s.er.lineCol(s.er.pos)
			if err := clock.check(name, line); err != nil {
				return nil, err
			}
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
		vector = &record.Pos{Line: line, Col: col}
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
			if clock.tick() {
				line, _ := s.er.lineCol(s.er.pos)
				if err := clock.check(name, line); err != nil {
					return nil, err
				}
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
	h := asm.finish()
	h.Format = "edn"
	return h, nil
}

// notAnEvent is the error at a form where an event map should be.
const notAnEvent = "expected an operation map {:process … :type … :f …}"

// own copies ev's names out of the input it was read from (a window of an
// ednStream, a line of a log) through texts (a history has few of them),
// so that the input can go; the operation's values are canonical texts of
// their own (ednValue.canon).
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
}

// mapEvent converts one operation map; skip names the process of an
// event of a non-client process (the :nemesis), which is skipped.
func mapEvent(er *ednReader, m *ednValue) (ev event, skip string, err error) {
	if m.kind != ednMap {
		return ev, "", er.errAt(m.off, notAnEvent)
	}
	line, col := er.lineCol(m.off)
	ev.pos = record.Pos{Line: line, Col: col}
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
func ReadJepsenLog(r io.Reader, name string, opts ReadOptions) (*record.History, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	asm := newAssembler(name, opts, opts.Lines)
	texts := map[string]string{} // the event's names, copied out of the line once
	line := 0
	clock := newReadingClock(opts)
	for sc.Scan() {
		line++
		if clock.tick() {
			if err := clock.check(name, line); err != nil {
				return nil, err
			}
		}
		text := sc.Text()
		const marker = "jepsen.util - "
		at := strings.Index(text, marker)
		if at < 0 {
			continue
		}
		ev, skip, err := logEvent(text, at+len(marker), name, line)
		if err != nil {
			return nil, err
		}
		if skip != "" {
			asm.skipped.add(skip, ev.pos)
			continue
		}
		ev.own(texts)
		if err := asm.add(&ev); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &lts.ParseError{File: name, Line: line + 1, Col: 1, Msg: "unreadable line: " + err.Error()}
	}
	h := asm.finish()
	h.Format = "jepsen-log"
	return h, nil
}

// logEvent parses "PROC :TYPE :F VALUE" starting at byte start of text;
// skip names the process of an event of a non-client process (the
// :nemesis), which is skipped.
func logEvent(text string, start int, name string, line int) (ev event, skip string, err error) {
	er := &ednReader{src: text, name: name, pos: start}
	fix := func(err error) error {
		var pe *lts.ParseError
		if errors.As(err, &pe) {
			pe.Line = line
		}
		return err
	}
	ev = event{pos: record.Pos{Line: line, Col: start + 1}}
	var fields [3]ednValue
	for i, what := range []string{"a process number", "an operation type (:invoke, :ok, :fail or :info)", "an operation name such as :read"} {
		if er.atEnd() {
			return ev, "", fix(er.errAt(er.pos, "expected %s", what))
		}
		v, err := er.read(0)
		if err != nil {
			return ev, "", fix(err)
		}
		fields[i] = v
		if i == 0 && (v.kind == ednKeyword || v.kind == ednSymbol || v.kind == ednString) {
			return ev, v.canon(), nil // :nemesis and other non-client processes
		}
	}
	p, err := strconv.Atoi(fields[0].text)
	if fields[0].kind != ednInt || err != nil {
		return ev, "", fix(er.errAt(fields[0].off, "expected a process number or a name such as :nemesis"))
	}
	ev.process = p
	if fields[1].kind != ednKeyword || !validType(fields[1].text) {
		return ev, "", fix(er.errAt(fields[1].off, "expected an operation type (:invoke, :ok, :fail or :info)"))
	}
	ev.typ = fields[1].text
	if fields[2].kind != ednKeyword {
		return ev, "", fix(er.errAt(fields[2].off, "expected an operation name such as :read"))
	}
	ev.f = fields[2].text
	ev.value = ednValue{kind: ednNil, off: er.pos}
	if !er.atEnd() {
		if ev.value, err = er.read(0); err != nil {
			return ev, "", fix(err)
		}
		if !er.atEnd() {
			return ev, "", fix(er.errAt(er.pos, "unexpected text after the value"))
		}
	}
	// A text log has no :error field: a failure gives the error in place
	// of the value (":fail :read :timed-out").
	ev.failed = ev.typ == "fail" && ev.value.kind == ednKeyword
	return ev, "", nil
}

// assembler pairs invocations with completions per process, event by
// event as they are read (the n-th event is time n), following the
// conventions of the package doc and of its options (a failed cas, a read
// of nil): the events are not held, only the operations they make.
type assembler struct {
	h        *record.History
	opts     ReadOptions
	nilRead  record.NilRead
	open     map[int]int // process -> index of its invocation in h.Ops
	keep     []bool      // per operation: false when it did not take effect
	events   int         // events so far, the time of the next
	casFalse int         // failed cas read as returning false
	nilReads int         // reads that returned nil
	skipped  skippedProcesses
}

// newAssembler starts a history called name; events, if positive, is
// about how many events will come (the file's lines).
func newAssembler(name string, opts ReadOptions, events int) *assembler {
	// Most events pair up: half of them are invocations.
	nilRead := opts.NilRead.Or(record.NilReadUnknown)
	h := &record.History{Name: name, NilRead: nilRead, CASFail: opts.CASFail, Ops: make([]record.Op, 0, events/2+1)}
	return &assembler{h: h, opts: opts, nilRead: nilRead, open: map[int]int{}, keep: make([]bool, 0, events/2+1)}
}

// add takes the next event.
func (a *assembler) add(ev *event) error {
	h, t := a.h, a.events
	a.events++
	at := func(format string, args ...any) error {
		return &lts.ParseError{File: h.Name, Line: ev.pos.Line, Col: ev.pos.Col, Msg: fmt.Sprintf(format, args...)}
	}
	if ev.typ == "invoke" {
		if i, busy := a.open[ev.process]; busy {
			return at("process %d invokes %s before its %s of line %d completed", ev.process, ev.f, h.Ops[i].Method, h.Ops[i].Pos.Line)
		}
		op := record.Op{Client: ev.process, Call: int64(t), Return: record.Pending, Unknown: true, Method: ev.f, Key: ev.key, Pos: ev.pos}
		switch {
		case ev.value.kind == ednNil && ev.value.tag == "":
		case record.IsRead(ev.f):
			// Jepsen clients may put a placeholder or the read's key in
			// the invocation; the result comes with the completion.
		case (ev.value.kind == ednVector || ev.value.kind == ednList) && record.IsCAS(ev.f):
			for i := range ev.value.items {
				op.Args = append(op.Args, ev.value.items[i].canon())
			}
		default:
			op.Args = []string{ev.value.canon()}
		}
		a.open[ev.process] = len(h.Ops)
		h.Ops = append(h.Ops, op)
		a.keep = append(a.keep, true)
		return nil
	}
	i, ok := a.open[ev.process]
	if !ok {
		return at("%s of %s by process %d without an invocation", ev.typ, ev.f, ev.process)
	}
	op := &h.Ops[i]
	if op.Method != ev.f || op.Key != ev.key {
		return at("completion of %s %s by process %d does not match its invocation %s %s on line %d", ev.f, record.ShowValue(ev.key), ev.process, op.Method, record.ShowValue(op.Key), op.Pos.Line)
	}
	delete(a.open, ev.process)
	switch ev.typ {
	case "ok":
		op.Return, op.Unknown = int64(t), false
		op.Result = ev.value.canon()
		switch {
		case record.IsCAS(ev.f):
			op.Result = "true"
		case record.IsRead(ev.f) && op.Result == record.Nil:
			// Knossos's models take a nil read as "value not known"
			// (the invocation's nil not yet filled in): it matches any
			// state.
			if a.nilRead == record.NilReadUnknown {
				op.Unknown, op.Result = true, ""
			}
			a.nilReads++
		}
	case "fail":
		if record.IsCAS(ev.f) && a.opts.CASFail == record.CASFailFalse && !ev.failed {
			op.Return, op.Unknown, op.Result = int64(t), false, "false"
			a.casFalse++
		} else {
			a.keep[i] = false // did not take effect
		}
	case "info":
		// Stays pending: it may take effect at any time after its call.
	}
	return nil
}

// finish drops the operations that did not take effect and returns the
// history, with its warnings and notes.
func (a *assembler) finish() *record.History {
	h := a.h
	out := h.Ops[:0]
	for i, k := range a.keep {
		if k {
			out = append(out, h.Ops[i])
		}
	}
	clear(h.Ops[len(out):]) // let the dropped operations' values go
	h.Ops = out
	a.skipped.warn(h)
	warnEmpty(h)
	if a.nilReads > 0 {
		h.Notes = append(h.Notes, nilReadNote(h.Name, a.nilReads, a.nilRead))
	}
	if a.casFalse > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("%s: %d :fail cas completions read as a cas that returned false (Porcupine's convention, --cas-fail false; by default they did not take effect, as in Jepsen)", h.Name, a.casFalse))
	}
	return h
}

// warnEmpty warns when h has no operations: it is linearizable, as
// Knossos and Porcupine say, but a file without any is often a mistake.
func warnEmpty(h *record.History) {
	if len(h.Ops) == 0 {
		h.Warnings = append(h.Warnings, h.Name+": no operations (an empty history is linearizable)")
	}
}
