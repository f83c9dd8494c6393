/* The Hopscotch labelled search's depth-first search from a labelled root: the
 * state, the budget, when the table (_table.h) grows and forgets, the settling of
 * due reserve tops, the children.
 * Part of the _hopscotch module: included once, in order, by _hopscotch.c (one
 * translation unit, so the compiler inlines across these files). */

/* -------------------------------------------------------- hashed table
 * The shared table (_table.h), an entry's value the discrepancies left (at most
 * 32767: a pass's limits are all small, or all the exhaustive pass's BIG). */

#define SMALL ((size_t)1 << 16)
/* At most 2^24 slots a table (256 MiB; two tables, the newer and the older half),
 * whatever table_size asks: the process stays well under 2 GiB. */
#define MAXSLOTS ((size_t)1 << 24)

/* An entry's value for ``left`` discrepancies: within one pass every ``left`` is at
 * most the pass's limit (< 64) or BIG (the exhaustive pass), so clamping BIG keeps
 * every comparison. */
static inline int32_t left_value(int left) { return left < 32767 ? left : 32767; }

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
    /* the schedule and the ordering weights (hopscotch_labels.py's constants) */
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
 * spent (hopscotch_labels.py's tick). The clock is read every 1024 states, the cancel event at
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

/* Whether the whole search must stop (not only this pass): hopscotch_labels.py's
 * ``clock.now() > self.deadline or self.stopped()``. */
static int stopped(Search *S) {
    return S->cancelled || S->oom || (S->max_states >= 0 && S->states > S->max_states) ||
           now() > S->deadline;
}

static void memo_reset(Search *S) {
    if (S->told.e) {
        entries_free(S->told.e, S->told.cap);
        S->told.e = NULL;
        S->told.cap = S->told.count = 0;
    }
    if (S->tnew.cap > SMALL) {
        entries_free(S->tnew.e, S->tnew.cap);
        if (!table_init(&S->tnew, SMALL < S->cap_max ? SMALL : S->cap_max)) S->oom = 1;
    } else if (S->tnew.count) {
        table_clear(&S->tnew);
    }
}

/* Make room after an insertion: double the table up to the cap, then start a new
 * one and keep the full one as the older half (looked up, and copied back on a hit). */
static void memo_room(Search *S) {
    Table *t = &S->tnew;
    if (t->count * 4 < t->cap * 3) return;
    if (t->cap < S->cap_max) {
        if (table_grow(t)) return;
        S->cap_max = t->cap; /* no memory for a bigger one: forget sooner instead */
    }
    Table old = S->told;
    S->told = *t;
    if (old.e && old.cap == t->cap) {
        table_clear(&old);
        *t = old;
    } else {
        entries_free(old.e, old.cap);
        if (!table_init(t, S->told.cap)) S->oom = 1;
    }
}

/* Play every reserve top whose event is due (rule 2); append each pile played from to
 * ``out`` (its event to ``ev``), in hopscotch_labels.py's _settle order. Returns the count. */
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

/* Where the card dealt at ``s`` may go, best first (hopscotch_labels.py's children):
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
        int32_t v = left_value(left);
        b &= ~VMASK;
        Entry *e = table_find(&S->tnew, a, b);
        if (e->b) {
            if (entry_val(e) >= v) goto out;
            e->b = b | (uint64_t)(v + 32768);
        } else {
            if (S->told.e) {
                Entry *o = table_find(&S->told, a, b);
                if (o->b && entry_val(o) >= v) {
                    *e = *o; /* keep it: it is in use again */
                    S->tnew.count++;
                    memo_room(S);
                    goto out;
                }
            }
            e->a = a;
            e->b = b | (uint64_t)(v + 32768);
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
