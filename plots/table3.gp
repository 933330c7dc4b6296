# The Table III analogue as clustered bars: per build (compiler-ISA) the
# crossover N of AZA against each DMM flavour and bf.  Called by
# scripts/matrix-table with:
#   datafile  columns: build, then per series N, bracket_lo, bracket_hi
#             (an unresolved search: N = the bracket's middle; 'none': the range top)
#   outbase   output path without extension (.png and .svg are written)
#   ncols     number of series
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel "crossover N (AZA faster from here on)"
set xlabel "build (compiler-ISA); error bars: bracket of an unresolved search; bar at the range top: AZA never faster"
set title "Table III analogue: DMM vs AZA crossover N" noenhanced
set key top left noenhanced box opaque
set grid ytics lc rgb "#e0e0e0"
set yrange [0:*]
set datafile missing "NaN"
set datafile separator "\t"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 960,600 font "Sans,11" } \
    else { set terminal svg size 960,600 dynamic font "Sans,11" }
    set output outbase.".".fmt
    plot for [i = 1:ncols] datafile using (column(3 * i - 1)):(column(3 * i)):(column(3 * i + 1)):xtic(1) \
         title columnheader(3 * i - 1) lc i
    unset output
}
