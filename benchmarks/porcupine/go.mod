module github.com/linbis/linbis/benchmarks/porcupine

go 1.26.8

require github.com/linbis/linbis v0.0.0

require (
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/valyala/fastjson v1.6.10 // indirect
)

require (
	github.com/anishathalye/porcupine v1.3.1
	gonum.org/v1/gonum v0.17.0 // indirect
)

replace github.com/linbis/linbis => ../..
