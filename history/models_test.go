package history

import (
	"strings"
	"testing"

	"github.com/linbis/linbis/history/model"
	"github.com/linbis/linbis/history/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelTable checks that the table of built-in models is what every
// reader of it sees: Builtin gives each model under its name, its spec
// accepts exactly the table's methods with their arities, the fast
// procedure is the table's and only for the model itself (not the
// product over keys), a history of a model's preferred methods is guessed
// as that model, and the help names every model.
func TestModelTable(t *testing.T) {
	help := model.Help()
	for i := range model.Builtins {
		m := &model.Builtins[i]
		t.Run(m.Name, func(t *testing.T) {
			spec, err := model.Builtin(m.Name)
			require.NoError(t, err)
			assert.Equal(t, m.Name, spec.Name())
			assert.Equal(t, m.Name, model.Names[i])
			for f, n := range m.Methods {
				op := record.Op{Method: f, Unknown: true}
				for range max(n, 0) {
					op.Args = append(op.Args, "1")
				}
				if m.Name == "multi-register" {
					op.Args = []string{"[:r :x nil]"}
				}
				assert.NoError(t, spec.Validate(&op), f)
				if n >= 0 {
					op.Args = append(op.Args, "1")
					assert.Error(t, spec.Validate(&op), "%s with one argument too many", f)
				}
			}
			assert.Error(t, spec.Validate(&record.Op{Method: "frobnicate", Unknown: true}))
			fast := model.FastProcedure(spec)
			assert.Equal(t, m.Fast, fast)
			assert.Equal(t, m.Fast != model.Search, fastDecide[fast] != nil)
			assert.Equal(t, model.Search, model.FastProcedure(newKeyed(spec, nil)), "no fast procedure for the product over keys")
			_, err = model.WithInitial(spec, "0")
			assert.Equal(t, m.Initial == "", err != nil && strings.Contains(err.Error(), "no settable initial value"))
			assert.Contains(t, help, m.Name)
			if len(m.Prefer) > 0 {
				h := &record.History{Name: "h"}
				for _, f := range m.Prefer {
					h.Ops = append(h.Ops, record.Op{Method: f})
				}
				guess, err := model.GuessModel(h)
				require.NoError(t, err)
				assert.Equal(t, m.Name, guess)
			}
		})
	}
	for methods, want := range map[string]string{"read write": "register", "read cas": "cas-register", "enq deq": "queue",
		"get put append": "kv", "push pop": "stack", "txn": "multi-register", "inc read": "counter", "": "register"} {
		h := &record.History{Name: "h"}
		for _, f := range strings.Fields(methods) {
			h.Ops = append(h.Ops, record.Op{Method: f, Key: `"k"`})
		}
		guess, err := model.GuessModel(h)
		require.NoError(t, err)
		assert.Equal(t, want, guess, methods)
	}
	_, err := model.GuessModel(&record.History{Name: "h", Ops: []record.Op{{Method: "push"}, {Method: "enq"}}})
	assert.EqualError(t, err, "h: no built-in model has the methods enq, push: give --model")
}
