// Package record holds a recorded concurrent history: its operations (Op,
// a client's call and return of one method on one key, with arguments and
// result, and where it was read from), the absent value Nil, and the
// readings a reader may apply to reads of nil and to failed cas
// operations (NilRead, CASFail). The readers of history/format build
// one, the models of history/model step through its operations, and
// package history decides whether it is linearizable.
package record
