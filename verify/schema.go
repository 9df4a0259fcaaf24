package verify

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of `linbis verify --json`, the
// contract for CI users; tests validate every report against it.
//
//go:embed schema.json
var Schema []byte
