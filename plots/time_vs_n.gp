# Time per call against N, log-log (the paper's Fig. 2 and Fig. 7 left).
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   files    data files, one per series: N median_ns min_ns q1_ns q3_ns
#   titles   one legend entry per series (no spaces)
#   colors   line colour index per series (one per method)
#   dts      dash type per series: 1 serial chain (solid), 2 bf = 2 (dashed),
#            3 bf = 5 (dotted), 4 other bf (dash-dot)
#   ttl      figure title
#   xcross   optional crossover N values to mark (space separated), xcdts their dash types
set dashtype 2 (9, 5)
set dashtype 3 (1.5, 4)
set dashtype 4 (9, 4, 1.5, 4)
set logscale xy
set xlabel "N (bodies)"
set ylabel "time per call (µs)"
set key top left noenhanced box opaque
set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
set title ttl noenhanced
if (!exists("xcross")) xcross = ""
if (!exists("xcdts")) xcdts = ""
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 960,640 font "Sans,11" } \
    else { set terminal svg size 960,640 dynamic font "Sans,11" }
    set output outbase.".".fmt
    unset arrow
    unset label
    do for [i = 1:words(xcross)] {
        set label i sprintf(" N = %d", int(word(xcross, i))) at first int(word(xcross, i)), graph 0.04 left tc rgb "#606060"
        set arrow from first int(word(xcross, i)), graph 0 to first int(word(xcross, i)), graph 1 nohead lc rgb "#808080" lw 1.5 dt int(word(xcdts, i))
    }
    plot for [i = 1:words(files)] word(files, i) using 1:($2 / 1000) with linespoints \
         lc rgb word(colors, i) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i)
    unset output
}
