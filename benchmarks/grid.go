package main

// Case is one point of a grid: a bundled model under client bounds, with
// the verdicts the literature gives and the paper's published figures.
type Case struct {
	Grid    string   // the grid it belongs to: yang, liu, routes, …
	Model   string   // bundled model name (frontend/examples) or file
	Label   string   // how the paper names the case
	Threads int      // the client's threads
	Ops     int      // operations per thread
	Extra   []string // further verify flags, e.g. --values

	// Expected verdicts from the literature ("yes"/"no"; "" = not stated).
	WantLinearizable string
	WantLockFree     string // the literature's lock-freedom verdict, likewise

	// The paper's figures for this case ("" where it has none).
	PaperSpecStates, PaperImplStates string
	PaperBisimSeconds                string // its time for the bisimulation check (Thm 5.4), seconds
	PaperRefineSeconds               string // its time for the refinement check (Thm 3.3), seconds
	PaperSource                      string // the paper and table the figures come from
}

// yangRow is one row of Yang et al., Table 1: spec states, Treiber states,
// Treiber times (Thm 5.4, Thm 3.3), HP states, HP times.
type yangRow struct {
	threads, ops                          int
	spec, tr, trBisim, trRefine, hp, hpBi string
	hpRefine                              string
}

var yangTable1 = []yangRow{
	{2, 1, "70", "81", "0.73", "0.80", "195", "0.76", "0.97"},
	{2, 2, "487", "823", "0.74", "0.92", "7493", "0.80", "2.93"},
	{2, 3, "1678", "3673", "0.81", "2.15", "93352", "1.45", "25.30"},
	{2, 4, "4237", "10999", "0.93", "5.08", "808079", "6.67", "232.02"},
	{2, 5, "8920", "26101", "1.04", "11.04", "5447816", "101.11", "10514.94"},
	{2, 6, "16651", "53197", "1.20", "21.89", "31953747", "283.87", ">16h"},
	{2, 7, "28516", "97435", "1.63", "39.55", "174455921", "1528.88", ">10h"},
	{2, 8, "45769", "164881", "2.14", "63.14", "M.O.", "-", "-"},
	{3, 1, "706", "1036", "2.25", "2.92", "8988", "2.51", "9.11"},
	{3, 2, "12341", "40309", "1.09", "21.48", "4937828", "76.26", ">10h"},
	{3, 3, "77850", "411772", "4.11", "230.60", "M.O.", "-", "-"},
	{3, 4, "314392", "2247817", "19.90", ">10h", "M.O.", "-", "-"},
	{4, 1, "6761", "15595", "0.71", "11.36", "612665", "9.36", "807.35"},
	{4, 2, "304197", "2351919", "22.52", "4665.74", "M.O.", "-", "-"},
	{5, 1, "64351", "261527", "10.48", "816", "60598453", "408.27", ">10h"},
	{6, 1, "616838", "4771785", "141.86", "81316.58", "M.O.", "-", "-"},
}

const yangSource = "Yang et al., Table 1"

// oneValue makes every push push the same value, as Yang et al.'s sizes suggest.
var oneValue = []string{"--values", "1"}

// yangGrid is Yang et al. Table 1: Treiber's stack and the hazard-pointer
// stack over threads × operations, both linearizable and lock-free. Every
// push pushes the same value (--values 1): the paper does not state its
// value domain, and with one value our sizes come closest to its sizes
// (2/1: 88 vs 81 implementation states, 54 vs 70 specification states;
// with values {1,2} they grow about 5× faster per operation).
func yangGrid() []Case {
	stack := func(model, label string, r yangRow, impl, bisim, refine string) Case {
		return Case{
			Grid: "yang", Model: model, Label: label, Threads: r.threads, Ops: r.ops, Extra: oneValue,
			WantLinearizable: "yes", WantLockFree: "yes",
			PaperSpecStates: r.spec, PaperImplStates: impl, PaperBisimSeconds: bisim,
			PaperRefineSeconds: refine, PaperSource: yangSource,
		}
	}
	var cases []Case
	for _, r := range yangTable1 {
		cases = append(cases, stack("treiber", "Treiber", r, r.tr, r.trBisim, r.trRefine))
	}
	for _, r := range yangTable1 {
		cases = append(cases, stack("hp-stack", "HP stack", r, r.hp, r.hpBi, r.hpRefine))
	}
	return cases
}

const liuSource = "Liu et al., Table 1 (time and states without POR)"

// liuGrid follows Liu et al. Table 1: the K-valued register, a stack, the
// MS queue and the buggy queue, with and without linearization points
// where the model has them. Liu et al. bound the data structure's size
// rather than the operations per thread; our bounds are threads × ops,
// so the paper's figures are shown beside ours for shape, not identity.
func liuGrid() []Case {
	return []Case{
		// The bundled register has K = 3 (its array B has 3 cells), one
		// writer and one reader; Liu et al. report K = 4..6 with 2 processes,
		// so their nearest row (4-valued) is shown for shape only.
		{Grid: "liu", Model: "kregister", Label: "3-valued register", Threads: 2, Ops: 2,
			WantLinearizable: "yes", PaperImplStates: "50893", PaperRefineSeconds: "6.14", PaperSource: liuSource + ", 4-valued register"},
		{Grid: "liu", Model: "treiber", Label: "stack", Threads: 2, Ops: 3,
			WantLinearizable: "yes", WantLockFree: "yes", PaperImplStates: "540769", PaperRefineSeconds: "138", PaperSource: liuSource + ", stack of size 12"},
		{Grid: "liu", Model: "treiber-lin", Label: "stack (points)", Threads: 2, Ops: 3, Extra: []string{"--lin-points"},
			WantLinearizable: "yes", WantLockFree: "yes", PaperImplStates: "9677", PaperRefineSeconds: "0.62", PaperSource: liuSource + ", stack of size 12 (points)"},
		{Grid: "liu", Model: "ms-queue", Label: "queue", Threads: 2, Ops: 2,
			WantLinearizable: "yes", WantLockFree: "yes", PaperImplStates: "432511", PaperRefineSeconds: "134", PaperSource: liuSource + ", queue of size 6"},
		{Grid: "liu", Model: "shann-queue", Label: "buggy queue", Threads: 2, Ops: 2,
			WantLinearizable: "no", PaperImplStates: "32126", PaperRefineSeconds: "10.9", PaperSource: liuSource + ", buggy queue of size 10"},
	}
}

// smokeGrid is small enough for CI: one case of each verdict.
func smokeGrid() []Case {
	return []Case{
		{Grid: "smoke", Model: "treiber", Label: "Treiber", Threads: 2, Ops: 1, Extra: oneValue, WantLinearizable: "yes", WantLockFree: "yes",
			PaperSpecStates: "70", PaperImplStates: "81", PaperBisimSeconds: "0.73", PaperRefineSeconds: "0.80", PaperSource: yangSource},
		{Grid: "smoke", Model: "hp-stack", Label: "HP stack", Threads: 2, Ops: 1, Extra: oneValue, WantLinearizable: "yes", WantLockFree: "yes",
			PaperSpecStates: "70", PaperImplStates: "195", PaperBisimSeconds: "0.76", PaperRefineSeconds: "0.97", PaperSource: yangSource},
		{Grid: "smoke", Model: "shann-queue", Label: "buggy queue", Threads: 2, Ops: 2, WantLinearizable: "no"},
	}
}

// grids maps a --grid name to its cases.
var grids = map[string]func() []Case{
	"yang":   yangGrid,
	"liu":    liuGrid,
	"smoke":  smokeGrid,
	"routes": routesGrid,
	"all":    func() []Case { return append(yangGrid(), liuGrid()...) },
}
