package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

// A generated history is the record of a simulated linearizable object:
// at each tick one of the clients either calls an operation (if idle) or
// completes the one it has running, which takes effect at that moment, so
// its result is the object's answer then. The chance of a call at each tick
// sets the overlap: with callChance 0.35 about one client in three is busy.

// genKind names a generated family.
type genKind struct {
	name  string // file name prefix
	model string // the linbis model, and the Porcupine model of the harness
	keys  int    // independent keys (kv)
	stale bool   // one read made stale: not linearizable
}

var kinds = []genKind{
	{name: "register", model: "register"},
	{name: "register-stale", model: "register", stale: true},
	{name: "cas-register", model: "cas-register"},
	{name: "kv", model: "kv", keys: 10},
}

// jsonOp is one line of linbis's JSON Lines format.
type jsonOp struct {
	Client int    `json:"client"`          // the client that ran it
	Call   int64  `json:"call"`            // its call's time
	Return int64  `json:"return"`          // its return's time
	Method string `json:"method"`          // the operation: read, write or cas (registers); get, put or append (kv)
	Key    string `json:"key,omitempty"`   // the key it acts on; "" for a model without keys
	Input  any    `json:"input,omitempty"` // its argument; nil for a read or get
	Output any    `json:"output"`          // a read's or get's value, a cas's success; nil for the others
}

const (
	clients    = 10
	callChance = 0.35
	values     = 1000 // distinct values written
)

// generate simulates n operations of kind k.
func generate(k genKind, n int, seed uint64) []jsonOp {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	state := map[string]any{} // key -> value; absent: nil (register) or "" (kv)
	running := make([]int, clients)
	for c := range running {
		running[c] = -1
	}
	var ops []jsonOp
	var busy []int
	t := int64(0)
	done := 0
	for done < n {
		t++
		if c := rng.IntN(clients); running[c] < 0 && len(ops) < n && (len(busy) == 0 || rng.Float64() < callChance) {
			running[c] = len(ops)
			busy = append(busy, c)
			ops = append(ops, newCall(k, rng, c, t))
			continue
		}
		if len(busy) == 0 {
			continue
		}
		b := rng.IntN(len(busy))
		c := busy[b]
		busy[b] = busy[len(busy)-1]
		busy = busy[:len(busy)-1]
		op := &ops[running[c]]
		running[c] = -1
		op.Return = t
		complete(k, op, state)
		done++
	}
	if k.stale {
		makeStale(ops, rng)
	}
	return ops
}

// newCall invents the next operation of client c.
func newCall(k genKind, rng *rand.Rand, c int, t int64) jsonOp {
	op := jsonOp{Client: c, Call: t}
	if k.keys > 0 {
		op.Key = strconv.Itoa(rng.IntN(k.keys))
	}
	v := rng.IntN(values)
	switch r := rng.IntN(10); {
	case r < 5:
		op.Method = "read"
		if k.model == "kv" {
			op.Method = "get"
		}
	case k.model == "cas-register" && r < 8:
		op.Method, op.Input = "cas", []any{rng.IntN(values / 100), v % (values / 100)}
	case k.model == "kv" && r < 8:
		op.Method, op.Input = "append", "x"+strconv.Itoa(v%10)
	default:
		op.Method, op.Input = "write", v
		if k.model == "cas-register" {
			op.Input = v % (values / 100) // small values, so that cas succeeds now and then
		}
		if k.model == "kv" {
			op.Method, op.Input = "put", "v"+strconv.Itoa(v)
		}
	}
	return op
}

// complete applies op to the object at its return and records its result.
func complete(k genKind, op *jsonOp, state map[string]any) {
	cur, ok := state[op.Key]
	if !ok && k.model == "kv" {
		cur = ""
	}
	switch op.Method {
	case "read", "get":
		op.Output = cur
	case "write", "put":
		state[op.Key] = op.Input
	case "append":
		state[op.Key] = cur.(string) + op.Input.(string)
	case "cas":
		in := op.Input.([]any)
		hit := ok && cur == in[0]
		if hit {
			state[op.Key] = in[1]
		}
		op.Output = hit
	}
}

// makeStale changes the result of one read in the last tenth of the
// history to the value the register held before the last write preceding
// the read in real time (the two writes in that order in real time, none
// concurrent with the read): a stale read, which no linearization explains.
func makeStale(ops []jsonOp, rng *rand.Rand) {
	for tries := 0; tries < 1000; tries++ {
		r := len(ops) - 1 - rng.IntN(len(ops)/10+1)
		if ops[r].Method != "read" || ops[r].Output == nil {
			continue
		}
		// The last two writes that returned before the read was called, and no
		// write concurrent with the read.
		var before []int
		clean := true
		for i := range ops {
			if ops[i].Method != "write" {
				continue
			}
			switch {
			case ops[i].Return < ops[r].Call:
				before = append(before, i)
			case ops[i].Call < ops[r].Return:
				clean = false
			}
		}
		if !clean || len(before) < 2 {
			continue
		}
		w1, w2 := ops[before[len(before)-2]], ops[before[len(before)-1]]
		if w1.Return >= w2.Call {
			continue // the two writes overlap: either order would do
		}
		old := w1.Input
		if old == ops[r].Output {
			continue
		}
		ops[r].Output = old
		return
	}
	panic("no read could be made stale")
}

// writeHistory writes ops as JSON Lines to path.
func writeHistory(path string, ops []jsonOp) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range ops {
		if err := enc.Encode(&ops[i]); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileName names the generated file of kind k with n operations.
func fileName(k genKind, n int) string { return fmt.Sprintf("%s-%d.jsonl", k.name, n) }
