/* What the native searches (_tableau.c, _hopscotch.c) share: the random numbers
 * and hash mixers of their keys, the clock, and the look at the caller's cancel event
 * and at Ctrl-C. Included by both; each module keeps its own copy. */
#ifndef PATIENCE_NATIVE_H
#define PATIENCE_NATIVE_H

#include <Python.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Two independent 64-bit mixers: the two lanes of a state's hash. */
static inline uint64_t mixa(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static inline uint64_t mixb(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    return x ^ (x >> 33);
}

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether the search must stop for its caller: ``cancel`` (a threading.Event, or
 * None) is set, or a signal handler raised (Ctrl-C, in the main thread: then
 * ``*interrupted`` is set and the handler's exception is left for the module to
 * raise, as the Python search would). Takes the interpreter back from ``*ts`` for the
 * look and lets it go again: call it every few milliseconds, not for every state (a
 * thread that holds the interpreter, the web server's, makes each look wait). */
static inline int caller_stops(PyObject *cancel, PyThreadState **ts, int *interrupted) {
    PyEval_RestoreThread(*ts);
    int set = 0;
    if (cancel != Py_None) {
        PyObject *r = PyObject_CallMethod(cancel, "is_set", NULL);
        set = r ? PyObject_IsTrue(r) : 1;
        Py_XDECREF(r);
        if (!r) PyErr_Clear();
    }
    if (!set && PyErr_CheckSignals() < 0) *interrupted = set = 1;
    *ts = PyEval_SaveThread();
    return set;
}

#endif
