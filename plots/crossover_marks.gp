# The crossovers of crossover.csv on a figure against N, loaded by
# time_vs_n.gp and speedup_vs_n.gp (Fig. 7).  Variables (one word per
# search, all empty: nothing to mark):
#   xckind  f (found or at the range's bottom: xcross is N), u (unresolved:
#           the bracket xclo..xchi, shaded), n (A not faster at the range
#           top xchi)
#   xcross, xclo, xchi, xcbf (bf), xcdts (dash type of the bf)
#   xmax    right end of the x axis (> 0), so every mark is inside the frame
if (!exists("xckind")) { xckind = "" }
if (!exists("xmax")) { xmax = 0 }
unset arrow
unset label
unset object
# the lines and bands carry no text; one legend block at the top left says
# what each is (the bf's dash type as in the series)
xctext = ""
do for [i = 1:words(xckind)] {
    k = word(xckind, i)
    if (k eq "f") {
        n = int(word(xcross, i))
        set arrow from first n, graph 0 to first n, graph 1 nohead lc rgb "#606060" lw 1.5 dt int(word(xcdts, i))
        xctext = xctext.sprintf("\nbf = %s: N = %d (line)", word(xcbf, i), n)
    }
    if (k eq "u") {
        lo = int(word(xclo, i)); hi = int(word(xchi, i))
        set object rect from first lo, graph 0 to first hi, graph 1 fc rgb "#909090" fs transparent solid 0.3 noborder behind
        xctext = xctext.sprintf("\nbf = %s: unresolved in [%d, %d] (band)", word(xcbf, i), lo, hi)
    }
    if (k eq "n") {
        xctext = xctext.sprintf("\nbf = %s: AZA not faster up to N = %s", word(xcbf, i), word(xchi, i))
    }
}
if (strlen(xctext) > 0) {
    set label 1 "crossover, AZA faster from:".xctext at graph 0.02, graph 0.97 left front tc rgb "#303030" font ",9" noenhanced
}
if (xmax > 0) { set xrange [*:xmax] }
