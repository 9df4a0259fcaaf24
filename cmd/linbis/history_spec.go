package main

import (
	"bytes"
	"fmt"

	"github.com/linbis/linbis/frontend/historyspec"
	"github.com/linbis/linbis/history/model"
)

// `linbis history FILE --spec M.lin`: the recorded history is checked
// against the atomic spec object of a linbis model, adapted by package
// frontend/historyspec.

// loadSpec reads the model of --spec and adapts its spec object.
func loadSpec(path string) (model.Spec, error) {
	var errs bytes.Buffer
	m, err := readModel(path, &errs)
	if err != nil {
		return nil, fmt.Errorf("--spec %s: %s%w", path, errs.String(), err)
	}
	spec, err := historyspec.New(m)
	if err != nil {
		return nil, fmt.Errorf("--spec %s: %w", m.File, err)
	}
	return spec, nil
}
