/* PLplot, loaded when a figure is first drawn (base/library.h): a program that draws none never
 * needs libplplot.so.17. Include this instead of <plplot/plplot.h>; after boids_plplot_load()
 * succeeded (boids_plot_begin calls it), the pl* calls below work as usual. */
#ifndef BOIDS_APP_PLPLOT_H
#define BOIDS_APP_PLPLOT_H

#include <plplot/plplot.h>

#include "boids.h"

/* Every PLplot function the project calls, by its symbol (plplot.h maps most pl* names to c_pl*
 * ones); a call to one not listed fails to link. */
#define BOIDS_PLPLOT_FUNCTIONS(X)                                                                  \
    X(c_pladv)                                                                                     \
    X(c_plbox)                                                                                     \
    X(c_plcol0)                                                                                    \
    X(c_plend)                                                                                     \
    X(c_plfill)                                                                                    \
    X(c_plfontld)                                                                                  \
    X(c_plinit)                                                                                    \
    X(c_pllab)                                                                                     \
    X(c_plline)                                                                                    \
    X(c_pllsty)                                                                                    \
    X(c_plmtex)                                                                                    \
    X(c_plpoin)                                                                                    \
    X(c_plptex)                                                                                    \
    X(c_plschr)                                                                                    \
    X(c_plscmap0n)                                                                                 \
    X(c_plscol0)                                                                                   \
    X(c_plscol0a)                                                                                  \
    X(c_plsdev)                                                                                    \
    X(c_plsfnam)                                                                                   \
    X(c_plspage)                                                                                   \
    X(c_plssub)                                                                                    \
    X(c_plvpor)                                                                                    \
    X(c_plwidth)                                                                                   \
    X(c_plwind)                                                                                    \
    X(plgDevs)

#define BOIDS_PLPLOT_MEMBER(name) __typeof__(name) *name;
typedef struct boids_plplot_table {
    BOIDS_PLPLOT_FUNCTIONS(BOIDS_PLPLOT_MEMBER)
} boids_plplot_table;
#undef BOIDS_PLPLOT_MEMBER

/* Filled by boids_plplot_load; call through the names below, not through this. */
extern boids_plplot_table boids_plplot;

/* Loads libplplot.so.17 once per process; BOIDS_E_FILE_WRITE naming the library and its package
 * when it is missing. Every call returns the first one's result. */
boids_status boids_plplot_load(void);

/* The names, redirected to the table. plplot.c, which fills the table by name, goes without. */
#ifndef BOIDS_PLPLOT_LOADER
#undef pladv
#define pladv boids_plplot.c_pladv
#undef plbox
#define plbox boids_plplot.c_plbox
#undef plcol0
#define plcol0 boids_plplot.c_plcol0
#undef plend
#define plend boids_plplot.c_plend
#undef plfill
#define plfill boids_plplot.c_plfill
#undef plfontld
#define plfontld boids_plplot.c_plfontld
#undef plinit
#define plinit boids_plplot.c_plinit
#undef pllab
#define pllab boids_plplot.c_pllab
#undef plline
#define plline boids_plplot.c_plline
#undef pllsty
#define pllsty boids_plplot.c_pllsty
#undef plmtex
#define plmtex boids_plplot.c_plmtex
#undef plpoin
#define plpoin boids_plplot.c_plpoin
#undef plptex
#define plptex boids_plplot.c_plptex
#undef plschr
#define plschr boids_plplot.c_plschr
#undef plscmap0n
#define plscmap0n boids_plplot.c_plscmap0n
#undef plscol0
#define plscol0 boids_plplot.c_plscol0
#undef plscol0a
#define plscol0a boids_plplot.c_plscol0a
#undef plsdev
#define plsdev boids_plplot.c_plsdev
#undef plsfnam
#define plsfnam boids_plplot.c_plsfnam
#undef plspage
#define plspage boids_plplot.c_plspage
#undef plssub
#define plssub boids_plplot.c_plssub
#undef plvpor
#define plvpor boids_plplot.c_plvpor
#undef plwidth
#define plwidth boids_plplot.c_plwidth
#undef plwind
#define plwind boids_plplot.c_plwind
#define plgDevs boids_plplot.plgDevs
#endif

#endif
