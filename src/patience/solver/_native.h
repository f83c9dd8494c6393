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

/* The clock of the deadlines (clock.py): the monotonic wall clock, or, once
 * ``use_cpu_clock(True)`` was called in this thread, the thread's CPU time (a study's
 * budget then means the same work on a busy machine as on a quiet one). */
static _Thread_local int cpu_clock = 0;

static inline double now(void) {
    struct timespec t;
    clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static PyObject *py_use_cpu_clock(PyObject *self, PyObject *on) {
    (void)self;
    int flag = PyObject_IsTrue(on);
    if (flag < 0) return NULL;
    cpu_clock = flag;
    Py_RETURN_NONE;
}

#define USE_CPU_CLOCK_METHOD                                                          \
    {"use_cpu_clock", (PyCFunction)py_use_cpu_clock, METH_O,                          \
     "use_cpu_clock(on): this thread's deadlines on its CPU time (on) or the wall clock."}

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
