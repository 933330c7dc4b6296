# Accuracy against N (the paper's §V.A): term-wise RMS relative error of one
# output of each method against the MPFR reference (one figure per output).
# Called by `rbdiff plot` with:
#   outbase  output path without extension
#   files    data files: N rms_rel max_abs normwise
#   titles, colors, dts, ttl   as in time_vs_n.gp (colour per method)
# Twelve distinct colours, so up to twelve methods never share one.
array pal[12] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", \
                 "#7f7f7f", "#bcbd22", "#000000", "#3b3bff"]
do for [k = 1:12] { set linetype k lc rgb pal[k] }
set linetype cycle 12
set dashtype 2 (9, 5)
set dashtype 3 (1.5, 4)
set dashtype 4 (9, 4, 1.5, 4)
set logscale xy
set format y "10^{%L}"
set xlabel "N (bodies)"
set ylabel "RMS relative error (term-wise, vs MPFR reference)"
set key outside right top noenhanced box
set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
set title ttl noenhanced
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,640 font "Sans,11" } \
    else { set terminal svg size 1100,640 dynamic font "Sans,11" }
    set output outbase.".".fmt
    plot for [i = 1:words(files)] word(files, i) using 1:($2 > 0 ? $2 : 1e-18) with linespoints \
         lc int(word(colors, i)) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i)
    unset output
}
