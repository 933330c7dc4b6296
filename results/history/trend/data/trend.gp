set terminal svg size 1100,980 dynamic font 'Sans,10'
set output 'results/history/trend/trend.svg'
set multiplot layout 3,1 title 'time relative to the reference commit, paired rounds (line: median over rounds; band: quartiles; triangles: a real step from the previous commit)'
set xtics rotate by 45 right font ',8'
set grid ytics
set key outside right
set xrange [-0.5:15.5]
set xtics ('64cb73d2' 0, 'a88d74b3' 1, '7a08445f' 2, '8d1af673' 3, '62756627' 4, 'f7311f38' 5, 'e8e409ef' 6, '90126428' 7, '6faa3c3f' 8, '379232b8' 9, '0947efb4' 10, 'aabc5b54' 11, 'e294229d' 12, 'f69a9aa9' 13, '2acc036a' 14, '1deebd61' 15)
set title 'autotree:N=10,bf=1,skew=0,taper=1'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
set title 'autotree:N=30,bf=1,skew=0,taper=1'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
set title 'urdf:tests/models/talos.urdf,freeflyer'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
unset multiplot
set terminal pngcairo size 1100,980 font 'Sans,10'
set output 'results/history/trend/trend.png'
set multiplot layout 3,1 title 'time relative to the reference commit, paired rounds (line: median over rounds; band: quartiles; triangles: a real step from the previous commit)'
set xtics rotate by 45 right font ',8'
set grid ytics
set key outside right
set xrange [-0.5:15.5]
set xtics ('64cb73d2' 0, 'a88d74b3' 1, '7a08445f' 2, '8d1af673' 3, '62756627' 4, 'f7311f38' 5, 'e8e409ef' 6, '90126428' 7, '6faa3c3f' 8, '379232b8' 9, '0947efb4' 10, 'aabc5b54' 11, 'e294229d' 12, 'f69a9aa9' 13, '2acc036a' 14, '1deebd61' 15)
set title 'autotree:N=10,bf=1,skew=0,taper=1'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_10_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
set title 'autotree:N=30,bf=1,skew=0,taper=1'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/autotree_N_30_bf_1_skew_0_taper_1__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
set title 'urdf:tests/models/talos.urdf,freeflyer'
set ylabel 't / t_{ref}'
plot 'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:3:4 w filledcurves lc rgb '#1f77b4' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:2 w lp lc rgb '#1f77b4' pt 7 ps 0.5 title 'fdsva', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__fdsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#1f77b4' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:3:4 w filledcurves lc rgb '#d62728' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:2 w lp lc rgb '#d62728' pt 7 ps 0.5 title 'idsva', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__idsva.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#d62728' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:3:4 w filledcurves lc rgb '#2ca02c' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:2 w lp lc rgb '#2ca02c' pt 7 ps 0.5 title 'pin26', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__pin26.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#2ca02c' pt 11 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:3:4 w filledcurves lc rgb '#9467bd' fs transparent solid 0.15 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:2 w lp lc rgb '#9467bd' pt 7 ps 0.5 title 'rneacr', \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:($5 > 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 9 ps 1.6 notitle, \
     'results/history/trend/data/urdf_tests_models_talos_urdf_freeflyer__rneacr.dat' u 1:($5 < 0 ? $2 : 1/0) w p lc rgb '#9467bd' pt 11 ps 1.6 notitle
unset multiplot
