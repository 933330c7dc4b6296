/* `crossover`'s set taken, searched and described (crossover_search.h). */
#include <string.h>
#include "rbdiff/method.h"
#include "rbdiff/rbd.h"
#include "measure/bench.h"
#include "measure/crossover_search.h"
#include "store/meta.h"
#include "store/resume.h"

/* A second-order method's four nv^3 tensors at the top of the range (the
 * largest model the search may time, every bf) must fit: refused with the
 * size before the results directory is touched (issue 33). */
static int so_fits(const rbd_method *A, const rbd_method *B, const sweep_config *c, const xo_opts *xo)
{
    const rbd_method *ab[2] = { A, B };
    int rc = RBD_OK;
    for (int k = 0; k < 2 && !rc; k++) {
        if (rbd_output_order(ab[k]->output) != 2) continue;
        for (int b = 0; b < c->nbf && !rc; b++) {
            char spec[256];
            rbd_model *m = NULL;
            bench_autotree_spec(spec, sizeof spec, xo->hi, c->bf[b], c->skew, c->taper);
            rc = rbd_model_from_spec(spec, NULL, &m);
            if (!rc) rc = rbd_so_check_size(m, ab[k]->name, NULL);
            rbd_model_free(m);
        }
    }
    return rc;
}

int crossover_search(const char *dir, const char *cmdline, const rbd_method *A, const rbd_method *B,
                     sweep_config *c, const xo_opts *xo, volatile sig_atomic_t *stop, FILE *out,
                     int *bad_input)
{
    /* one search at bf 1 unless bf is given; a --pin to a CPU that is not
     * there is refused before anything is written */
    *bad_input = 1;
    int rc = c->nbf ? RBD_OK : sweep_config_set(c, "bf", "1", "--bf");
    if (rc || (rc = bench_setup(c))) return rc;
    if ((rc = so_fits(A, B, c, xo))) {
        *bad_input = 0;     /* the machine's limit, not the input's: exit 1 */
        return rc;
    }
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
