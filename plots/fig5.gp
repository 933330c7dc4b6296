# Real robots (the paper's Fig. 5): time per call of each method on each
# robot as grouped bars, one per method and build (the paper's gcc and
# clang: the second build lighter), each labelled with its time over the
# first method's in the same rounds and build.  A log time axis: the robots
# span 6 to 50 dofs and a factor ~200 in time, and on a linear axis Talos's
# slowest bar flattened UR3, iiwa and HyQ to a few pixels (issue 29).
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   file     data: robot_label nv, then per series: t (microseconds), label
#            ('-' = not measured / no label)
#   titles   one legend entry per series (no spaces), colors their "#rrggbb"
#   ttl      figure title
set datafile missing "-"
set style data histogram
set style histogram clustered gap 1.5
set style fill solid 0.9 border rgb "#404040"
set boxwidth 0.9
set ylabel "time per call (µs, log scale)"
set xlabel "robot (nv; +ff: floating base, a free-flyer root joint whose 6 dofs count in nv)"
set logscale y
set format y "%g"
set yrange [ymin:*]
set key below noenhanced
set grid ytics lc rgb "#e0e0e0"
set title ttl noenhanced
set xtics noenhanced rotate by -20
n = words(titles)
# x of bar j (1-based) in cluster i (0-based), as gnuplot places clustered histograms
xbar(i, j) = i + (j - 1 - (n - 1) / 2.0) / (n + 1.5)
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,620 font "Sans,11" } \
    else { set terminal svg size 1100,620 dynamic font "Sans,11" }
    set output outbase.".".fmt
    plot for [j = 1:n] file using (column(2 * j + 1)):xtic(sprintf("%s (%d)", strcol(1), int(column(2)))) \
             title word(titles, j) lc rgb word(colors, j), \
         for [j = 1:n] file using (xbar($0, j)):(column(2 * j + 1)):(stringcolumn(2 * j + 2) eq "-" ? "" : stringcolumn(2 * j + 2)) \
             with labels offset 0.8, 0.6 rotate by 90 left font "Sans,8" notitle
    unset output
}
