/* vbc.h — everything a program built on an installed vbc uses (docs/library.md): the constraint
 * interface (blocks, solvers, the solve loop), couplers as stage tables, the assembled operator,
 * the registry of modules with the built-in ones, scene loading, the run API and
 * stepping a simulation (sim/sim_api.h). Compile with
 * `pkg-config --cflags vbc` (or link vbc::vbc from find_package(vbc CONFIG)); the headers are C11
 * and may be included from C++. */
#ifndef VBC_VBC_H
#define VBC_VBC_H

#include "core/constraint.h"
#include "core/coupler.h"
#include "core/operator.h"
#include "solvers/schemes/solve_params.h"
#include "registry/registry.h"
#include "scene/scene.h"
#include "sim/run.h"
#include "sim/sim_api.h"
#include "modules/builtin.h"

#endif
