# The Table III analogue: per build (compiler-ISA) the crossover N of AZA
# against each DMM flavour and bf, with its bracket as the error bar.
# Called by scripts/matrix-table (from table3.csv, so the figure is the table) with:
#   datadir   holding table3.dat: one block per series, rows x, N, bracket_lo, bracket_hi
#             (a curve with no crossover on the grid is drawn at the grid's end)
#   outbase   output path without extension (.png and .svg are written)
#   builds    the build labels, space-separated, in x order
#   series    the series names ("DMM, bf = b"), ';'-separated; nseries, nbuilds, top
set logscale y
set yrange [1:top * 1.5]
set xrange [-0.7:nbuilds - 0.3]
set ylabel "crossover N (AZA faster from here on)"
set xlabel "build (compiler-ISA); bar: bracket between significant grid points"
set title "Table III analogue: DMM vs AZA crossover N, paired rounds" noenhanced
set key top left noenhanced box opaque
set grid ytics lc rgb "#e0e0e0"
set xtics rotate by 30 right noenhanced ()
do for [i = 1:nbuilds] { set xtics add (word(builds, i) i - 1) }
sname_at(s, k) = (k <= 1 ? (strstrt(s, ";") ? s[1:strstrt(s, ";") - 1] : s) : sname_at(s[strstrt(s, ";") + 1:], k - 1))
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,600 font "Sans,11" } \
    else { set terminal svg size 1100,600 dynamic font "Sans,11" }
    set output outbase.".".fmt
    plot for [i = 0:nseries - 1] datadir."/table3.dat" index i u 1:2:3:4 w yerrorbars pt 7 lc i + 1 \
         title sname_at(series, i + 1)
    unset output
}
