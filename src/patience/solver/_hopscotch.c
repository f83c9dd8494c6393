/* The Hopscotch labelled search at native speed: the search of
 * ``hopscotch_labels.LabelledSearch`` (read ``hopscotch.py``'s module docstring for the
 * rules 1-4 and their proofs), on a
 * mutable state with a hashed transposition table. The same pass schedule (plain
 * discrepancy passes, jittered probe passes in time slices, the exhaustive pass), the
 * same labellings of the root's reserve cards in the same order, the same children in
 * the same order, the same cuts: the same line after the same states, unless a budget
 * ends a pass. Where it differs, and why that is safe:
 *   - states are remembered in the shared table (_table.h) by a 112-bit hash of
 *     their key (s, foundation sizes, the labelled reserves as a multiset): two
 *     states are confused with a probability of about n^2 / 2^113 for n states,
 *     below 1e-16 for a billion (a confusion could only cut a state that was not
 *     searched; a won line is replayed anyway);
 *   - the table grows as it fills, up to 2 * ``table_size`` slots of 16 bytes (at most
 *     2^24), and then forgets its older half (the Python search forgets everything
 *     once it holds ``table_size`` states): forgetting a state only
 *     costs searching it again, and a state searched again with the same discrepancies
 *     left fails again, so the plain and exhaustive passes find the same first win;
 *   - none in the probes: their jitter is splitmix64 from 0 in both (hopscotch_labels.py's
 *     _Jitter), drawn in the same order; but a probe cut by its time slice (rare: a
 *     probe mostly ends on its discrepancy limit in milliseconds) or by the time for
 *     the probes cuts at another point, as the speeds differ.
 * ``lost`` is answered only when a pass finished without cutting anything (by a
 * discrepancy limit): the exhaustive pass, or a discrepancy pass that never reached
 * its limit, exactly as in Python. A win comes back as engine move codes (see
 * ``emit``); the Python side replays them through the engine's checked ``play``.
 *
 * One difference in the work, none in the order: the labellings of the root's reserve
 * cards are made once for the whole search (the Python makes them again in each pass).
 * The depth-first search recurses once per card dealt (at most 48 levels, each a small
 * frame): far from the C stack's limits.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_native.h"

#define NCARDS 48
#define BIG (1 << 20)
#define MAXKIDS 24
#define MAXLINE 256
#define CACHE 16 /* labellings kept: a pass of limit L uses L + 2 of them */

enum { WON = 0, LOST = 1, UNKNOWN = 2, STOP = 3 };
/* Move codes: DEAL; W_TO_F + k; W_TO_R + j; R_TO_F + 4 * j + k. */
enum { DEAL = 0, W_TO_F = 1, W_TO_R = 5, R_TO_F = 9 };

static int SEQ[4][14];          /* the rank of foundation k's i-th card (index 13: 0) */
static int EVENTS[14][4], NEVENTS[14]; /* the events (k * 16 + i) taking each rank */
static uint64_t ZA[NCARDS + 1][64], ZB[NCARDS + 1][64]; /* a pile's card at a height */
static uint64_t LA[NCARDS + 1], LB[NCARDS + 1];         /* a pile's length */
static uint64_t SA[NCARDS + 1], SB[NCARDS + 1];         /* cards dealt */
static uint64_t PA[4][16], PB[4][16];                   /* a foundation's size */

#include "_table.h"
#include "_hopscotch_search.h"
#include "_hopscotch_root.h"
#include "_hopscotch_policy.h"
#include "_hopscotch_advice.h"

/* ----------------------------------------------------------------- Python */

/* The bytes of ``obj`` into ``buf`` (at most ``cap``), each a rank 1..13. */
static int fill_ranks(PyObject *obj, uint8_t *buf, int *n, int cap, const char *what) {
    if (!PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: bytes expected", what);
        return 0;
    }
    Py_ssize_t len = PyBytes_GET_SIZE(obj);
    if (len > cap) {
        PyErr_Format(PyExc_ValueError, "%s: more than %d cards", what, cap);
        return 0;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (Py_ssize_t i = 0; i < len; i++) {
        if (p[i] < 1 || p[i] > 13) {
            PyErr_Format(PyExc_ValueError, "%s: rank %d out of range", what, (int)p[i]);
            return 0;
        }
        buf[i] = p[i];
    }
    *n = (int)len;
    return 1;
}

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"arrivals", "waste_first", "foundations", "reserves", "seconds",
                            "max_states", "table_size", "cancel", "plain", "probe", "noise",
                            "slice", "lds_share", "bad", "wait", "empty", NULL};
    PyObject *arrivals, *fnd, *reserves, *cancel;
    int waste_first, plain, probe;
    double seconds, noise, slice, lds_share, bad, wait, empty;
    long long max_states, table_size;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OpOOdLLOiidddddd", names, &arrivals,
                                     &waste_first, &fnd, &reserves, &seconds, &max_states,
                                     &table_size, &cancel, &plain, &probe, &noise, &slice,
                                     &lds_share, &bad, &wait, &empty))
        return NULL;
    if (cancel != Py_None && !PyObject_HasAttrString(cancel, "is_set")) {
        PyErr_SetString(PyExc_TypeError, "cancel: a threading.Event or None expected");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    PyObject *result = NULL;
    int count[14] = {0};
    if (!fill_ranks(arrivals, S->arr, &S->n, NCARDS, "arrivals")) goto done;
    for (int s = 0; s < S->n; s++) count[S->arr[s]]++;
    if (!PyBytes_Check(fnd) || PyBytes_GET_SIZE(fnd) != 4) {
        PyErr_SetString(PyExc_ValueError, "foundations: 4 sizes expected");
        goto done;
    }
    for (int k = 0; k < 4; k++) {
        int size = (unsigned char)PyBytes_AS_STRING(fnd)[k];
        if (size < 1 || size > 13) {
            PyErr_Format(PyExc_ValueError, "foundations: size %d out of range", size);
            goto done;
        }
        S->ptr0[k] = size;
    }
    if (!PyList_Check(reserves) || PyList_GET_SIZE(reserves) != 4) {
        PyErr_SetString(PyExc_ValueError, "reserves: 4 piles expected");
        goto done;
    }
    int total = S->n;
    for (int j = 0; j < 4; j++) {
        if (!fill_ranks(PyList_GET_ITEM(reserves, j), S->ranks0[j], &S->nres0[j], NCARDS,
                        "reserves"))
            goto done;
        total += S->nres0[j];
        for (int h = 0; h < S->nres0[j]; h++) count[S->ranks0[j][h]]++;
    }
    /* The cards out must be exactly the ranks the foundations still take. */
    for (int k = 0; k < 4; k++)
        for (int i = S->ptr0[k]; i < 13; i++) count[SEQ[k][i]]--;
    for (int r = 1; r <= 13; r++)
        if (count[r]) {
            PyErr_Format(PyExc_ValueError,
                         "the cards out (%d) are not the ranks the foundations still take",
                         total);
            goto done;
        }
    if (seconds != seconds) seconds = 0;
    if (lds_share != lds_share || lds_share < 0) lds_share = 0;
    if (lds_share > 1) lds_share = 1;
    S->waste_first = waste_first;
    S->max_states = max_states;
    S->cancel = cancel;
    S->plain = plain;
    S->probe = probe < 0 ? 0 : probe;
    S->noise = noise;
    S->slice = slice > 0 ? slice : 0.001;
    S->lds_share = lds_share;
    S->w_bad = bad;
    S->w_wait = wait;
    S->w_empty = empty;
    size_t cap = 1024, want = table_size > 0 ? (size_t)table_size * 2 : 0;
    while (cap < want && cap < MAXSLOTS) cap <<= 1;
    S->cap_max = cap;
    for (int r = 0; r < 14; r++) S->nxt[S->n][r] = BIG;
    for (int s = S->n - 1; s >= 0; s--) {
        memcpy(S->nxt[s], S->nxt[s + 1], sizeof S->nxt[s]);
        S->nxt[s][S->arr[s]] = s;
    }
    /* The root's reserve cards, top layers first, and each one's candidate events:
     * unclaimed events of its rank, the soonest first (a stable sort, as Python's). */
    int depth = 0;
    for (int j = 0; j < 4; j++)
        if (S->nres0[j] > depth) depth = S->nres0[j];
    for (int d = 0; d < depth; d++)
        for (int j = 0; j < 4; j++) {
            int h = S->nres0[j] - 1 - d;
            if (h < 0) continue;
            int n = S->nspots++, r = S->ranks0[j][h], m = 0;
            S->spot_j[n] = j;
            S->spot_h[n] = h;
            for (int q = 0; q < NEVENTS[r]; q++) {
                int e = EVENTS[r][q];
                if ((e & 15) >= S->ptr0[e >> 4]) S->opt[n][m++] = (uint8_t)e;
            }
            for (int a = 1; a < m; a++) {
                uint8_t e = S->opt[n][a];
                int key = (e & 15) - S->ptr0[e >> 4], b = a - 1;
                while (b >= 0 && (S->opt[n][b] & 15) - S->ptr0[S->opt[n][b] >> 4] > key) {
                    S->opt[n][b + 1] = S->opt[n][b];
                    b--;
                }
                S->opt[n][b + 1] = e;
            }
            S->nopt[n] = m;
        }
    restart_labellings(S);
    if (!table_init(&S->tnew, SMALL < cap ? SMALL : cap)) {
        PyErr_NoMemory();
        goto done;
    }
    S->ts = PyEval_SaveThread();
    int r = run(S, seconds > 0 ? seconds : 0);
    PyEval_RestoreThread(S->ts);
    if (S->interrupted) goto done; /* the signal handler's exception is set */
    if (S->oom) {
        PyErr_NoMemory();
        goto done;
    }
    uint8_t line[MAXLINE];
    int nline = r == WON ? emit(S, line) : 0;
    result = Py_BuildValue("(iy#L)", r, (const char *)line, (Py_ssize_t)nline, S->states);
done:
    entries_free(S->tnew.e, S->tnew.cap);
    entries_free(S->told.e, S->told.cap);
    free(S);
    return result;
}

/* The policy's state from Python: foundation sizes (4 bytes), each reserve's ranks and
 * labels (bytes, bottom first; a label is k * 13 + i), the unseen ranks' counts (14
 * bytes, index 0 unused). */
static int policy_state(PyObject *fnd, PyObject *ranks, PyObject *labels, PyObject *left,
                        PState *s, int lf[14]) {
    if (!PyBytes_Check(fnd) || PyBytes_GET_SIZE(fnd) != 4 || !PyBytes_Check(left) ||
        PyBytes_GET_SIZE(left) != 14 || !PyList_Check(ranks) || PyList_GET_SIZE(ranks) != 4 ||
        !PyList_Check(labels) || PyList_GET_SIZE(labels) != 4) {
        PyErr_SetString(PyExc_ValueError,
                        "foundations: 4 bytes, ranks and labels: 4 bytes each, left: 14 bytes");
        return 0;
    }
    memset(s, 0, sizeof *s);
    for (int k = 0; k < 4; k++) {
        s->cnt[k] = (unsigned char)PyBytes_AS_STRING(fnd)[k];
        if (s->cnt[k] < 1 || s->cnt[k] > 13) {
            PyErr_SetString(PyExc_ValueError, "foundations: sizes 1..13");
            return 0;
        }
    }
    for (int r = 0; r < 14; r++) {
        lf[r] = (unsigned char)PyBytes_AS_STRING(left)[r];
        if (lf[r] > 4) {
            PyErr_SetString(PyExc_ValueError, "left: at most 4 of a rank");
            return 0;
        }
    }
    lf[0] = 0;
    for (int j = 0; j < 4; j++) {
        PyObject *a = PyList_GET_ITEM(ranks, j), *b = PyList_GET_ITEM(labels, j);
        if (!PyBytes_Check(a) || !PyBytes_Check(b) || PyBytes_GET_SIZE(a) != PyBytes_GET_SIZE(b) ||
            PyBytes_GET_SIZE(a) > PNC) {
            PyErr_SetString(PyExc_ValueError, "ranks and labels: bytes of one length per pile");
            return 0;
        }
        s->n[j] = (int)PyBytes_GET_SIZE(a);
        for (int h = 0; h < s->n[j]; h++) {
            int r = (unsigned char)PyBytes_AS_STRING(a)[h], e = (unsigned char)PyBytes_AS_STRING(b)[h];
            if (r < 1 || r > 13 || e > 51) {
                PyErr_SetString(PyExc_ValueError, "a rank 1..13 and a label 0..51 expected");
                return 0;
            }
            s->r[j][h] = (uint8_t)r;
            s->e[j][h] = (uint8_t)e;
        }
    }
    return 1;
}

static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left, *stock;
    int last, waste;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiOO", &fnd, &ranks, &labels, &last, &waste, &left, &stock))
        return NULL;
    PState s;
    int lf[14], n;
    uint8_t st[NCARDS];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (!fill_ranks(stock, st, &n, NCARDS, "stock")) return NULL;
    if (waste < 0 || waste > 13 || last < 0 || last > 3) {
        PyErr_SetString(PyExc_ValueError, "waste 0..13, last 0..3");
        return NULL;
    }
    int won = p_acyclic(&s) && p_playout(&s, last, waste, st, n, lf);
    return PyBool_FromLong(won);
}

static PyObject *py_playouts(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left;
    int last, waste, count, search = PSEARCH;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiOiK|i", &fnd, &ranks, &labels, &last, &waste, &left, &count,
                          &seed, &search))
        return NULL;
    PState s;
    int lf[14];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (waste < 0 || waste > 13 || last < 0 || last > 3) {
        PyErr_SetString(PyExc_ValueError, "waste 0..13, last 0..3");
        return NULL;
    }
    long won = 0;
    if (p_acyclic(&s)) {
        Py_BEGIN_ALLOW_THREADS
        p_search = search;
        uint8_t st[PNC + 4];
        for (int i = 0; i < count; i++) {
            int n = p_order(seed, i, lf, st);
            won += p_playout(&s, last, waste, st, n, lf);
        }
        p_search = PSEARCH;
        Py_END_ALLOW_THREADS
    }
    return PyLong_FromLong(won);
}

static PyObject *p_to_python(const PState *s, int cost) {
    uint8_t cnt[4];
    for (int k = 0; k < 4; k++) cnt[k] = (uint8_t)s->cnt[k];
    PyObject *ranks = PyList_New(4), *labels = PyList_New(4);
    if (!ranks || !labels) goto fail;
    for (int j = 0; j < 4; j++) {
        PyObject *a = PyBytes_FromStringAndSize((const char *)s->r[j], s->n[j]);
        if (!a) goto fail;
        PyList_SET_ITEM(ranks, j, a);
        PyObject *b = PyBytes_FromStringAndSize((const char *)s->e[j], s->n[j]);
        if (!b) goto fail;
        PyList_SET_ITEM(labels, j, b);
    }
    return Py_BuildValue("(y#NNi)", (const char *)cnt, (Py_ssize_t)4, ranks, labels, cost);
fail:
    Py_XDECREF(ranks);
    Py_XDECREF(labels);
    return NULL;
}

static PyObject *py_label_on(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left;
    int r, j;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiO", &fnd, &ranks, &labels, &r, &j, &left)) return NULL;
    PState s;
    int lf[14];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (r < 1 || r > 13 || j < 0 || j > 3) {
        PyErr_SetString(PyExc_ValueError, "rank 1..13, reserve 0..3");
        return NULL;
    }
    int cost;
    if (!p_label_on(&s, r, j, lf, &cost)) Py_RETURN_NONE;
    return p_to_python(&s, cost);
}


/* The advice's arguments after the policy's state: ``last``, ``waste`` and ``left``
 * checked as ``py_playouts`` checks them. */
static int advice_args(int last, int waste, int inner, int search) {
    if (waste < 0 || waste > 13 || last < 0 || last > 3 || inner < 0 || search < 1) {
        PyErr_SetString(PyExc_ValueError, "waste 0..13, last 0..3, inner >= 0, search >= 1");
        return 0;
    }
    return 1;
}

static PyObject *py_advice_game(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left, *stock;
    int last, waste, inner, search;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiOOiKi", &fnd, &ranks, &labels, &last, &waste, &left,
                          &stock, &inner, &seed, &search))
        return NULL;
    PState s;
    int lf[14], n, nm = 0, won = 0;
    uint8_t st[NCARDS], moves[NCARDS + 1];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (!fill_ranks(stock, st, &n, NCARDS, "stock") || !advice_args(last, waste, inner, search))
        return NULL;
    if (p_acyclic(&s)) {
        Py_BEGIN_ALLOW_THREADS
        won = a_game(&s, last, waste, st, n, lf, inner, seed, search, moves, &nm);
        Py_END_ALLOW_THREADS
    }
    return Py_BuildValue("(Ny#)", PyBool_FromLong(won), (const char *)moves, (Py_ssize_t)nm);
}

static PyObject *py_advice_until(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left, *stock;
    int last, waste, inner, search, upto;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiOOiKii", &fnd, &ranks, &labels, &last, &waste, &left,
                          &stock, &inner, &seed, &search, &upto))
        return NULL;
    PState s;
    int lf[14], n, nm = 0, lost = 0, r = 0;
    uint8_t st[NCARDS];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (!fill_ranks(stock, st, &n, NCARDS, "stock") || !advice_args(last, waste, inner, search))
        return NULL;
    if (upto < 0 || upto >= n) {
        PyErr_SetString(PyExc_ValueError, "upto: 0 .. the stock's size - 1");
        return NULL;
    }
    if (p_acyclic(&s)) {
        Py_BEGIN_ALLOW_THREADS
        a_settle(&s, last);
        r = a_play(&s, waste, st, &n, lf, inner, seed, search, upto, NULL, &nm, &lost);
        Py_END_ALLOW_THREADS
    }
    if (!r) Py_RETURN_NONE;
    PyObject *state = p_to_python(&s, r);
    PyObject *unseen = PyBytes_FromStringAndSize(NULL, 14);
    if (!state || !unseen) {
        Py_XDECREF(state);
        Py_XDECREF(unseen);
        return NULL;
    }
    for (int x = 0; x < 14; x++) PyBytes_AS_STRING(unseen)[x] = (char)lf[x];
    return Py_BuildValue("(NN)", state, unseen);
}

static PyObject *py_advice_playouts(PyObject *self, PyObject *args) {
    PyObject *fnd, *ranks, *labels, *left;
    int last, waste, first, count, inner, search;
    unsigned long long seed, inner_seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiOiiKiKi", &fnd, &ranks, &labels, &last, &waste, &left,
                          &first, &count, &seed, &inner, &inner_seed, &search))
        return NULL;
    PState s;
    int lf[14];
    if (!policy_state(fnd, ranks, labels, left, &s, lf)) return NULL;
    if (!advice_args(last, waste, inner, search)) return NULL;
    if (first < 0 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "first and count: 0 or more");
        return NULL;
    }
    long won = 0;
    if (p_acyclic(&s)) {
        Py_BEGIN_ALLOW_THREADS
        won = a_playouts(&s, last, waste, lf, first, count, seed, inner, inner_seed, search);
        Py_END_ALLOW_THREADS
    }
    return PyLong_FromLong(won);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(arrivals, waste_first, foundations, reserves, seconds, max_states, table_size,"
     " cancel, plain, probe, noise, slice, lds_share, bad, wait, empty)"
     " -> (verdict, line, states)\n"
     "verdict: 0 won, 1 lost, 2 unknown; line: move codes (0 deal, 1+k w>f, 5+j w>r,"
     " 9+4j+k r>f); max_states < 0: no cap."},
    {"playout", py_playout, METH_VARARGS,
     "playout(foundations, ranks, labels, last, waste, left, stock) -> won: the labels"
     " policy played out on one stock order (ranks, its top last)."},
    {"label_on", py_label_on, METH_VARARGS,
     "label_on(foundations, ranks, labels, rank, reserve, left) -> (foundations, ranks,"
     " labels, cost) | None: the card put on the reserve as the labels policy labels it there,"
     " settled; None: only a cycle is left."},
    {"playouts", py_playouts, METH_VARARGS,
     "playouts(foundations, ranks, labels, last, waste, left, count, seed) -> wins: the"
     " labels policy played out on ``count`` stock orders of the unseen ranks."},
    {"advice_game", py_advice_game, METH_VARARGS,
     "advice_game(foundations, ranks, labels, last, waste, left, stock, inner, seed, search)"
     " -> (won, moves): the advice (rollouts of ``inner`` playouts a reserve) played on one"
     " stock order; moves: 1 + q home to foundation q, 5 + j onto reserve j, a card each."},
    {"advice_until", py_advice_until, METH_VARARGS,
     "advice_until(foundations, ranks, labels, last, waste, left, stock, inner, seed, search,"
     " upto) -> ((foundations, ranks, labels, rank), left) | None: the advice played until"
     " ``upto`` cards are left in the stock, the card of ``rank`` just turned; None: the"
     " game was lost before."},
    {"advice_playouts", py_advice_playouts, METH_VARARGS,
     "advice_playouts(foundations, ranks, labels, last, waste, left, first, count, seed,"
     " inner, inner_seed, search) -> wins: the advice played out on stock orders first..first"
     " + count - 1 of the unseen ranks drawn from ``seed``."},
    USE_CPU_CLOCK_METHOD,
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_hopscotch",
    "The Hopscotch labelled search at native speed (see hopscotch.py).", -1, methods};

PyMODINIT_FUNC PyInit__hopscotch(void) {
    policy_init();
    for (int k = 0; k < 4; k++) {
        int rank = k + 1;
        SEQ[k][0] = rank;
        for (int i = 1; i < 13; i++) {
            rank = (rank - 1 + k + 1) % 13 + 1;
            SEQ[k][i] = rank;
        }
        SEQ[k][13] = 0;
    }
    for (int r = 0; r < 14; r++) {
        NEVENTS[r] = 0;
        for (int k = 0; k < 4; k++)
            for (int i = 1; i < 13; i++)
                if (SEQ[k][i] == r) EVENTS[r][NEVENTS[r]++] = k * 16 + i;
    }
    uint64_t seed = 0x5EED0F5011A7E1ULL;
    for (int h = 0; h <= NCARDS; h++) {
        for (int e = 0; e < 64; e++) {
            ZA[h][e] = splitmix(&seed);
            ZB[h][e] = splitmix(&seed);
        }
        LA[h] = splitmix(&seed);
        LB[h] = splitmix(&seed);
        SA[h] = splitmix(&seed);
        SB[h] = splitmix(&seed);
    }
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 16; i++) {
            PA[k][i] = splitmix(&seed);
            PB[k][i] = splitmix(&seed);
        }
    return PyModule_Create(&module);
}
