#!/bin/bash
# pgo.sh writes default.pgo, the CPU profile that guides the compiler's
# optimisation of linbis (profile-guided optimisation: `go build` and
# `go run` use default.pgo of the main package's directory). It profiles a
# build made without the old profile on the workloads users run most:
# verify (generation, bisimulation, refinement, progress), compile and
# history. Run it from anywhere (`go generate ./cmd/linbis`) after large
# changes to a hot path; a stale profile costs speed, never correctness.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hist=$root/../shared/histories/porcupine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/linbis" "$here"
run() { # NAME ARGS…: profile one command; its verdict does not matter
	name=$1
	shift
	"$tmp/linbis" --cpuprofile "$tmp/$name.pprof" "$@" >/dev/null 2>&1 || true
}
run verify-treiber verify treiber --threads 4 --ops 2 --values 1
run verify-hp verify hp-stack --threads 2 --ops 4
run verify-ms verify ms-queue --threads 3 --ops 2
run verify-hw verify hw-queue --threads 3 --ops 2 --values 1
run verify-shann verify shann-queue
run verify-shann-32 verify shann-queue --threads 3 --ops 2
run compile-treiber-51 compile -q treiber --threads 5 --ops 1 --values 1
run compile-treiber-34 compile -q treiber --threads 3 --ops 4 --values 1
run compile-hp compile -q hp-stack --threads 2 --ops 5 --values 1
if [ -d "$hist" ]; then
	run history-kv-ok history -q "$hist/kv/c50-ok.txt"
	run history-kv-bad history -q "$hist/kv/c50-bad.txt"
	run history-etcd history -q "$hist/jepsen/etcd_002.log"
fi
go tool pprof -proto "$tmp"/*.pprof >"$here/default.pgo"
echo "wrote $here/default.pgo"
