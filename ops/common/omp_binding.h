// Where the OpenMP calls of this process's libdnnl go, so that the ops' own OpenMP calls go there
// too (omp_team.h).
//
// libdnnl normally binds to the ops library's entry points (omp_team.h, Binding). It does not when
// it was loaded before the ops library, by another object that brought it in RTLD_LOCAL (a kernel
// binary or OPP library linked to libdnnl), or when the process put libgomp in its global scope;
// then the ops' thread counts (omp_set_num_threads) and parts (GOMP_parallel) must reach libgomp,
// or oneDNN would ignore the one and nest full teams inside the other. Debian's libdnnl is linked
// BIND_NOW, so its GOT slot for GOMP_parallel holds the resolved address from load on: if that
// lies outside the object defining these entry points, each entry forwards to the functions of
// the object it lies in.
#pragma once

namespace openatc_ops::omp_team {

/// The OpenMP functions of the runtime libdnnl is bound to, when that is not this one.
struct ForeignOpenMp {
  void (*parallel)(void (*)(void *), void *, unsigned, unsigned);
  void (*barrier)();
  int (*thread_num)();
  int (*num_threads)();
  int (*max_threads)();
  void (*set_num_threads)(int);
  int (*in_parallel)();
  int (*team_awake)(int);  ///< OpenAtcOmpTeamAwake where that runtime is a copy of this one, else null
};

/// nullptr when libdnnl's calls reach this runtime (or libdnnl is not loaded, or its binding cannot
/// be read); else the functions to forward to. Decided once, at the first call.
const ForeignOpenMp *Foreign();

}  // namespace openatc_ops::omp_team
