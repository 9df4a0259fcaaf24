package verify

import (
	"github.com/linbis/linbis/progress"
)

func lasso(res *progress.Result) Evidence {
	expl := res.Explanation
	if expl == "" {
		expl = "a cycle of internal steps with an operation pending and no return: no thread completes an operation"
	}
	return Evidence{Kind: "lasso", Property: res.Property.String(), Trace: res.Lasso, Interleaving: Interleaving(res.Lasso), Explanation: expl}
}
