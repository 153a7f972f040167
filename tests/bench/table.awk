# The benchmark tables of docs/performance.md, in Markdown, from one run's files.
#
#   awk -f table.awk machine.txt results.csv facts.csv
#
# Every timed configuration (results.csv) and every counted fact
# (facts.csv) of the run, in the order the run wrote them, so that the
# page shows that run and nothing else.  Labels in results.csv may be
# quoted; a fact's detail is its last field and may hold commas.

# Splits a CSV line whose quoted fields hold no quotes into f[1..n].
function csv(line, f,    n, q) {
	split("", f)
	n = 0
	while (line != "") {
		if (substr(line, 1, 1) == "\"") {
			q = index(substr(line, 2), "\"")
			f[++n] = substr(line, 2, q - 1)
			line = substr(line, q + 3)
		} else if ((q = index(line, ",")) > 0) {
			f[++n] = substr(line, 1, q - 1)
			line = substr(line, q + 1)
		} else {
			f[++n] = line
			line = ""
		}
	}
	return n
}

function ns(x) {
	return sprintf(x + 0 >= 100 ? "%.0f" : "%.1f", x)
}

function ratio(x) {
	return sprintf("%.3g", x)
}

function verdict(v) {
	return v == "MISSED" ? "**missed**" : v
}

FILENAME == ARGV[1] {
	k = $0; sub(/:.*/, "", k)
	v = $0; sub(/^[^:]*: /, "", v)
	machine[k] = v
	next
}

# Which run: before the first table (an instructions-only run, scripts/
# bench --arch arm64, has no timed one).
function run(    ) {
	if (ran++)
		return
	print "Run of " machine["date"] " on " machine["machine"] "; " machine["system"] "."
	if ("emulation" in machine)
		print "Emulated: " machine["emulation"] "."
	print "Load average " machine["load average (1, 5, 15 min) at the start"] "."
	print "Library: " machine["library"] "."
}

FILENAME == ARGV[2] && FNR == 1 {
	run()
	print ""
	print "| configuration | ns per call: median (min-max) | ratio to its baseline: median (min-max) | target | |"
	print "|---|---|---|---|---|"
	next
}

FILENAME == ARGV[2] {
	csv($0, f)
	base = f[8] == f[2] ? "baseline" : \
		ratio(f[9]) " (" ratio(f[10]) "-" ratio(f[11]) ") of " f[8]
	print "| " f[3] " | " ns(f[5]) " (" ns(f[6]) "-" ns(f[7]) ") | " base " | " \
		f[13] " | " verdict(f[14]) " |"
	next
}

FILENAME == ARGV[3] && FNR == 1 {
	run()
	print ""
	print "| fact | value | target | | detail |"
	print "|---|---|---|---|---|"
	next
}

FILENAME == ARGV[3] {
	n = csv($0, f)
	detail = f[6]
	for (i = 7; i <= n; i++)
		detail = detail "," f[i]
	print "| " f[1] " | " f[2] " " f[3] " | " f[4] " | " verdict(f[5]) " | " detail " |"
}
