#ifndef CTIMERLIBRARIES_SHIM_H
#define CTIMERLIBRARIES_SHIM_H
// libev and libuv as peers of timerdeck-bench, loaded at run time with dlopen: the package builds
// on a machine without them (and without their -dev packages), and the bench reports them as not
// installed there. Only their ABI is declared here: the struct layouts the bench allocates and the
// functions it calls, through pointers. Only timerdeck-bench imports this module.
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/// What the peers' callbacks record: a count and the CLOCK_MONOTONIC time of the last one (ns).
typedef struct tdb_fire_counters {
    long fired;
    int64_t last_callback;
} tdb_fire_counters;

static inline void tdb_record_fire(tdb_fire_counters *counters) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    counters->fired += 1;
    counters->last_callback = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

// MARK: libev 4 (libev.so.4), built with its default configuration, as Debian's libev4 is

/// `ev_timer`: EV_WATCHER (active, pending, priority, data, cb) then `at` and `repeat`.
/// `ev_timer_init` is a macro in <ev.h>; `tdb_ev_timer_init` does what it does.
typedef struct tdb_ev_timer {
    int active;
    int pending;
    int priority;
    void *data;
    void (*cb)(void *loop, struct tdb_ev_timer *watcher, int revents);
    double at;
    double repeat;
} tdb_ev_timer;

typedef struct tdb_libev {
    void *(*default_loop)(unsigned int flags);
    void (*timer_start)(void *loop, tdb_ev_timer *watcher);
    void (*timer_stop)(void *loop, tdb_ev_timer *watcher);
    void (*timer_again)(void *loop, tdb_ev_timer *watcher);
    int (*run)(void *loop, int flags);
    void (*now_update)(void *loop);
} tdb_libev;

/// The callback of every libev timer of the bench: its `data` is the run's counters.
static inline void tdb_ev_fired(void *loop, tdb_ev_timer *watcher, int revents) {
    (void)loop;
    (void)revents;
    tdb_record_fire((tdb_fire_counters *)watcher->data);
}

/// `ev_timer_init(watcher, tdb_ev_fired, after, 0)`, with `data` set.
static inline void tdb_ev_timer_init(tdb_ev_timer *watcher, double after, tdb_fire_counters *counters) {
    watcher->active = 0;
    watcher->pending = 0;
    watcher->priority = 0;
    watcher->data = counters;
    watcher->cb = tdb_ev_fired;
    watcher->at = after;
    watcher->repeat = 0;
}

/// Loads libev.so.4: 1 with every function found, 0 when the library or a symbol is missing.
static inline int tdb_libev_load(tdb_libev *libev) {
    void *library = dlopen("libev.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return 0;
    libev->default_loop = (void *(*)(unsigned int))dlsym(library, "ev_default_loop");
    libev->timer_start = (void (*)(void *, tdb_ev_timer *))dlsym(library, "ev_timer_start");
    libev->timer_stop = (void (*)(void *, tdb_ev_timer *))dlsym(library, "ev_timer_stop");
    libev->timer_again = (void (*)(void *, tdb_ev_timer *))dlsym(library, "ev_timer_again");
    libev->run = (int (*)(void *, int))dlsym(library, "ev_run");
    libev->now_update = (void (*)(void *))dlsym(library, "ev_now_update");
    return libev->default_loop && libev->timer_start && libev->timer_stop && libev->timer_again && libev->run
        && libev->now_update;
}

// MARK: libuv 1 (libuv.so.1)

/// `UV_TIMER` of `uv_handle_type`; a `uv_timer_t` is `uv_handle_size(UV_TIMER)` bytes, starting
/// with the handle's `void *data`.
enum { TDB_UV_TIMER = 13, TDB_UV_RUN_DEFAULT = 0 };

typedef struct tdb_libuv {
    void *(*default_loop)(void);
    size_t (*handle_size)(int type);
    int (*timer_init)(void *loop, void *timer);
    int (*timer_start)(void *timer, void (*callback)(void *timer), uint64_t timeout, uint64_t repeat);
    int (*timer_stop)(void *timer);
    int (*run)(void *loop, int mode);
    void (*update_time)(void *loop);
    uint64_t (*now)(const void *loop);
} tdb_libuv;

/// The callback of every libuv timer of the bench: the handle's `data` is the run's counters.
static inline void tdb_uv_fired(void *timer) {
    tdb_record_fire(*(tdb_fire_counters **)timer);
}

/// Sets a libuv handle's `data`, its first field.
static inline void tdb_uv_set_data(void *handle, tdb_fire_counters *counters) {
    *(tdb_fire_counters **)handle = counters;
}

/// Loads libuv.so.1: 1 with every function found, 0 when the library or a symbol is missing.
static inline int tdb_libuv_load(tdb_libuv *libuv) {
    void *library = dlopen("libuv.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return 0;
    libuv->default_loop = (void *(*)(void))dlsym(library, "uv_default_loop");
    libuv->handle_size = (size_t (*)(int))dlsym(library, "uv_handle_size");
    libuv->timer_init = (int (*)(void *, void *))dlsym(library, "uv_timer_init");
    libuv->timer_start = (int (*)(void *, void (*)(void *), uint64_t, uint64_t))dlsym(library, "uv_timer_start");
    libuv->timer_stop = (int (*)(void *))dlsym(library, "uv_timer_stop");
    libuv->run = (int (*)(void *, int))dlsym(library, "uv_run");
    libuv->update_time = (void (*)(void *))dlsym(library, "uv_update_time");
    libuv->now = (uint64_t (*)(const void *))dlsym(library, "uv_now");
    return libuv->default_loop && libuv->handle_size && libuv->timer_init && libuv->timer_start
        && libuv->timer_stop && libuv->run && libuv->update_time && libuv->now;
}

#endif
