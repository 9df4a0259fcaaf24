// Package syntax is the scanner, parser and syntax tree of the linbis
// modeling language (see ../LANGUAGE.md). Positions are compact byte
// offsets (Pos) turned into file:line:col only when printed; errors are
// collected into an ErrorList, sorted, one per line.
package syntax
