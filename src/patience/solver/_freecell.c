/* FreeCell's search at native speed: freecell.py's adapter (the same canonical key, the
 * same safe moves home, the same moves, less the same duplicates; proofs in
 * docs/solver.md, FreeCell's native search), searched best first by several estimates
 * in turns (freecell.NATIVE_ESTIMATES), each search on exact keys (_freecell_search.h),
 * so that ``lost`` is a proof: every state reachable from the root was opened. A win
 * comes back as the engine's moves (src, dst, count: 0-7 the cascades, 8-11 the free
 * cells, 12-15 the foundations), which the Python side replays through the engine's
 * checked ``play``. The interpreter is let go during the search; the caller's cancel
 * event and Ctrl-C are looked at every 20 ms. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_native.h"

#define MAXSEARCH 8

#include "_freecell_state.h"
#include "_freecell_search.h"

/* ----------------------------------------------------------------- Python */

/* One pile's cards (bytes, 0..51) into buf; each card counted in seen. */
static int fill_cards(PyObject *obj, uint8_t *buf, int cap, int *seen, const char *what) {
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: bytes expected", what);
        return -1;
    }
    Py_ssize_t len = PyBytes_GET_SIZE(obj);
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s: more than %d cards", what, cap);
        return -1;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (Py_ssize_t i = 0; i < len; i++) {
        if (p[i] > 51 || seen[p[i]]++) {
            PyErr_Format(PyExc_ValueError, "%s: card %d out of range or twice", what, (int)p[i]);
            return -1;
        }
        buf[i] = p[i];
    }
    return (int)len;
}

static int read_list(PyObject *list, int n, const char *what) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a list of %d piles expected", what, n);
        return 0;
    }
    return 1;
}

/* The position into *s and each suit's foundation slot: 8 cascades, 4 free cells of at
 * most one card, 4 foundations built up in suit from the Ace; no card twice (a card
 * missing is out of play: the tests' small positions). */
static int read_position(PyObject *tab, PyObject *cells, PyObject *fnd, St *s, int8_t *slot) {
    int seen[52] = {0};
    uint8_t buf[MAXCOL];
    memset(s, 0, sizeof *s);
    memset(slot, -1, 4);
    if (!read_list(tab, 8, "tableau") || !read_list(cells, 4, "cells") ||
        !read_list(fnd, 4, "foundations"))
        return 0;
    for (int i = 0; i < 8; i++) {
        int n = fill_cards(PyList_GET_ITEM(tab, i), s->col[i], MAXCOL, seen, "tableau");
        if (n < 0) return 0;
        s->len[i] = (uint8_t)n;
    }
    for (int k = 0; k < 4; k++) {
        int n = fill_cards(PyList_GET_ITEM(cells, k), buf, 1, seen, "cells");
        if (n < 0) return 0;
        s->cell[k] = n ? buf[0] : NONE;
    }
    for (int f = 0; f < 4; f++) {
        int n = fill_cards(PyList_GET_ITEM(fnd, f), buf, 13, seen, "foundations");
        if (n < 0) return 0;
        for (int h = 0; h < n; h++)
            if (suit_of(buf[h]) != suit_of(buf[0]) || rank_of(buf[h]) != h + 1) {
                PyErr_SetString(PyExc_ValueError, "foundations: up in suit from the Ace");
                return 0;
            }
        if (n) slot[suit_of(buf[0])] = (int8_t)f, s->home[suit_of(buf[0])] = (uint8_t)n;
    }
    return 1;
}

static int read_weights(PyObject *weights, int *w) {
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != 5) {
        PyErr_SetString(PyExc_ValueError, "weights: tuples of 5 ints expected");
        return 0;
    }
    for (int i = 0; i < 5; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(weights, i));
        if (v == -1 && PyErr_Occurred()) return 0;
        if (v < 0 || v > 1000) {
            PyErr_SetString(PyExc_ValueError, "weights: each 0..1000");
            return 0;
        }
        w[i] = (int)v;
    }
    return 1;
}

/* One search per estimate (1..MAXSEARCH of them), each with its share of the states kept. */
static int make_searches(PyObject *estimates, Search *S, Search **all, long long max_nodes) {
    if (!PyTuple_Check(estimates) || PyTuple_GET_SIZE(estimates) < 1 ||
        PyTuple_GET_SIZE(estimates) > MAXSEARCH) {
        PyErr_Format(PyExc_ValueError, "estimates: a tuple of 1 to %d weightings expected",
                     MAXSEARCH);
        return 0;
    }
    int n = (int)PyTuple_GET_SIZE(estimates);
    long long each = max_nodes / n;
    if (each < 1000) each = 1000;
    if (each > 200000000) each = 200000000;
    for (int i = 0; i < n; i++) {
        all[i] = &S[i];
        S[i].max = (uint32_t)each;
        if (!read_weights(PyTuple_GET_ITEM(estimates, i), S[i].w)) return 0;
    }
    return n;
}

/* The search's verdict, line and states as the Python tuple, or NULL with the error. */
static PyObject *answer(Search *S, int verdict, const St *root, const int8_t *slot,
                        long long states) {
    if (S->interrupted) return NULL; /* the signal handler's exception is set */
    if (S->oom) return PyErr_NoMemory();
    uint8_t *line = NULL;
    int n = 0;
    if (verdict == WON) {
        n = write_line(S, root, slot, &line);
        if (n < 0) {
            free(line);
            if (S->oom) return PyErr_NoMemory();
            PyErr_SetString(PyExc_RuntimeError, "the won line could not be followed");
            return NULL;
        }
    }
    PyObject *r = Py_BuildValue("(iy#L)", verdict, (const char *)(line ? line : (uint8_t *)""),
                                (Py_ssize_t)3 * n, states);
    free(line);
    return r;
}

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"tableau", "cells", "foundations", "seconds", "max_states",
                            "max_nodes", "cancel", "estimates", "first", NULL};
    PyObject *tab, *cells, *fnd, *cancel, *estimates;
    double seconds;
    long long max_states, max_nodes, first;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOdLLOOL", names, &tab, &cells, &fnd, &seconds,
                                     &max_states, &max_nodes, &cancel, &estimates, &first))
        return NULL;
    if (cancel != Py_None && !PyObject_HasAttrString(cancel, "is_set")) {
        PyErr_SetString(PyExc_TypeError, "cancel: a threading.Event or None expected");
        return NULL;
    }
    St root;
    int8_t slot[4];
    Search S[MAXSEARCH], *all[MAXSEARCH];
    memset(S, 0, sizeof S);
    int n = 0;
    if (read_position(tab, cells, fnd, &root, slot))
        n = make_searches(estimates, S, all, max_nodes);
    PyObject *result = NULL;
    if (n) {
        if (seconds != seconds || seconds < 0) seconds = 0;
        S[0].max_states = max_states;
        S[0].cancel = cancel;
        S[0].ts = PyEval_SaveThread();
        S[0].deadline = now() + seconds;
        S[0].next_look = now() + 0.02;
        int which = 0, verdict = portfolio(all, n, &root, (long)first, &which);
        PyEval_RestoreThread(S[0].ts);
        for (int i = 0; i < n; i++) S[0].oom |= S[i].oom;
        S[which].interrupted = S[0].interrupted, S[which].oom = S[0].oom;
        result = answer(&S[which], verdict, &root, slot, stored(all, n));
    }
    for (int i = 0; i < MAXSEARCH; i++) search_free(&S[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(tableau, cells, foundations, seconds, max_states, max_nodes, cancel, estimates,"
     " first)"
     " -> (verdict, line, states)\n"
     "verdict: 0 won, 1 lost, 2 unknown; line: (src, dst, count) byte triples, piles 0-7"
     " cascades, 8-11 free cells, 12-15 foundations; max_states < 0: no cap."},
    USE_CPU_CLOCK_METHOD,
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_freecell",
                                    "FreeCell's search at native speed (see freecell.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__freecell(void) { return PyModule_Create(&module); }
