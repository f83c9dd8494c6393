/* The searches of Klondike, Lady Jane and Baker's Dozen at native speed: the same
 * search as the reference search (``dfs.py``) runs on ``KlondikeAdapter``, ``LadyJaneAdapter`` and
 * ``BakersDozenAdapter`` (the same moves in the same order, the same proven cuts), on a
 * mutable state with a hashed transposition table. Lady Jane is Klondike in relative
 * ranks (``alternating.py``): the state carries its rank tables, its reserves and its
 * stock; Baker's Dozen uses 13 piles and its own moves, safe moves and relaxation.
 *
 * Every cut made here is the one proven in the docstrings of ``klondike.py``,
 * ``lady_jane.py``, ``bakers_dozen.py`` and ``alternating.py``; this file only makes
 * it fast. The differences are stated where
 * they are made:
 *   - states are remembered by a 112-bit hash of their canonical key (two
 *     independent 64-bit lanes, 16 bits of one holding the entry's value), so two
 *     different states are confused with a probability of about n^2 / 2^113 for n
 *     states: below 1e-16 for a billion;
 *   - the tables grow as they fill, up to the caller's cap, and then forget their
 *     older half (the states on the current line are put back), as dfs.py does;
 *   - with unlimited redeals the redeal counter is no cost (it changes nothing).
 * A winning line is returned as engine move strings; the Python side replays it
 * through the engine's checked ``play`` before it reports ``won``. Verdicts are
 * returned as codes (0 won, 1 lost, 2 unknown: ``schedule.Verdict.of_code``); the pass
 * schedule is the caller's (``schedule.run``): each call runs one stage.
 *
 * This file holds the module (its tables and the Python glue); the search is in the
 * headers it includes, in this order (one translation unit: the compiler inlines
 * across them): _table.h (the transposition table), _tableau_state.h (the state
 * and its moves, made and undone), _relaxed.h (the two relaxed games), _tableau_keys.h
 * (keys, the relaxed verdicts' memo, child ranking), _bakers_dozen.h, _bd_groups.h
 * and _bd_classes.h (Baker's Dozen searched by classes of states), _klondike.h,
 * _lady_jane.h (each game's safe moves and children), _dfs.h (each game's Rules, the
 * functions a search is given for its game here, and the search), _best.h (the
 * best-first search, for Baker's Dozen), _tableau_io.h (piles read, lines written),
 * _tableau_kept.h (what a solve's searches keep from one to the next: the memo).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_native.h"

#define NOTAG 255
#define EMPTIED 52
#define SWITCH 64 /* + a card: the obligation after a move that left that parent free */
#define RETURN_DEPTH 30
#define MAXP 32
#define MAXPILE 64

enum { WON = 0, LOST = 1, UNKNOWN = 2, STOP = 3 };
enum { P_TT, P_TF, P_WT, P_WF, P_FT, P_XT, P_XF, P_DEAL };
/* P_XT, P_XF: Lady Jane's stacks (a: r1-r7 as 0-6, the waste 7, the stock's last card 8). */

static int RANK[52], SUIT[52], RED[52]; /* RANK: only to set up the tables below */
static uint64_t RA[MAXPILE][53], RB[MAXPILE][53], DA[MAXPILE], DB[MAXPILE];
static uint64_t ZA[52], ZB[52];

#include "_table.h"
#include "_tableau_state.h"
#include "_relaxed.h"
#include "_tableau_keys.h"
#include "_bakers_dozen.h"
#include "_bd_groups.h"
#include "_bd_looser.h"
#include "_bd_classes.h"
#include "_klondike.h"
#include "_lady_jane.h"
#include "_dfs.h"
#include "_best.h"

/* ------------------------------------------------------ Python glue */

#include "_tableau_io.h"
#include "_tableau_kept.h"

/* Fill the foundations, piles and face-down counts of S's state; 0 (an exception
 * set) on a bad position. */
static int fill(Search *S, PyObject *fnd, PyObject *tab, PyObject *down) {
    State *s = &S->st;
    uint8_t buf[52];
    int n;
    for (int f = 0; f < 4; f++) s->sof[f] = s->fof[f] = -1;
    if (!PyList_Check(fnd) || PyList_GET_SIZE(fnd) != 4 || !PyList_Check(tab) ||
        PyList_GET_SIZE(tab) != s->npiles) {
        PyErr_Format(PyExc_ValueError, "4 foundations and %d piles expected", s->npiles);
        goto fail;
    }
    for (int f = 0; f < 4; f++) {
        if (!fill_pile(PyList_GET_ITEM(fnd, f), buf, &n, 13)) goto fail;
        if (n) {
            int su = SUIT[buf[0]];
            s->sof[f] = su;
            s->fof[su] = f;
            s->h[su] = n;
        }
    }
    for (int i = 0; i < s->npiles; i++)
        if (!fill_pile(PyList_GET_ITEM(tab, i), s->tab[i], &s->len[i], 52)) goto fail;
    if (!fill_pile(down, buf, &n, 52) || n != s->npiles) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a down count per pile expected");
        goto fail;
    }
    for (int i = 0; i < s->npiles; i++) {
        s->down[i] = buf[i];
        if (s->down[i] >= s->len[i] && s->len[i]) {
            PyErr_SetString(PyExc_ValueError, "a pile's top card must be face up");
            goto fail;
        }
    }
    s->dirty = ~0u;
    sums_init(s);
    return 1;
fail:
    return 0;
}

/* Fill the foundations, piles and face-down counts, search, and answer
 * (verdict, line, states); frees S. */
static PyObject *run(Search *S, PyObject *fnd, PyObject *tab, PyObject *down, int prune,
                     int disc, double seconds, long long max_states, long long table_size,
                     PyObject *cancel) {
    if (!fill(S, fnd, tab, down)) goto fail;
    S->prune = prune;
    S->lds = disc >= 0;
    S->max_states = max_states;
    S->cancel = cancel;
    S->deadline = now() + seconds;
    S->half = table_size > 2 ? (size_t)table_size / 2 : 1;
    S->memo_limit = 1 << 20;
    /* The tables start small (64 KiB each) and grow as they fill. A search is often
     * a pass of a few thousand states, and a table's hashed entries land on every
     * page it has: three tables of 1 MiB cost about 800 page faults (each a page
     * zeroed) a pass, most of the time of a deal the passes win at once (draw-3 deals
     * 50001..50100 won within 20,000 states: 1.05 million page faults to 3,800, 2.2
     * CPU s to 1.25, the same states). */
    if (S->kept) S->memo = *S->kept;
    if (!table_init(&S->tnew, 1 << 12) || !table_init(&S->told, 1 << 12) ||
        (!S->kept && !table_init(&S->memo, 1 << 12))) {
        PyErr_NoMemory();
        goto fail;
    }
    int r;
    S->ts = PyEval_SaveThread();
    r = S->best ? best_first(S, S->best - 1) : dfs(S, disc >= 0 ? disc : 0);
    PyEval_RestoreThread(S->ts);
    if (S->interrupted) goto fail; /* the signal handler's exception is set */
    if (S->oom) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *line;
    if (r == WON) {
        line = line_of(S);
        if (!line) goto fail;
    } else {
        line = PyList_New(0);
        if (!line) goto fail;
        r = (r == STOP || S->cut || S->incomplete) ? UNKNOWN : LOST;
    }
    PyObject *res = Py_BuildValue("(iNL)", r, line, S->states);
    release(S);
    free(S);
    return res;
fail:
    release(S);
    free(S);
    return NULL;
}

/* A Klondike search's stock and rules: its sequence is the waste then the stock reversed,
 * dealt from ``ptr``. 0 (with the exception set) on bad input. */
static int klondike_stock(Search *S, PyObject *stock, PyObject *waste, int redeals, int draw,
                          int limit) {
    State *s = &S->st;
    uint8_t buf[52];
    int n;
    set_ranks(s, 0);
    if (!fill_pile(waste, s->seq, &s->nseq, 52) || !fill_pile(stock, buf, &n, 52)) return 0;
    if (s->nseq + n > 52) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return 0;
    }
    s->ptr = s->nseq;
    for (int k = n - 1; k >= 0; k--) s->seq[s->nseq++] = buf[k];
    s->redeals = redeals;
    S->rules = draw == 3 ? &KLONDIKE3 : &KLONDIKE1;
    S->draw = draw;
    S->limit = limit;
    return 1;
}

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"stock", "waste", "foundations", "tableau", "down", "redeals",
                            "draw", "limit", "prune", "discrepancies", "seconds",
                            "max_states", "table_size", "cancel", "memo", NULL};
    PyObject *stock, *waste, *fnd, *tab, *down, *cancel, *memo = Py_None;
    int redeals, draw, limit, prune, disc;
    double seconds;
    long long max_states, table_size;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOiiipidLLO|O", names, &stock, &waste, &fnd,
                                     &tab, &down, &redeals, &draw, &limit, &prune, &disc,
                                     &seconds, &max_states, &table_size, &cancel, &memo))
        return NULL;
    Table *kept = NULL;
    if (memo != Py_None && !(kept = PyCapsule_GetPointer(memo, KEPT_MEMO))) return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    S->kept = kept;
    if (!klondike_stock(S, stock, waste, redeals, draw, limit)) goto fail;
    S->canon = prune;
    return run(S, fnd, tab, down, prune, disc, seconds, max_states, table_size, cancel);
fail:
    release(S);
    free(S);
    return NULL;
}

/* The two relaxed games' verdicts on a Klondike position (for the tests, which hold
 * them to relaxed.Relaxed and relaxed.Ordered as KlondikeAdapter plays them). */
static PyObject *py_relaxed(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"stock", "waste", "foundations", "tableau", "down", "redeals",
                            "draw", "limit", NULL};
    PyObject *stock, *waste, *fnd, *tab, *down;
    int redeals, draw, limit;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOiii", names, &stock, &waste, &fnd, &tab,
                                     &down, &redeals, &draw, &limit))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    PyObject *res = NULL;
    if (klondike_stock(S, stock, waste, redeals, draw, limit) && fill(S, fnd, tab, down))
        res = Py_BuildValue("(ii)", relaxed_lost(S), ordered_lost(S));
    free(S);
    return res;
}

static PyObject *py_lady_jane(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"stock", "waste", "foundations", "tableau", "down", "reserve",
                            "base", "prune", "discrepancies", "seconds", "max_states",
                            "table_size", "cancel", NULL};
    PyObject *stock, *waste, *fnd, *tab, *down, *reserve, *cancel;
    int base, prune, disc;
    double seconds;
    long long max_states, table_size;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOOipidLLO", names, &stock, &waste, &fnd,
                                     &tab, &down, &reserve, &base, &prune, &disc, &seconds,
                                     &max_states, &table_size, &cancel))
        return NULL;
    if (base < 1 || base > 13) {
        PyErr_SetString(PyExc_ValueError, "base rank out of range");
        return NULL;
    }
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    State *s = &S->st;
    S->rules = &LADY_JANE;
    S->draw = 1;
    S->limit = -1;
    set_ranks(s, base);
    S->canon = prune;
    if (!fill_pile(stock, s->stock, &s->nstock, 52) || !fill_pile(waste, s->res[7], &s->nres[7], 52))
        goto fail;
    if (!PyList_Check(reserve) || PyList_GET_SIZE(reserve) != 7) {
        PyErr_SetString(PyExc_ValueError, "7 reserves expected");
        goto fail;
    }
    for (int i = 0; i < 7; i++)
        if (!fill_pile(PyList_GET_ITEM(reserve, i), s->res[i], &s->nres[i], 52)) goto fail;
    return run(S, fnd, tab, down, prune, disc, seconds, max_states, table_size, cancel);
fail:
    release(S);
    free(S);
    return NULL;
}

static PyObject *py_bakers_dozen(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"foundations", "tableau", "other_suit", "kings_move", "prune",
                            "discrepancies", "seconds", "max_states", "table_size", "cancel",
                            "seed", "estimate", "shuffle", NULL};
    PyObject *fnd, *tab, *cancel;
    int other_suit, kings_move, prune, disc, estimate, shuffle = 0;
    double seconds;
    long long max_states, table_size;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOpppidLLOKi|p", names, &fnd, &tab, &other_suit,
                                     &kings_move, &prune, &disc, &seconds, &max_states,
                                     &table_size, &cancel, &seed, &estimate, &shuffle))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    set_ranks(&S->st, 0);
    S->st.npiles = 13;
    S->rules = &BAKERS_DOZEN;
    S->other_suit = other_suit;
    S->kings_move = kings_move;
    S->draw = 1;
    S->limit = -1;
    S->jitter = seed ? seed * 0x9E3779B97F4A7C15ULL : 0;
    S->best = estimate >= 0 ? estimate + 1 : 0;
    S->shuffle = shuffle && seed;
    PyObject *down = PyBytes_FromStringAndSize(NULL, 13);
    if (!down) {
        free(S);
        return NULL;
    }
    memset(PyBytes_AS_STRING(down), 0, 13);
    PyObject *res = run(S, fnd, tab, down, prune, disc, seconds, max_states, table_size, cancel);
    Py_DECREF(down);
    return res;
}

static PyObject *py_bakers_dozen_classes(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"tableau", "other_suit", "seconds", "max_states",
                            "max_arrangements", "cancel", "looser_states", NULL};
    PyObject *tab, *cancel;
    int other_suit;
    double seconds;
    long long max_states, max_arrangements, looser_states = 0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OpdLLO|L", names, &tab, &other_suit, &seconds,
                                     &max_states, &max_arrangements, &cancel, &looser_states))
        return NULL;
    CSearch *C = calloc(1, sizeof(CSearch));
    if (!C) return PyErr_NoMemory();
    CState s;
    memset(&s, 0, sizeof s);
    PyObject *seq = PySequence_Fast(tab, "tableau must be a sequence");
    int ok = seq && PySequence_Fast_GET_SIZE(seq) == 13;
    if (seq && !ok) PyErr_SetString(PyExc_ValueError, "13 piles expected");
    int left[4] = {13, 13, 13, 13};
    for (int i = 0; ok && i < 13; i++) {
        ok = fill_pile(PySequence_Fast_GET_ITEM(seq, i), s.tab[i], &s.len[i], MAXPILE / 2);
        for (int k = 0; ok && k < s.len[i]; k++) left[SUIT[s.tab[i][k]]]--;
    }
    Py_XDECREF(seq);
    if (!ok) {
        free(C);
        return NULL;
    }
    for (int su = 0; su < 4; su++) s.h[su] = left[su];
    C->other_suit = other_suit;
    C->deadline = now() + seconds;
    C->max_states = max_states < 0 ? SIZE_MAX : (size_t)max_states;
    C->max_arrangements = max_arrangements < 0 ? SIZE_MAX : (size_t)max_arrangements;
    C->looser_states = looser_states < 0 ? 0 : (size_t)looser_states;
    C->cancel = cancel;
    C->ts = PyEval_SaveThread();
    int verdict = class_search(C, &s);
    PyEval_RestoreThread(C->ts);
    if (verdict == STOP) verdict = UNKNOWN;
    PyObject *line = PyList_New(0);
    for (int k = 1; line && verdict == WON && k <= C->depth - 1; k++) {
        const Packed *p = k < C->depth - 1 ? &C->levels[k].kids[C->levels[k].next - 1] : &C->win;
        PyObject *b = PyBytes_FromStringAndSize((const char *)p->b, CL_PACK);
        if (!b || PyList_Append(line, b) < 0) Py_CLEAR(line);
        Py_XDECREF(b);
    }
    PyObject *res = line ? Py_BuildValue("(innnN)", verdict, (Py_ssize_t)C->children,
                                         (Py_ssize_t)C->classes, (Py_ssize_t)C->arrangements,
                                         line)
                         : NULL;
    int interrupted = C->interrupted;
    class_search_free(C);
    free(C);
    if (interrupted) {
        Py_XDECREF(res);
        return NULL;
    }
    return res;
}

static PyObject *py_key_ahead(PyObject *self, PyObject *arg) {
    (void)self;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a table size >= 0 expected");
        return NULL;
    }
    size_t was = KEY_AHEAD;
    KEY_AHEAD = (size_t)n;
    return PyLong_FromSize_t(was);
}

/* A test's switch: ``*flag`` set to ``arg``'s truth; the setting before. */
static PyObject *set_switch(int *flag, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    int was = *flag;
    *flag = on;
    return PyBool_FromLong(was);
}

static PyObject *py_dominance(PyObject *self, PyObject *arg) {
    (void)self;
    return set_switch(&DOMINANCE, arg);
}

static PyObject *py_run_swaps(PyObject *self, PyObject *arg) {
    (void)self;
    return set_switch(&RUN_SWAPS, arg);
}

static PyObject *py_grow_in_place(PyObject *self, PyObject *arg) {
    (void)self;
    return set_switch(&TABLE_IN_PLACE, arg);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(stock, waste, foundations, tableau, down, redeals, draw, limit, prune,"
     " discrepancies, seconds, max_states, table_size, cancel, memo=None) -> (verdict, moves,"
     " states)\n"
     "verdict: 0 won, 1 lost, 2 unknown; discrepancies < 0: exhaustive; max_states < 0:"
     " none; memo: memo()'s, shared by the searches of one position under the same rules."},
    {"relaxed", (PyCFunction)(void (*)(void))py_relaxed, METH_VARARGS | METH_KEYWORDS,
     "relaxed(stock, waste, foundations, tableau, down, redeals, draw, limit) -> (relaxed"
     " lost, ordered lost): the two relaxed games' verdicts on a Klondike position"
     " (limit < 0: unlimited redeals)."},
    {"key_ahead", py_key_ahead, METH_O,
     "key_ahead(entries) -> the size before: the table's size from which the search keys a"
     " node's children ahead (0: always), which changes its speed, never its states."},
    {"grow_in_place", py_grow_in_place, METH_O,
     "grow_in_place(on) -> whether it was on: the tables, once big, grow in place (or each"
     " into a new one), which changes their memory, never the search."},
    {"dominance", py_dominance, METH_O,
     "dominance(on) -> whether it was on: the exhaustive draw-3 search prunes a state that"
     " one it searched dominates (the cut; off for the test that it changes no verdict)."},
    {"run_swaps", py_run_swaps, METH_O,
     "run_swaps(on) -> whether it was on: Klondike's keys exchange the runs on twin"
     " parents (the cut; off for the test that it changes no verdict)."},
    {"memo", py_memo, METH_NOARGS,
     "memo() -> a memo of relaxed verdicts for search(memo=...), freed with it."},
    {"lady_jane", (PyCFunction)(void (*)(void))py_lady_jane, METH_VARARGS | METH_KEYWORDS,
     "lady_jane(stock, waste, foundations, tableau, down, reserve, base, prune,"
     " discrepancies, seconds, max_states, table_size, cancel) -> (verdict, moves, states)"},
    {"bakers_dozen", (PyCFunction)(void (*)(void))py_bakers_dozen, METH_VARARGS | METH_KEYWORDS,
     "bakers_dozen(foundations, tableau, other_suit, kings_move, prune, discrepancies,"
     " seconds, max_states, table_size, cancel, seed, estimate, shuffle=False) -> (verdict,"
     " moves, states)\n"
     "seed: a jittered move order (0: none), shuffled with shuffle; estimate >= 0: best-first"
     " with that estimate instead of depth-first (discrepancies and seed then unused)."},
    {"bakers_dozen_classes", (PyCFunction)(void (*)(void))py_bakers_dozen_classes,
     METH_VARARGS | METH_KEYWORDS,
     "bakers_dozen_classes(tableau, other_suit, seconds, max_states, max_arrangements,"
     " cancel, looser_states=0) -> (verdict, states, classes, arrangements, line)\n"
     "Kings to the bottom only; the cards not in the tableau are home; states: the"
     " children made; line (won): the children from the start to the win, each the"
     " state it comes from packed (each pile's cards and 255) and, at bytes 66 and 67,"
     " the pile its move takes a card from and the pile it goes to (255: home). max_*:"
     " < 0, none (max_arrangements bounds the looser game's memory too); looser_states:"
     " the looser game's give-up (_bd_looser.h; 0: not used)."},
    USE_CPU_CLOCK_METHOD,
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tableau",
                                    "The search of Klondike and Lady Jane at native speed (see klondike.py, lady_jane.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__tableau(void) {
    uint64_t seed = 0x5EED0F5011A7E1ULL;
    for (int c = 0; c < 52; c++) {
        RANK[c] = c % 13 + 1;
        SUIT[c] = c / 13;
        RED[c] = SUIT[c] & 1;
        ZA[c] = splitmix(&seed);
        ZB[c] = splitmix(&seed);
    }
    for (int k = 0; k < MAXPILE; k++) {
        for (int c = 0; c < 53; c++) {
            RA[k][c] = splitmix(&seed);
            RB[k][c] = splitmix(&seed);
        }
        DA[k] = splitmix(&seed);
        DB[k] = splitmix(&seed);
    }
    return PyModule_Create(&module);
}
