/* cli.h — the command line (docs/cli.md):
 *   vbc run SCENE.json [--set KEY=VALUE]... [--out DIR] [--threads N] [--quiet]
 *   vbc validate SCENE.json [--set KEY=VALUE]...
 *   vbc list
 *   vbc lcp FILE [--solver lemke|pgs|jacobi] [--max-pivots N] [--max-iterations N] [--tol T]
 *   vbc --help | --version
 * Exit codes: 0 success, 2 bad input, 3 the simulation failed, 4 the system refused. */
#ifndef VBC_CLI_H
#define VBC_CLI_H

struct vbc_registry;

int vbc_main(int argc, char **argv);
/* `vbc lcp ...` (cli/cli_lcp.c, docs/lcp.md); argv[1] is "lcp"; the solver is looked up in
 * registry. */
int vbc_lcp_main(int argc, char **argv, const struct vbc_registry *registry);

#endif
