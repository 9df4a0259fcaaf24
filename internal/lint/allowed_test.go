package lint

// undocumentedAllowed lists exported struct fields, as file:Type.Field,
// that may stay without a doc comment of their own for a while (a file
// being rewritten by another change); an entry documented since fails the
// test, so the list only shrinks. Empty: every field is documented.
var undocumentedAllowed = []string{}
