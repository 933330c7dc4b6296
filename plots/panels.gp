# Small multiples against N: a grid of panels (rows: method families,
# columns: branching factors), one colour per method (plot_style.c, the same
# in every figure), each row's legend in its own column right of the data.
# Called by `rbdiff plot` with:
#   outbase  output path without extension (.png and .svg are written)
#   ttl      figure title; ylab the y-axis label; ycol the data column; yscale
#            its divisor; yfloor the value drawn for y <= 0 (e.g. an exact 0 error)
#   nrows, ncols   grid size; rowttl1 .. rowttlR, colttl1 .. colttlC panel titles
#   files, titles, colors, pts, prow, pcol   one word per series: data file,
#            method name ("-": no legend entry, shown in the row already),
#            "#rrggbb", gnuplot point type (a method's own within its row, so
#            coinciding lines show stacked markers), and the panel (row,
#            column, 1-based)
set logscale x
if (logy) { set logscale y; set format y "10^{%L}" }
set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
set tics font ",9"
set xlabel "N (bodies)" font ",9" offset 0, 0.5
nser = words(files)
W = 1.0 * ncols / (ncols + 0.9)      # panels' share of the width; the rest: the legends
top = 1 - 45.0 / (260 * nrows + 60)  # below the title
wid = 380 * ncols + 340
if (int(7.5 * strlen(ttl)) + 40 > wid) { wid = int(7.5 * strlen(ttl)) + 40 }   # one column: the title was cut
klen = 0                             # the legends' share fits the longest name (a peer's with its version)
do for [i = 1:nser] { if (strlen(word(titles, i)) > klen) { klen = strlen(word(titles, i)) } }
if ((7.0 * klen + 90) / (1 - W) > wid) { wid = int((7.0 * klen + 90) / (1 - W)) }
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size wid, 260 * nrows + 60 font "Sans,10" } \
    else { set terminal svg size wid, 260 * nrows + 60 dynamic font "Sans,10" }
    set output outbase.".".fmt
    set multiplot title ttl noenhanced
    do for [r = 1:nrows] {
        do for [c = 1:ncols] {
            idx = ""
            do for [i = 1:nser] { if (int(word(prow, i)) == r && int(word(pcol, i)) == c) { idx = idx.sprintf(" %d", i) } }
            set origin W * (c - 1) / ncols, top * (nrows - r) / nrows
            set size W / ncols, top / nrows
            set title value(sprintf("rowttl%d", r)).", ".value(sprintf("colttl%d", c)) noenhanced font ",10"
            set ylabel (c == 1 ? ylab : "") noenhanced font ",9"
            set border; set tics; unset key
            set autoscale xy
            if (yhi > 0) { set yrange [ylo:yhi] }
            # xoneR_C: the panel's series all at one N; a range around it
            if (exists(sprintf("xone%d_%d", r, c))) { x1 = value(sprintf("xone%d_%d", r, c)); set xrange [x1 / 1.5:x1 * 1.5] }
            if (words(idx) > 0) {
                plot for [w in idx] word(files, int(w)) using 1:(column(ycol) > 0 ? column(ycol) / yscale : yfloor) \
                     with linespoints lc rgb word(colors, int(w)) lw 1.5 pt int(word(pts, int(w))) ps 0.8 notitle
            } else {
                unset border; unset tics; set xrange [0:1]; set yrange [0:1]; unset logscale y
                set label 1 "no data" at graph 0.5, 0.5 center tc rgb "#808080"
                plot NaN notitle
                unset label 1
                if (logy) { set logscale y }
                set autoscale xy
            }
        }
        # the row's legend, outside the data
        kidx = ""
        do for [i = 1:nser] { if (int(word(prow, i)) == r && word(titles, i) ne "-") { kidx = kidx.sprintf(" %d", i) } }
        set origin W, top * (nrows - r) / nrows
        set size 1 - W, top / nrows
        unset title; unset border; unset tics; unset xlabel; unset ylabel; unset grid
        unset logscale xy; set xrange [0:1]; set yrange [1:2]
        set key center left reverse Left noenhanced font ",9" samplen 2 spacing 1.1
        plot for [w in kidx] NaN with linespoints lc rgb word(colors, int(w)) lw 1.5 pt int(word(pts, int(w))) ps 0.8 \
             title word(titles, int(w))
        set logscale x; if (logy) { set logscale y }
        set grid xtics ytics mxtics mytics lc rgb "#e0e0e0"
        set xlabel "N (bodies)" font ",9" offset 0, 0.5
        set autoscale xy
    }
    unset multiplot
    unset output
}
