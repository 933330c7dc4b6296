# Time per call against N, log-log (the paper's Fig. 2 and Fig. 7 left).
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   files    data files, one per series: N median_ns min_ns q1_ns q3_ns
#            (the quartiles over the batches drawn as a faint band)
#   titles   one legend entry per series (no spaces)
#   colors   line colour index per series (one per method)
#   dts      dash type per series: 1 serial chain (solid), 2 bf = 2 (dashed),
#            3 bf = 5 (dotted), 4 other bf (dash-dot)
#   ttl      figure title
#   gpdir    this directory; crossover marks: see crossover_marks.gp
#   pfiles   optional bisection probes (crossover_probes.csv), one file per
#            bf: N tA_ns tB_ns ...; pcola, pcolb the colours of A and B,
#            ptitles their legend entries
set dashtype 2 (9, 5)
set dashtype 3 (1.5, 4)
set dashtype 4 (9, 4, 1.5, 4)
set logscale xy
# xone: every series at one N: a range around it
if (exists("xone")) { set xrange [xone / 1.5:xone * 1.5] }
set xlabel "N (bodies)"
set ylabel "time per call (µs)"
if (!exists("keypos")) keypos = "below"
set key @keypos noenhanced height 1.5
set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
set title ttl noenhanced
if (!exists("pfiles")) pfiles = ""
pts = "6 4 8 10"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 960,640 font "Sans,11" } \
    else { set terminal svg size 960,640 dynamic font "Sans,11" }
    set output outbase.".".fmt
    load gpdir."/crossover_marks.gp"
    if (words(pfiles) == 0) {
    plot for [i = 1:words(files)] word(files, i) using 1:($4 / 1000):($5 / 1000) with filledcurves \
         fc rgb word(colors, i) fs transparent solid 0.15 noborder notitle, \
         for [i = 1:words(files)] word(files, i) using 1:($2 / 1000) with linespoints \
         lc rgb word(colors, i) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i)
    } else {
    plot for [i = 1:words(files)] word(files, i) using 1:($4 / 1000):($5 / 1000) with filledcurves \
         fc rgb word(colors, i) fs transparent solid 0.15 noborder notitle, \
         for [i = 1:words(files)] word(files, i) using 1:($2 / 1000) with linespoints \
         lc rgb word(colors, i) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i), \
         for [i = 1:words(pfiles)] word(pfiles, i) using 1:($2 / 1000) with points lc rgb pcola \
         pt int(word(pts, (i - 1) % 4 + 1)) ps 1 title word(ptitles, i), \
         for [i = 1:words(pfiles)] word(pfiles, i) using 1:($3 / 1000) with points lc rgb pcolb \
         pt int(word(pts, (i - 1) % 4 + 1)) ps 1 notitle
    }
    unset output
}
