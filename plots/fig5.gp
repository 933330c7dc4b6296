# Real robots (the paper's Fig. 5): time per call of each method on each
# robot as grouped bars, with the ratio to the first method printed above
# the others' bars.
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   file     data: robot_label nv t_1 ... t_n (microseconds; '-' = not measured)
#   titles   method names, one per time column (no spaces)
#   ttl      figure title
set datafile missing "-"
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.85 border rgb "#404040"
set boxwidth 0.9
set ylabel "time per call (µs)"
set xlabel "robot (nv)"
set yrange [0:*]
set key top left noenhanced box opaque
set grid ytics lc rgb "#e0e0e0"
set title ttl noenhanced
set xtics noenhanced
n = words(titles)
# x of bar j (1-based) in cluster i (0-based), as gnuplot places clustered histograms
xbar(i, j) = i + (j - 1 - (n - 1) / 2.0) / (n + 1.5)
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 960,560 font "Sans,11" } \
    else { set terminal svg size 960,560 dynamic font "Sans,11" }
    set output outbase.".".fmt
    plot for [j = 1:n] file using (column(j + 2)):xtic(sprintf("%s (%d)", strcol(1), int(column(2)))) \
             title word(titles, j) lc j, \
         for [j = 2:n] file using (xbar($0, j)):(column(j + 2)):(sprintf("%.2fx", column(j + 2) / column(3))) \
             with labels offset 0, 0.7 font "Sans,8" notitle
    unset output
}
