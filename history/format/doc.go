// Package format reads recorded histories (record.History) from their
// file formats, and gives their values the canonical text that the models
// compare: the data models of EDN and JSON. Besides the record it uses
// lts.ParseError, so that malformed input is reported as file:line:col
// like every other linbis reader, and the run's context (internal/limits),
// so that a limit stops reading too.
//
// # Formats
//
// JSON Lines (ReadJSONL), one operation per line:
//
//	{"client": 1, "call": 10, "return": 25, "method": "write", "key": "x", "input": 3}
//	{"client": 2, "call": 12, "return": 30, "method": "read", "output": 3}
//	{"client": 3, "call": 14, "return": 40, "method": "cas", "input": [3, 4], "output": true}
//	{"client": 4, "call": 20, "method": "write", "input": 7}
//
// Fields: "client" (integer or string, required) names the thread; "call"
// and "return" are integer timestamps (any unit, only their order matters;
// an operation whose call time equals another's return time is taken as
// concurrent with it); "return" absent or null means the operation is
// pending: it may or may not have taken effect. "method" (required) names
// the operation; "key" (string or number, optional) names the independent
// object the operation acts on; "input" is the argument (an array gives
// several arguments); "output" is the result (null is the absent value
// nil). "unknown": true says the result was not observed (a timed-out read);
// such an output matches anything. Blank lines and lines starting with '#'
// are skipped.
//
// Jepsen EDN (ReadEDN): either one vector of operation maps or one map per
// line, with ';' comments. Each map has :process, :type (:invoke, :ok,
// :fail or :info), :f, :value and optionally :key, :error and :time. The
// events keep Jepsen's meaning (that of Knossos's checkers): an :ok
// completes the process's pending invocation with the result in :value; a
// :fail did not take effect and is dropped, for every :f; an :info (or an
// invocation never completed) stays pending to the end of the history, so
// it may or may not have taken effect; the :value of a read's invocation
// is ignored, and a read completed :ok with value nil is a read whose
// value is not known, matching any state (ReadOptions.NilRead =
// record.NilReadAbsent: a read of no value, Porcupine's reading and the default
// for JSON Lines). ReadOptions.CASFail = record.CASFailFalse reads a :fail cas
// without an :error as a cas that returned false instead (Porcupine's
// convention). Non-integer processes (:nemesis) are skipped with a
// warning; a history without operations is linearizable.
//
// Jepsen text log (ReadJepsenLog), the format of Porcupine's etcd tests:
// lines "INFO  jepsen.util - PROC  :TYPE  :F  VALUE"; other lines are
// skipped, and so are lines of non-client processes (:nemesis). The
// events mean what they mean in EDN; a :fail whose value is a keyword
// (":fail :read :timed-out") carries an error and is dropped.
//
// # Values
//
// Values are held as canonical texts (value.go), equal exactly when the
// values are equal as Jepsen compares them (Clojure's =): typed (the
// string "1" is not the number 1), maps and sets unordered, vectors equal
// to lists, 1.0 = 1.00 but 1 ≠ 1.0 in EDN; JSON numbers compare by value
// (100 = 1e2). Strings that are not UTF-8 are refused.
package format
