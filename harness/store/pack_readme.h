/* The README.md `rbdiff pack` writes into a results set that has none. */
#ifndef RBD_PACK_README_H
#define RBD_PACK_README_H

/* DIR/README.md from DIR/meta.json, unless the set has a README already or
 * no meta.json (not a results set): what it is, how it was made, its files
 * and how to rebuild what pack removed.  0 or a negative RBD_E* code. */
int pack_write_readme(const char *dir);

#endif
