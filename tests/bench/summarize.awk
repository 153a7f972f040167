# Turns scripts/bench's raw runs into the table and the CSV.
#
#   awk -v csv=OUT.csv -f summarize.awk CONFIGS RAW
#
# CONFIGS: one line per configuration, "section|name|baseline|label|target"
# (the baseline is another name, measured in the same repetitions).
# RAW: one line per run, "rep name ns allocs_per_call".
# A configuration's ratio is the median, over the repetitions, of
# ns / baseline's ns in that same repetition (pair ratios absorb the slow
# drifts of a shared machine).  The spread is the range over repetitions.
# target: space-separated conditions on the medians and on the largest
# allocation count, "ns<=2 ratio<=0.002 allocs<=0"; "added<=0" bounds the
# allocations over the baseline's (glibc's own, in pass-through); empty
# for none.

function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

function minimum(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]
	return m
}

function maximum(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]
	return m
}

function verdict(t, ns, ratio, allocs, added,    c, n, i, k, v, lim, ok) {
	if (t == "") return ""
	n = split(t, c, " ")
	ok = 1
	for (i = 1; i <= n; i++) {
		k = c[i]; sub(/<=.*/, "", k)
		lim = c[i]; sub(/.*<=/, "", lim)
		v = k == "ns" ? ns : k == "ratio" ? ratio : k == "added" ? added : allocs
		if (v == "" || v + 0 > lim + 0) ok = 0
	}
	return ok ? "met" : "MISSED"
}

function num(x) {
	if (x == "") return ""
	return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
}

function rnum(x) {
	if (x == "") return ""
	return x >= 0.1 ? sprintf("%.3f", x) : sprintf("%.2g", x)
}

FNR == NR {
	split($0, f, "|")
	order[++nconf] = f[2]
	section[f[2]] = f[1]; base[f[2]] = f[3]; label[f[2]] = f[4]; target[f[2]] = f[5]
	next
}

NF >= 4 {
	reps[$1] = 1
	ns[$2, $1] = $3
	al[$2, $1] = $4
}

END {
	print "section,config,label,reps,ns_median,ns_min,ns_max,baseline," \
	      "ratio_median,ratio_min,ratio_max,allocs_per_call_max,target,verdict" > csv
	printf "%-3s %-54s %9s %-19s %9s %-19s %6s  %s\n", "sec", "configuration",
	       "ns/call", "(min-max)", "ratio", "(min-max)", "allocs", "target"
	for (i = 1; i <= nconf; i++) {
		name = order[i]
		n = 0; nr = 0; amax = ""
		for (r in reps) {
			if (!((name, r) in ns)) continue
			v[++n] = ns[name, r]
			if (al[name, r] != "-" && (amax == "" || al[name, r] + 0 > amax + 0))
				amax = al[name, r] + 0
			if ((base[name], r) in ns && ns[base[name], r] > 0)
				q[++nr] = ns[name, r] / ns[base[name], r]
		}
		if (n == 0) continue
		bmax = ""
		for (r in reps)
			if ((base[name], r) in al && al[base[name], r] != "-" &&
			    (bmax == "" || al[base[name], r] + 0 > bmax + 0))
				bmax = al[base[name], r] + 0
		med = median(v, n); lo = minimum(v, n); hi = maximum(v, n)
		rmed = rlo = rhi = ""
		if (nr > 0) { rmed = median(q, nr); rlo = minimum(q, nr); rhi = maximum(q, nr) }
		ver = verdict(target[name], med, rmed, amax, (amax == "" || bmax == "") ? "" : amax - bmax)
		printf "%s,%s,\"%s\",%d,%.3f,%.3f,%.3f,%s,%s,%s,%s,%s,%s,%s\n",
		       section[name], name, label[name], n, med, lo, hi, base[name],
		       rmed, rlo, rhi, amax, target[name], ver > csv
		printf "%-3s %-54s %9s %-19s %9s %-19s %6s  %s\n", section[name],
		       substr(label[name], 1, 54), num(med),
		       "(" num(lo) "-" num(hi) ")", rnum(rmed),
		       (nr > 0 ? "(" rnum(rlo) "-" rnum(rhi) ")" : ""), (amax == "" ? "-" : amax),
		       (target[name] == "" ? "" : target[name] ": " ver)
		delete v; delete q
	}
}
