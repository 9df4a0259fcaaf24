package main

import (
	"fmt"
	"io"

	"github.com/linbis/linbis/frontend/historyspec"
	"github.com/linbis/linbis/history/model"
)

// `linbis history FILE --spec M.lin`: the recorded history is checked
// against the atomic spec object of a linbis model, adapted by package
// frontend/historyspec.

// loadSpec reads the model of --spec and adapts its spec object; a model
// with several errors has them written to errw, one per line, as verify
// writes them.
func loadSpec(path string, errw io.Writer) (model.Spec, error) {
	m, err := readModel(path, errw)
	if err != nil {
		return nil, fmt.Errorf("--spec %s: %w", path, err)
	}
	spec, err := historyspec.New(m)
	if err != nil {
		return nil, fmt.Errorf("--spec %s: %w", m.File, err)
	}
	return spec, nil
}
