package explore

// testType evaluates x is T (eIs) and x as T (eAs) on a reference to one
// of several node types (check/unions.go): the node's type is read from
// its header, which in a model with several heap types every node has.
func (m *machine) testType(e *expr) int32 {
	id := m.eval(e.a)
	if id == 0 || m.err != nil {
		return 0
	}
	same := m.p.lay.nodeType(m.mem, m.p.lay.nodeAddr(id)) == e.v
	switch {
	case e.k == eAs && !same:
		m.fail("conversion to %s of a node of type %s", e.name, m.p.obj.Heaps[m.p.lay.nodeType(m.mem, m.p.lay.nodeAddr(id))-1].Name)
		return 0
	case e.k == eAs:
		return id
	case same:
		return 1
	}
	return 0
}
