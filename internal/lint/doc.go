// Package lint holds the repository's style checks that no vet analyser
// makes, run as tests (pebble's habit): fields_test.go holds every
// exported struct field to a doc comment of its own.
package lint
