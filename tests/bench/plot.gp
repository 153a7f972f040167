# ns per call of every timed configuration, log scale.
#   gnuplot -e "data='plot.dat'; out='bench.svg'; rows=N; title='...'" plot.gp
# plot.dat: tab-separated "label median min max", one row per configuration.
set terminal svg size 1100, (120 + 22 * rows) dynamic font "sans,11" background "white"
set output out
set datafile separator "\t"
set title title noenhanced
set logscale x
set xrange [0.5:*]
set xlabel "ns per call: median over repetitions, whiskers min-max (log scale)"
set yrange [-0.7:rows - 0.3] reverse
set ytics scale 0 noenhanced
set grid xtics mxtics
set key off
set style fill solid 0.55 border -1
set lmargin 62
plot data using 2:0:(0.5):2:($0 - 0.34):($0 + 0.34):ytic(1) with boxxyerror lc rgb "#4a7ab5", \
     data using 2:0:3:4 with xerrorbars pt -1 lc rgb "#222222", \
     data using 2:0:(sprintf("  %.3g", $2)) with labels left offset 0.5,0 font "sans,9"
