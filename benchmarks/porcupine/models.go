package main

import (
	"fmt"

	"github.com/anishathalye/porcupine"

	"github.com/linbis/linbis/history/format"
	"github.com/linbis/linbis/history/record"
)

// Porcupine's side of the comparison: the same files, read by linbis's
// reader (so that both sides see the same operations) and converted to
// Porcupine operations, checked with Porcupine's own kind of models (as in
// its test suite: plain Go values as states, == as equality).

// input is a Porcupine operation's input; output is the recorded result.
type input struct {
	method string
	key    string
	arg0   string
	arg1   string
}

type output struct {
	value   string
	unknown bool
}

// porcupineModel returns the Porcupine model for a linbis model name.
func porcupineModel(name string) (porcupine.Model, error) {
	switch name {
	case "register", "cas-register":
		return porcupine.Model{
			Init: func() any { return record.Nil },
			Step: func(state, in, out any) (bool, any) {
				st, i, o := state.(string), in.(input), out.(output)
				switch i.method {
				case "read", "get":
					return o.unknown || o.value == st, st
				case "write", "put":
					return true, i.arg0
				}
				hit := i.arg0 == st
				next := st
				if hit {
					next = i.arg1
				}
				return o.unknown || (o.value == "true") == hit, next
			},
		}, nil
	case "kv":
		return porcupine.Model{
			Partition: partitionByKey,
			Init:      func() any { return "" },
			Step: func(state, in, out any) (bool, any) {
				st, i, o := state.(string), in.(input), out.(output)
				switch i.method {
				case "get", "read":
					return o.unknown || o.value == st, st
				case "put", "write":
					return true, i.arg0
				}
				return true, st + i.arg0
			},
		}, nil
	}
	return porcupine.Model{}, fmt.Errorf("no Porcupine model for %q", name)
}

func partitionByKey(ops []porcupine.Operation) [][]porcupine.Operation {
	index := map[string]int{}
	var parts [][]porcupine.Operation
	for _, op := range ops {
		k := op.Input.(input).key
		p, ok := index[k]
		if !ok {
			p = len(parts)
			index[k] = p
			parts = append(parts, nil)
		}
		parts[p] = append(parts[p], op)
	}
	return parts
}

// porcupineOps converts a linbis history.
func porcupineOps(h *record.History) []porcupine.Operation {
	ops := make([]porcupine.Operation, len(h.Ops))
	for i := range h.Ops {
		op := &h.Ops[i]
		in := input{method: op.Method, key: op.Key}
		// Porcupine's models hold plain Go strings: a string value by its
		// text.
		if len(op.Args) > 0 {
			in.arg0 = format.Text(op.Args[0])
		}
		if len(op.Args) > 1 {
			in.arg1 = format.Text(op.Args[1])
		}
		ops[i] = porcupine.Operation{ClientId: op.Client, Input: in, Call: op.Call, Output: output{format.Text(op.Result), op.Unknown}, Return: op.Return}
	}
	return ops
}
