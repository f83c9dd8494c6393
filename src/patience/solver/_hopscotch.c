/* The Hopscotch labelled search at native speed: the search of ``hopscotch.py``'s
 * ``_Solver`` (read its module docstring for the rules 1-4 and their proofs), on a
 * mutable state with a hashed transposition table. The same pass schedule (plain
 * discrepancy passes, jittered probe passes in time slices, the exhaustive pass), the
 * same labellings of the root's reserve cards in the same order, the same children in
 * the same order, the same cuts: the same line after the same states, unless a budget
 * ends a pass. Where it differs, and why that is safe:
 *   - states are remembered by a 95-bit hash of their key (s, foundation sizes, the
 *     labelled reserves as a multiset): two states are confused with a probability of
 *     about n^2 / 2^96 for n states, below 1e-12 for a hundred million (a confusion
 *     could only cut a state that was not searched; a won line is replayed anyway);
 *   - the table grows as it fills, up to 2 * ``table_size`` slots of 16 bytes (at most
 *     2^24), and then forgets its older half (the Python search forgets everything
 *     once it holds ``table_size`` states): forgetting a state only
 *     costs searching it again, and a state searched again with the same discrepancies
 *     left fails again, so the plain and exhaustive passes find the same first win;
 *   - none in the probes: their jitter is splitmix64 from 0 in both (hopscotch.py's
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

/* -------------------------------------------------------- hashed table */

typedef struct {
    uint64_t a;
    uint32_t b; /* never 0 in a used entry */
    int32_t left;
} Entry;

typedef struct {
    Entry *e;
    size_t cap, count;
} Table;

#define SMALL ((size_t)1 << 16)
/* At most 2^24 slots a table (256 MiB; two tables, the newer and the older half),
 * whatever table_size asks: the process stays well under 2 GiB. */
#define MAXSLOTS ((size_t)1 << 24)

static int table_init(Table *t, size_t cap) {
    t->e = calloc(cap, sizeof(Entry));
    t->cap = t->e ? cap : 0;
    t->count = 0;
    return t->e != NULL;
}

static Entry *table_find(const Table *t, uint64_t a, uint32_t b) {
    size_t mask = t->cap - 1, i = (size_t)(a >> 7) & mask;
    for (;;) {
        Entry *e = &t->e[i];
        if (e->b == 0 || (e->a == a && e->b == b)) return e;
        i = (i + 1) & mask;
    }
}

/* ---------------------------------------------------------------- search */

typedef struct {
    /* the position: cards in the order they come up (the waste card first), ranks */
    int n, waste_first;
    uint8_t arr[NCARDS];
    int nxt[NCARDS + 1][14]; /* the first arrival index >= s of each rank (BIG: none) */
    int ptr0[4];
    int nres0[4];
    uint8_t ranks0[4][NCARDS];
    /* the state: foundation sizes, reserves of events (bottom to top) */
    int ptr[4], len[4];
    uint8_t res[4][NCARDS];
    /* the pass */
    Table tnew, told;
    size_t cap_max;
    int limited, cut, noisy;
    double pass_deadline;
    uint64_t rng;
    /* the budget */
    long long states, max_states;
    double deadline, next_poll;
    int cancelled, oom, interrupted;
    PyObject *cancel;
    PyThreadState *ts;
    /* the schedule and the ordering weights (hopscotch.py's constants) */
    int plain, probe;
    double noise, slice, lds_share, w_bad, w_wait, w_empty;
    /* the root: reserve cards to label, top layers first, and their candidate events */
    int nspots, spot_j[NCARDS], spot_h[NCARDS], nopt[NCARDS];
    uint8_t opt[NCARDS][4];
    int lab[4][NCARDS];    /* the labelling being built (-1: not yet) */
    int lj[64], lh[64];    /* where each labelled event is (-1: nowhere) */
    int eq[NCARDS + 1];    /* the option tried at each spot */
    int edepth, efound, edone;
    long long work, nmade; /* labellings made since the enumeration (re)started */
    uint8_t cache[CACHE][4][NCARDS];
    int ncache;
    /* the winning line: the root labelling and the child taken at each depth */
    uint8_t win_res[4][NCARDS];
    int8_t path_j[NCARDS];
    uint8_t path_e[NCARDS];
} Search;

/* Whether to stop: the pass's time is up, the caller cancelled, or the state budget is
 * spent (hopscotch.py's tick). The clock is read every 1024 states, the cancel event at
 * most every 20 ms: it needs the interpreter, and a busy thread holding it makes the
 * search wait up to the switch interval (5 ms) for it. */
static int tick(Search *S) {
    if (S->cancelled) return 1;
    if (S->max_states >= 0 && S->states > S->max_states) return 1;
    double t = now();
    if (t > S->pass_deadline) return 1;
    if (t >= S->next_poll) {
        S->next_poll = t + 0.02;
        if (caller_stops(S->cancel, &S->ts, &S->interrupted)) {
            S->cancelled = 1;
            return 1;
        }
    }
    return 0;
}

/* Whether the whole search must stop (not only this pass): hopscotch.py's
 * ``time.monotonic() > self.deadline or self.stopped()``. */
static int stopped(Search *S) {
    return S->cancelled || S->oom || (S->max_states >= 0 && S->states > S->max_states) ||
           now() > S->deadline;
}

static void memo_reset(Search *S) {
    if (S->told.e) {
        free(S->told.e);
        S->told.e = NULL;
        S->told.cap = S->told.count = 0;
    }
    if (S->tnew.cap > SMALL) {
        free(S->tnew.e);
        if (!table_init(&S->tnew, SMALL < S->cap_max ? SMALL : S->cap_max)) S->oom = 1;
    } else if (S->tnew.count) {
        memset(S->tnew.e, 0, S->tnew.cap * sizeof(Entry));
        S->tnew.count = 0;
    }
}

/* Make room after an insertion: double the table up to the cap, then start a new
 * one and keep the full one as the older half (looked up, and copied back on a hit). */
static void memo_room(Search *S) {
    Table *t = &S->tnew;
    if (t->count * 4 < t->cap * 3) return;
    if (t->cap < S->cap_max) {
        Table big;
        if (table_init(&big, t->cap * 2)) {
            for (size_t i = 0; i < t->cap; i++)
                if (t->e[i].b) *table_find(&big, t->e[i].a, t->e[i].b) = t->e[i];
            big.count = t->count;
            free(t->e);
            *t = big;
            return;
        }
        S->cap_max = t->cap; /* no memory for a bigger one: forget sooner instead */
    }
    Table old = S->told;
    S->told = *t;
    if (old.e && old.cap == t->cap) {
        memset(old.e, 0, old.cap * sizeof(Entry));
        old.count = 0;
        *t = old;
    } else {
        free(old.e);
        if (!table_init(t, S->told.cap)) S->oom = 1;
    }
}

/* Play every reserve top whose event is due (rule 2); append each pile played from to
 * ``out`` (its event to ``ev``), in hopscotch.py's _settle order. Returns the count. */
static int settle(Search *S, uint8_t *out, uint8_t *ev) {
    int n = 0, moved = 1;
    while (moved) {
        moved = 0;
        for (int j = 0; j < 4; j++) {
            while (S->len[j]) {
                int e = S->res[j][S->len[j] - 1], k = e >> 4;
                if (S->ptr[k] != (e & 15)) break;
                S->ptr[k]++;
                S->len[j]--;
                moved = 1;
                out[n] = (uint8_t)j;
                ev[n] = (uint8_t)e;
                n++;
            }
        }
    }
    return n;
}

static void unsettle(Search *S, int n, const uint8_t *piles, const uint8_t *ev) {
    while (n--) {
        int j = piles[n], e = ev[n];
        S->res[j][S->len[j]++] = (uint8_t)e;
        S->ptr[e >> 4]--;
    }
}

/* Where the card dealt at ``s`` may go, best first (hopscotch.py's children):
 * (reserve or -1 home, event) into ``kj``, ``ke``; returns how many. */
static int children(Search *S, int s, int8_t *kj, uint8_t *ke) {
    int w = S->arr[s];
    int8_t locj[64], loch[64];
    memset(locj, -1, sizeof locj);
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < S->len[j]; h++) {
            int e = S->res[j][h];
            locj[e] = (int8_t)j;
            loch[e] = (int8_t)h;
        }
    /* The earliest time each event can happen: its card's first possible arrival (now,
     * for a card on a reserve), and not before the event before it. */
    int when[64];
    const int *arrival = S->nxt[s];
    for (int k = 0; k < 4; k++) {
        int t = s;
        for (int i = S->ptr[k]; i < 13; i++) {
            int e = k * 16 + i;
            if (locj[e] < 0) {
                int a = arrival[SEQ[k][i]];
                if (a > t) t = a;
            }
            when[e] = t;
        }
    }
    /* Each distinct reserve's top and, per foundation, the lowest event that must come
     * after it (reach); the first empty reserve. */
    int ntops = 0, topj[4], topx[4], low[4][4], empty = -1;
    for (int j = 0; j < 4; j++) {
        if (!S->len[j]) {
            if (empty < 0) empty = j;
            continue;
        }
        int x = S->res[j][S->len[j] - 1];
        int *lo = low[ntops];
        lo[0] = lo[1] = lo[2] = lo[3] = 99;
        /* From y: the card under it and the later events of its foundation come after
         * it; every reserve card is labelled. Each event range of a foundation is
         * expanded once, pushing only the card right under each labelled card there
         * (the ones further down are reached through it): the same minimum per
         * foundation as the Python, which pushes all of them. */
        int todo[64], nt = 0;
        todo[nt++] = x;
        while (nt) {
            int y = todo[--nt], ky = y >> 4, iy = y & 15, old = lo[ky];
            if (iy >= old) continue;
            lo[ky] = iy;
            for (int i2 = iy; i2 < old && i2 < 13; i2++) {
                int z = ky * 16 + i2;
                if (locj[z] >= 0 && loch[z] > 0) todo[nt++] = S->res[locj[z]][loch[z] - 1];
            }
        }
        topj[ntops] = j;
        topx[ntops] = x;
        ntops++;
    }
    int n = 0;
    for (int q = 0; q < NEVENTS[w]; q++) {
        int e = EVENTS[w][q], k = e >> 4, i = e & 15;
        if (i < S->ptr[k] || locj[e] >= 0) continue;
        if (i == S->ptr[k]) {
            kj[n] = -1;
            ke[n] = (uint8_t)e;
            n++;
        }
    }
    int nhome = n;
    double score[MAXKIDS];
    for (int q = 0; q < NEVENTS[w]; q++) {
        int e = EVENTS[w][q], k = e >> 4, i = e & 15;
        if (i <= S->ptr[k] || locj[e] >= 0) continue;
        int due = when[e];
        double wait = S->w_wait * (double)(due - s);
        for (int t = 0; t < ntops; t++) {
            if (low[t][k] < i) continue; /* rule 3: x must come before an event before e */
            int tx = when[topx[t]];
            double sc = tx >= due ? (double)(tx - due) : S->w_bad + (double)(due - tx);
            sc += wait;
            if (S->noisy) sc += (double)(splitmix(&S->rng) >> 11) * 0x1p-53 * S->noise;
            score[n] = sc;
            kj[n] = (int8_t)topj[t];
            ke[n] = (uint8_t)e;
            n++;
        }
        if (empty >= 0) {
            double sc = S->w_empty + wait;
            if (S->noisy) sc += (double)(splitmix(&S->rng) >> 11) * 0x1p-53 * S->noise;
            score[n] = sc;
            kj[n] = (int8_t)empty;
            ke[n] = (uint8_t)e;
            n++;
        }
    }
    /* Sort the placements by (score, reserve, event), as Python sorts its tuples. */
    for (int a = nhome + 1; a < n; a++) {
        double sc = score[a];
        int8_t j = kj[a];
        uint8_t e = ke[a];
        int b = a - 1;
        while (b >= nhome &&
               (score[b] > sc || (score[b] == sc && (kj[b] > j || (kj[b] == j && ke[b] > e))))) {
            score[b + 1] = score[b];
            kj[b + 1] = kj[b];
            ke[b + 1] = ke[b];
            b--;
        }
        score[b + 1] = sc;
        kj[b + 1] = j;
        ke[b + 1] = e;
    }
    return n;
}

/* Search from the state in S (dealt ``s`` cards); WON (path filled from ``s``), LOST
 * (nothing here within ``left`` discrepancies) or STOP. The state is put back. */
static int dfs(Search *S, int s, int left) {
    uint8_t piles[NCARDS], ev[NCARDS];
    int nset = settle(S, piles, ev);
    int r = LOST;
    if (s == S->n) {
        r = (S->len[0] | S->len[1] | S->len[2] | S->len[3]) ? LOST : WON;
        goto out;
    }
    {
        /* The key: s, the foundation sizes, the reserves as a multiset. */
        uint64_t a = SA[s], b = SB[s];
        for (int k = 0; k < 4; k++) {
            a ^= PA[k][S->ptr[k]];
            b ^= PB[k][S->ptr[k]];
        }
        for (int j = 0; j < 4; j++) {
            uint64_t pa = LA[S->len[j]], pb = LB[S->len[j]];
            for (int h = 0; h < S->len[j]; h++) {
                pa ^= ZA[h][S->res[j][h]];
                pb ^= ZB[h][S->res[j][h]];
            }
            a += mixa(pa);
            b += mixb(pb);
        }
        uint32_t b32 = (uint32_t)(b >> 32) | 1u;
        Entry *e = table_find(&S->tnew, a, b32);
        if (e->b) {
            if (e->left >= left) goto out;
            e->left = left;
        } else {
            if (S->told.e) {
                Entry *o = table_find(&S->told, a, b32);
                if (o->b && o->left >= left) {
                    *e = *o; /* keep it: it is in use again */
                    S->tnew.count++;
                    memo_room(S);
                    goto out;
                }
            }
            e->a = a;
            e->b = b32;
            e->left = left;
            S->tnew.count++;
            memo_room(S);
        }
        if (S->oom) {
            r = STOP;
            goto out;
        }
    }
    S->states++;
    if ((S->states & 1023) == 0) {
        if (tick(S)) {
            r = STOP;
            goto out;
        }
    } else if (S->max_states >= 0 && S->states > S->max_states) {
        r = STOP;
        goto out;
    }
    {
        int8_t kj[MAXKIDS];
        uint8_t ke[MAXKIDS];
        int nk = children(S, s, kj, ke);
        for (int i = 0; i < nk; i++) {
            if (i > left) {
                S->cut = 1;
                break;
            }
            int j = kj[i], e = ke[i];
            if (j < 0)
                S->ptr[e >> 4]++;
            else
                S->res[j][S->len[j]++] = (uint8_t)e;
            int got = dfs(S, s + 1, S->limited ? left - i : left);
            if (j < 0)
                S->ptr[e >> 4]--;
            else
                S->len[j]--;
            if (got == WON) {
                S->path_j[s] = (int8_t)j;
                S->path_e[s] = (uint8_t)e;
                r = WON;
                break;
            }
            if (got == STOP) {
                r = STOP;
                break;
            }
        }
    }
out:
    unsettle(S, nset, piles, ev);
    return r;
}

/* --------------------------------------------------------------- the root */

/* The nearest labelled card under height ``h`` of reserve ``j`` (-1: none). */
static int below(const Search *S, int j, int h) {
    for (int x = h - 1; x >= 0; x--)
        if (S->lab[j][x] >= 0) return S->lab[j][x];
    return -1;
}

/* Whether labelling (j, h) with ``e`` closes a cycle (the labelling so far has none):
 * hopscotch.py's closes_cycle. */
static int closes_cycle(const Search *S, int e, int j, int h) {
    int k = e >> 4, i = e & 15;
    uint64_t before = 0, seen = 0;
    int todo[1024], nt = 0;
    for (int x = h + 1; x < S->nres0[j]; x++)
        if (S->lab[j][x] >= 0) before |= 1ULL << S->lab[j][x];
    for (int i2 = 1; i2 < 13; i2++) {
        int x = k * 16 + i2;
        if (S->lj[x] < 0) continue;
        if (i2 < i)
            before |= 1ULL << x;
        else if (i2 > i)
            todo[nt++] = x;
    }
    int down = below(S, j, h);
    if (down >= 0) todo[nt++] = down;
    while (nt) {
        int y = todo[--nt];
        if (before >> y & 1) return 1;
        if (seen >> y & 1) continue;
        seen |= 1ULL << y;
        int z = below(S, S->lj[y], S->lh[y]);
        if (z >= 0 && nt < 1024) todo[nt++] = z;
        int ky = y >> 4;
        for (int i2 = (y & 15) + 1; i2 < 13 && nt < 1024; i2++) {
            int x = ky * 16 + i2;
            if (S->lj[x] >= 0 && !(seen >> x & 1)) todo[nt++] = x;
        }
    }
    return 0;
}

/* Every acyclic labelling of the reserve cards, likeliest first (hopscotch.py's
 * labellings), one at a time: the enumeration is resumable, so it runs once for the
 * whole search, not once per pass (on a position with many reserve cards it can cost
 * far more than the passes' searches), and the first labellings are kept for the
 * discrepancy passes, which use only the first few. The order is the Python's.
 *
 * Labels the next labelling in ``lab``: 1, or 0 when there is none left, or STOP (-1)
 * when the time ran out (the enumeration resumes where it stood). */
static void unlabel(Search *S, int d) {
    int j = S->spot_j[d], h = S->spot_h[d], e = S->lab[j][h];
    S->lj[e] = S->lh[e] = -1;
    S->lab[j][h] = -1;
}

static int next_labelling(Search *S) {
    int d = S->edepth;
    if (S->efound) { /* go on from the last labelling */
        S->efound = 0;
        if (d == 0) {
            S->edone = 1;
            return 0;
        }
        d--;
        unlabel(S, d);
        S->eq[d]++;
    }
    for (;;) {
        if (d == S->nspots) {
            S->edepth = d;
            S->efound = 1;
            return 1;
        }
        if (S->eq[d] >= S->nopt[d]) {
            if (d == 0) {
                S->edepth = 0;
                S->edone = 1;
                return 0;
            }
            d--;
            unlabel(S, d);
            S->eq[d]++;
            continue;
        }
        int e = S->opt[d][S->eq[d]], j = S->spot_j[d], h = S->spot_h[d];
        if (S->lj[e] >= 0) {
            S->eq[d]++;
            continue;
        }
        S->work++;
        if ((S->work & 63) == 0 && tick(S)) {
            S->edepth = d;
            return -1;
        }
        if (closes_cycle(S, e, j, h)) {
            S->eq[d]++;
            continue;
        }
        S->lab[j][h] = e;
        S->lj[e] = j;
        S->lh[e] = h;
        d++;
        S->eq[d] = 0;
    }
}

static void restart_labellings(Search *S) {
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < NCARDS; h++) S->lab[j][h] = -1;
    for (int e = 0; e < 64; e++) S->lj[e] = S->lh[e] = -1;
    S->edepth = S->efound = S->edone = 0;
    S->eq[0] = 0;
    S->nmade = 0;
}

/* Labelling ``i`` (asked for in order from 0 in each pass) into ``out``: 1, 0 when
 * there are only ``i``, or -1 (STOP). */
static int labelling(Search *S, long long i, uint8_t out[4][NCARDS]) {
    if (i < S->ncache) {
        memcpy(out, S->cache[i], sizeof S->cache[i]);
        return 1;
    }
    if (i < S->nmade) restart_labellings(S); /* past the cache: only a last pass gets here */
    while (S->nmade <= i) {
        if (S->edone) return 0;
        int r = next_labelling(S);
        if (r <= 0) return r;
        if (S->nmade == S->ncache && S->ncache < CACHE) {
            for (int j = 0; j < 4; j++)
                for (int h = 0; h < S->nres0[j]; h++) S->cache[S->ncache][j][h] = (uint8_t)S->lab[j][h];
            S->ncache++;
        }
        S->nmade++;
    }
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < S->nres0[j]; h++) out[j][h] = (uint8_t)S->lab[j][h];
    return 1;
}

/* One pass (limit < 0: exhaustive): WON, LOST (proven), or UNKNOWN (cut short by its
 * discrepancy limit or its time), or STOP (the whole search must stop). hopscotch.py's
 * pass_: labelling i is searched with i discrepancies fewer, and the pass is cut when
 * a labelling beyond its limit exists. */
static int pass(Search *S, int limit, double deadline) {
    memo_reset(S);
    if (S->oom) return STOP;
    S->cut = 0;
    S->limited = limit >= 0;
    S->pass_deadline = deadline;
    int left = limit >= 0 ? limit : BIG;
    uint8_t root[4][NCARDS];
    for (long long i = 0;; i++) {
        int got = labelling(S, i, root);
        if (got < 0) return stopped(S) ? STOP : UNKNOWN;
        if (got == 0) break;
        if (i > left) {
            S->cut = 1;
            break;
        }
        for (int k = 0; k < 4; k++) S->ptr[k] = S->ptr0[k];
        for (int j = 0; j < 4; j++) S->len[j] = S->nres0[j];
        memcpy(S->res, root, sizeof root);
        int r = dfs(S, 0, S->limited ? left - (int)i : left);
        if (r == WON) {
            memcpy(S->win_res, root, sizeof root);
            return WON;
        }
        if (r == STOP) return stopped(S) ? STOP : UNKNOWN;
    }
    return S->cut ? UNKNOWN : LOST;
}

/* hopscotch.py's run: plain passes, probes, the exhaustive pass. */
static int run(Search *S, double seconds) {
    double start = now();
    S->deadline = start + seconds;
    double lds_end = start + seconds * S->lds_share;
    S->next_poll = start;
    int r;
    for (int limit = 0; limit < S->plain; limit++) {
        if (now() >= lds_end) break;
        r = pass(S, limit, lds_end < S->deadline ? lds_end : S->deadline);
        if (r == WON || r == LOST) return r;
        if (r == STOP) return UNKNOWN;
    }
    S->noisy = 1;
    S->rng = 0;
    for (;;) {
        double t = now();
        if (t >= lds_end) break;
        r = pass(S, S->probe, lds_end < t + S->slice ? lds_end : t + S->slice);
        if (r == WON || r == LOST) return r;
        if (r == STOP) return UNKNOWN;
    }
    S->noisy = 0;
    r = pass(S, -1, S->deadline);
    return r == STOP ? UNKNOWN : r;
}

/* The winning line as move codes (hopscotch.py's moves). */
static int emit(Search *S, uint8_t *out) {
    uint8_t piles[NCARDS], ev[NCARDS];
    int n = 0;
    for (int k = 0; k < 4; k++) S->ptr[k] = S->ptr0[k];
    for (int j = 0; j < 4; j++) S->len[j] = S->nres0[j];
    memcpy(S->res, S->win_res, sizeof S->res);
    int m = settle(S, piles, ev);
    for (int q = 0; q < m; q++) out[n++] = (uint8_t)(R_TO_F + 4 * piles[q] + (ev[q] >> 4));
    for (int s = 0; s < S->n; s++) {
        if (s || !S->waste_first) out[n++] = DEAL;
        int j = S->path_j[s], e = S->path_e[s];
        if (j < 0) {
            S->ptr[e >> 4]++;
            out[n++] = (uint8_t)(W_TO_F + (e >> 4));
        } else {
            S->res[j][S->len[j]++] = (uint8_t)e;
            out[n++] = (uint8_t)(W_TO_R + j);
        }
        m = settle(S, piles, ev);
        for (int q = 0; q < m; q++) out[n++] = (uint8_t)(R_TO_F + 4 * piles[q] + (ev[q] >> 4));
    }
    return n;
}

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
    free(S->tnew.e);
    free(S->told.e);
    free(S);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(arrivals, waste_first, foundations, reserves, seconds, max_states, table_size,"
     " cancel, plain, probe, noise, slice, lds_share, bad, wait, empty)"
     " -> (verdict, line, states)\n"
     "verdict: 0 won, 1 lost, 2 unknown; line: move codes (0 deal, 1+k w>f, 5+j w>r,"
     " 9+4j+k r>f); max_states < 0: no cap."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_hopscotch",
    "The Hopscotch labelled search at native speed (see hopscotch.py).", -1, methods};

PyMODINIT_FUNC PyInit__hopscotch(void) {
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
