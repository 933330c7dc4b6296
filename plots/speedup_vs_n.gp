# Speedup of method A over method B against N (the paper's Fig. 3, 4, 6 and
# Fig. 7 right): y = t_B / t_A, so values above 1 mean A is faster; also
# ours / peer (A = the peer's function, B = ours: below 1, ours is faster).
# The data's 4th column is that ratio paired, as tables.md reports it: the
# median over the rounds of the per-round ratio; columns 5 and 6 its
# quartiles, drawn as a band of the series' colour (nan: no per-round
# samples, no band).
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   files    data files, one per series: N tA_ns tB_ns tB/tA q1 q3 w K
#   titles, colors, dts, ttl   as in time_vs_n.gp
#   ylab     y-axis label, e.g. "speedup t(rneacr) / t(idsva)"
#   logy     1 for a logarithmic y axis
#   gpdir    this directory; crossover marks: see crossover_marks.gp
#   pfiles   optional bisection probes (crossover_probes.csv), one file per
#            bf: N tA_ns tB_ns ratio q1 q3 ..., drawn as points with their
#            interquartile bars in pcola (often shorter than the marker);
#            ptitles their legend entries, the marker alone
#   keypos   optional placement of the key (default "top left")
set dashtype 2 (9, 5)
set dashtype 3 (1.5, 4)
set dashtype 4 (9, 4, 1.5, 4)
set logscale x
# xone: every series at one N: a range around it
if (exists("xone")) { set xrange [xone / 1.5:xone * 1.5] }
if (exists("logy") && logy) { set logscale y }
set xlabel "N (bodies)"
set ylabel ylab noenhanced
if (!exists("keypos")) keypos = "top left"
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
    plot for [i = 1:words(files)] word(files, i) using 1:5:6 with filledcurves \
         fc rgb word(colors, i) fs transparent solid 0.18 noborder notitle, \
         NaN with filledcurves fc rgb "#b0b0b0" fs transparent solid 0.5 title "interquartile range of the per-round ratios", \
         1 with lines lc rgb "#404040" lw 1 dt 1 notitle, \
         for [i = 1:words(files)] word(files, i) using 1:4 with linespoints \
         lc rgb word(colors, i) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i)
    } else {
    plot for [i = 1:words(files)] word(files, i) using 1:5:6 with filledcurves \
         fc rgb word(colors, i) fs transparent solid 0.18 noborder notitle, \
         NaN with filledcurves fc rgb "#b0b0b0" fs transparent solid 0.5 title "interquartile range of the per-round ratios", \
         1 with lines lc rgb "#404040" lw 1 dt 1 notitle, \
         for [i = 1:words(files)] word(files, i) using 1:4 with linespoints \
         lc rgb word(colors, i) dt int(word(dts, i)) lw 2 pt 7 ps 0.6 title word(titles, i), \
         for [i = 1:words(pfiles)] word(pfiles, i) using 1:4:5:6 with yerrorbars lc rgb pcola \
         pt int(word(pts, (i - 1) % 4 + 1)) ps 1 notitle, \
         for [i = 1:words(pfiles)] NaN with points lc rgb pcola pt int(word(pts, (i - 1) % 4 + 1)) ps 1 \
         title word(ptitles, i)
    }
    unset output
}
