/* `crossover`'s set taken, searched and described (crossover_search.h). */
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/crossover_search.h"
#include "store/meta.h"
#include "store/resume.h"

int crossover_search(const char *dir, const char *cmdline, const rbd_method *A, const rbd_method *B,
                     sweep_config *c, const xo_opts *xo, volatile sig_atomic_t *stop, FILE *out,
                     int *bad_input)
{
    /* one search at bf 1 unless bf is given; a --pin to a CPU that is not
     * there is refused before anything is written */
    *bad_input = 1;
    int rc = c->nbf ? RBD_OK : sweep_config_set(c, "bf", "1", "--bf");
    if (rc || (rc = bench_setup(c))) return rc;
    xo_set set;
    memset(&set, 0, sizeof set);
    results_lock lk = { -1, NULL, NULL, 0 };
    *bad_input = 0;
    /* a directory to resume is an input: another build's, a garbage
     * meta.json or a malformed table is refused before anything is
     * written (resume.h; the crossover options are in the rows' key) */
    rc = dir ? resume_open(&lk, dir, cmdline, NULL, bad_input) : RBD_OK;
    if (!rc) rc = xo_set_open(&set, dir);
    if (!rc) rc = xo_set_search_all(&set, A, B, c, xo, stop, out);
    if (rc >= 0 && dir) {
        json_t *xm = json_pack("{s:o}", "method_options", meta_method_options(c));
        int mrc = meta_write(dir, cmdline, xm);
        json_decref(xm);
        if (mrc) rc = mrc;
    }
    results_lock_release(&lk, rc < 0 && *bad_input);
    xo_set_close(&set);
    return rc;
}
