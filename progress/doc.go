// Package progress decides progress properties of concurrent objects —
// lock-freedom, wait-freedom, obstruction-freedom, deadlock-freedom and
// starvation-freedom — on the LTS of an object under a most-general client,
// and explains every violation by a lasso: a shortest path from the initial
// state to a cycle, and the cycle, step by step with thread and source line.
//
// # Setting
//
// The input is an LTS whose visible actions are call(T,M,ARGS) and
// ret(T,M,VAL) (README.md, "Labels"; see ParseAction); every other visible label
// is just an action. Along an execution, thread T has a pending operation
// between a call(T,…) and the next ret(T,…). An execution is a path from the
// initial state; it is maximal if it is infinite or ends in a state with no
// outgoing transition. With thread attribution (lts.Meta, recorded by the
// frontend) every transition belongs to a thread: a call or ret to the
// thread in its label, an internal step to Meta.Thread (0 = none); thread T
// is enabled at a state if some transition of T leaves it.
//
// The LTS is finite, so the client is bounded (threads × ops) and every
// verdict holds for the bounds the LTS was generated with. With a bounded
// number of operations per thread no cycle contains a call or a ret, so
// every infinite execution ends in a cycle on which the same operations
// stay pending; if, as under a most-general client, only threads with a
// pending operation take internal steps, wait-freedom and lock-freedom then
// coincide (the CAS counter of Yang et al. Fig. 1 is wait-free for every
// bound). The difference — one thread's CAS failing forever while another
// completes operation after operation (Example 1) — shows only in a model
// whose client calls forever ("ops forever"), whose LTS has cycles through
// returns.
//
// # Definitions
//
// The definitions follow Herlihy and Shavit, The Art of Multiprocessor
// Programming (2008), §3.7, made precise over event traces by Liang,
// Hoffmann, Feng and Shao, "Characterizing Progress Properties of
// Concurrent Objects via Contextual Refinements" (CONCUR 2013, Fig. 6), and
// read as LTL over maximal executions (Dongol, "Formalising progress
// properties of non-blocking programs", ICFEM 2006; Yang et al. §5.3). On a
// finite LTS an infinite execution ends in a cycle, so each property below
// that speaks of infinite executions is stated, equivalently, as the absence
// of a reachable cycle of a kind.
//
//   - LockFree (Herlihy–Shavit: "infinitely often some method call
//     finishes"; Liang et al.: sched ⇒ prog-s): no infinite execution has,
//     from some point on, a pending operation at every state and no ret.
//     Equivalently: no reachable cycle has a pending operation at every
//     state and no ret transition. This is the property Yang et al. prove
//     by divergence-sensitive branching bisimilarity (Thm 5.4) and the one
//     the revised hazard-pointer stack violates (§6.3). It needs labels only.
//
//   - WaitFree (Herlihy–Shavit: "every call finishes its execution in a
//     finite number of steps"; Liang et al.: sched ⇒ prog-t): no infinite
//     execution in which some thread T, from some point on, has one pending
//     operation that never returns and takes infinitely many steps.
//     Equivalently: no reachable cycle on which T is pending at every
//     state, which has no ret of T and at least one step of T.
//
//   - ObstructionFree (Herlihy–Shavit: "from any point after which it
//     executes in isolation, it finishes in a finite number of steps";
//     Liang et al.: sched ∧ iso ⇒ prog-t): no reachable state at which T is
//     pending starts an infinite path of steps of T alone without a ret.
//     Equivalently: no reachable cycle made only of steps of T, with T
//     pending and no ret.
//
//   - DeadlockFree: no reachable state at which some operation is pending
//     has no outgoing transition (the finite maximal executions that strand
//     an operation; SPIN's "invalid end states"). Note that Liang et al.'s
//     deadlock-freedom (fair ⇒ prog-s, "lock-freedom under fair
//     scheduling") also excludes weakly fair livelocks; the spin-lock
//     objects it is meant for are livelock-free under fairness, and
//     StarvationFree below is the fair check.
//
//   - StarvationFree, under weak fairness (Herlihy–Shavit: "every thread
//     that attempts to acquire the lock eventually succeeds"; Liang et al.:
//     fair ⇒ prog-t): in every weakly fair maximal execution every pending
//     operation eventually returns. An execution is weakly fair if every
//     thread that is enabled at every state from some point on takes
//     infinitely many steps; finite maximal executions are fair. So it is
//     violated by a stuck state as for DeadlockFree, or by a reachable cycle
//     on which some T is pending throughout, with no ret of T, and on which
//     every thread either takes a step or is disabled at some state.
//
// LockFree and DeadlockFree need only the labels; the other three need to
// know which thread took each internal step, and Check returns an error
// wrapping ErrNeedsThreads on an LTS without thread attribution. Under these
// definitions WaitFree ⇒ LockFree ⇒ ObstructionFree and StarvationFree ⇒
// DeadlockFree (WaitFree ⇒ LockFree when, as in every LTS of a
// most-general client, only threads with a pending operation take internal
// steps); the tests check these implications on random objects.
//
// # Algorithm
//
// annotate gives each reachable state its set of pending threads by one
// breadth-first search, checking that the set is a function of the state
// (see model); when it is not — an LTS reduced modulo an equivalence may
// merge states that differ in it — the checks run on the product of the
// LTS with the pending sets, bounded by Options.MaxProductStates, and
// counterexamples are mapped back to the input's states. Malformed inputs
// (a call while the thread's operation is pending, a ret without one, a
// thread attribution that contradicts a label) are rejected with an
// *InputError and a path to the offending step, never given a verdict. Each property then restricts the transitions to those a
// violating cycle may use — e.g. for lock-freedom: not a ret, between
// states with a pending operation — and runs Tarjan's algorithm (lasso.Decompose,
// iterative) on that subgraph; a violating cycle exists iff some reachable
// strongly connected component has a cycle (and, for the thread-specific
// properties, contains the required witnesses: a step of T, or for
// fairness a step or a disabled state of every thread; within a strongly
// connected component one cycle can visit them all). The lasso's prefix is
// a shortest path in the BFS tree to the first such component met in BFS
// order, and its cycle is assembled from shortest paths inside the
// component through the witnesses. LockFree and DeadlockFree cost
// O(states + transitions); the per-thread properties O(threads · (states +
// transitions)).
package progress
