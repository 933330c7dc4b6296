# The crossovers of crossover.csv on a figure against N, loaded by
# time_vs_n.gp and speedup_vs_n.gp (Fig. 7).  Variables (one word per
# search, all empty: nothing to mark):
#   xckind  f (found or at the range's bottom: xcross is N), u (unresolved:
#           the bracket xclo..xchi, shaded), n (A not faster at the range
#           top xchi)
#   xcross, xclo, xchi, xcbf (bf), xcdts (dash type of the bf)
#   xmax    right end of the x axis (> 0), so every mark is inside the frame
#   xcname  what the marks call method A ("AZA" for Fig. 7; the method's
#           name for the second-order searches)
if (!exists("xckind")) { xckind = "" }
if (!exists("xcname")) { xcname = "AZA" }
if (!exists("xmax")) { xmax = 0 }
unset arrow
unset label
unset object
# each line and band is labelled at its top with its bf (the labels step
# down so neighbours do not overlap), and one legend block at the top left
# says what each is (the bf's dash type as in the series).  An unresolved
# bracket is hatched amber: the grey of a solid band is the interquartile
# range's (issue 29).
set style textbox opaque noborder
xctext = ""
do for [i = 1:words(xckind)] {
    k = word(xckind, i)
    ly = 0.93 - 0.06 * (i - 1)
    if (k eq "f") {
        n = int(word(xcross, i))
        set arrow from first n, graph 0 to first n, graph 1 nohead lc rgb "#606060" lw 1.5 dt int(word(xcdts, i))
        set label 10 + i sprintf("bf=%s: %d", word(xcbf, i), n) at first n, graph ly left offset 0.4, 0 \
            front boxed tc rgb "#303030" font ",8" noenhanced
        xctext = xctext.sprintf("\nbf = %s: N = %d (line)", word(xcbf, i), n)
    }
    if (k eq "u") {
        lo = int(word(xclo, i)); hi = int(word(xchi, i))
        set object rect from first lo, graph 0 to first hi, graph 1 fc rgb "#c08000" fs transparent pattern 4 border rgb "#c08000" behind
        set label 10 + i sprintf("bf=%s: [%d, %d]", word(xcbf, i), lo, hi) at first lo, graph ly right offset -0.4, 0 \
            front boxed tc rgb "#805000" font ",8" noenhanced
        xctext = xctext.sprintf("\nbf = %s: unresolved in [%d, %d] (hatched band)", word(xcbf, i), lo, hi)
    }
    if (k eq "n") {
        xctext = xctext.sprintf("\nbf = %s: %s not faster up to N = %s", word(xcbf, i), xcname, word(xchi, i))
    }
}
if (strlen(xctext) > 0) {
    set label 1 "crossover, ".xcname." faster from:".xctext at graph 0.02, graph 0.97 left front tc rgb "#303030" font ",9" noenhanced
}
if (xmax > 0) { set xrange [*:xmax] }
