# t_AZA / t_DMM against N per build, one panel per DMM flavour and bf: the
# curves whose crossing of 1 is the Table III analogue (scripts/matrix-table,
# from table3_ratios.csv).  Point: median over the paired rounds; bar: their
# quartiles.  One colour per compiler; dashed: the x86-64 (SSE2) builds.
#   datadir   holding table3_ratios.dat: blocks series-major, then build; rows N, median, q1, q3
#   outbase, builds, series, nseries, nbuilds as for table3.gp; colours: a linetype per build
sname_at(s, k) = (k <= 1 ? (strstrt(s, ";") ? s[1:strstrt(s, ";") - 1] : s) : sname_at(s[strstrt(s, ";") + 1:], k - 1))
set logscale xy
set grid xtics ytics lc rgb "#e0e0e0"
set xlabel "N (autoTree bodies)"
set ylabel "t_{AZA} / t_{DMM}"
set key outside right noenhanced font ",8" samplen 2
# eight linetypes that differ in hue and lightness (gnuplot's default repeats after 8 as well)
set linetype 1 lc rgb "#1f77b4"
set linetype 2 lc rgb "#d62728"
set linetype 3 lc rgb "#2ca02c"
set linetype 4 lc rgb "#9467bd"
set linetype 5 lc rgb "#ff7f0e"
set linetype 6 lc rgb "#8c564b"
set linetype 7 lc rgb "#e377c2"
set linetype 8 lc rgb "#17becf"
set linetype 9 lc rgb "#7f7f7f"
set linetype 10 lc rgb "#bcbd22"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "black" dt 3
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,330 * nseries font "Sans,10" } \
    else { set terminal svg size 1100,330 * nseries dynamic font "Sans,10" }
    set output outbase.".".fmt
    set multiplot layout nseries,1 title "AZA over DMM in the same rounds, per build (below 1: AZA faster)"
    do for [s = 0:nseries - 1] {
        set title sname_at(series, s + 1) noenhanced
        plot for [b = 0:nbuilds - 1] datadir."/table3_ratios.dat" index s * nbuilds + b u 1:2:3:4 \
             w yerrorlines pt 7 ps 0.5 lc int(word(colours, b + 1)) dt 1 + (strstrt(word(builds, b + 1), "x86-64") > 0) \
             title word(builds, b + 1)
    }
    unset multiplot
    unset output
}
