/* The searches of Klondike, Lady Jane and Baker's Dozen at native speed: the same
 * search as ``search.py`` runs on ``KlondikeAdapter``, ``LadyJaneAdapter`` and
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
 *     older half (the states on the current line are put back), as search.py does;
 *   - with unlimited redeals the redeal counter is no cost (it changes nothing).
 * A winning line is returned as engine move strings; the Python side replays it
 * through the engine's checked ``play`` before it reports ``won``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_native.h"
#ifdef __linux__
#include <sys/mman.h>
#endif

#define NOTAG 255
#define EMPTIED 52
#define RETURN_DEPTH 10
#define MAXP 16
#define MAXPILE 64

enum { WON = 0, LOST = 1, UNKNOWN = 2, STOP = 3 };
enum { P_TT, P_TF, P_WT, P_WF, P_FT, P_XT, P_XF, P_DEAL };
/* P_XT, P_XF: Lady Jane's stacks (a: r1-r7 as 0-6, the waste 7, the stock's last card 8). */

static int RANK[52], SUIT[52], RED[52]; /* RANK: only to set up the tables below */
static uint64_t RA[MAXPILE][53], RB[MAXPILE][53], DA[MAXPILE], DB[MAXPILE];
static uint64_t ZA[52], ZB[52];

/* ------------------------------------------------------------------ state */

typedef struct {
    int npiles;                /* 7; Baker's Dozen: 13 */
    uint8_t tab[13][MAXPILE];
    int len[13], down[13];
    int h[4];          /* cards home, by suit */
    int fof[4];        /* foundation holding each suit, -1: none */
    int sof[4];        /* suit on each foundation, -1: empty */
    uint8_t seq[52];   /* waste + reversed(stock): the order cards come up */
    int nseq, ptr, redeals;
    /* Ranks relative to the base rank (Lady Jane; Klondike: the ranks themselves) */
    int rel[52], pa[52], pb[52]; /* rank; the two cards of rank + 1 in the other colour */
    int cof[4][15];              /* the card of each suit and rank */
    /* Lady Jane: the reserves, the waste (stack 7), the stock */
    uint8_t res[8][52];
    int nres[8];
    uint8_t stock[52];
    int nstock;
    /* Each pile's part of the key (add_pile over the whole pile) and of the relaxed
     * game's memo key (over its face-down cards and lowest face-up card), kept until
     * the pile changes: ``dirty`` has a bit per pile that apply or undo_to changed. */
    uint64_t pha[13], phb[13], lpa[13], lpb[13];
    unsigned dirty;
} State;

typedef struct {
    uint8_t kind, a, b, c, deals, redeals;
} Prim;

typedef struct {
    Prim p;
    int8_t flipped, f, claimed;
    uint8_t card, old_ptr;
    int old_redeals;
} Done;

typedef struct {
    int score, order;
    int nprims;
    Prim prims[MAXP];
    uint8_t tag;
} Child;

/* -------------------------------------------------------- hashed tables */

/* An entry is 16 bytes: lane a whole, lane b with its low 16 bits holding the value
 * (plus 32768, so a used entry is never 0). A state is then known by 64 + 48 = 112
 * bits: two states are confused with a probability of about n^2 / 2^113, below
 * 1e-16 for a billion states. The tables fill to three quarters before they grow. */
typedef struct {
    uint64_t a, b;
} Entry;

#define VMASK 0xFFFFULL

static inline int32_t entry_val(const Entry *e) { return (int32_t)(e->b & VMASK) - 32768; }

typedef struct {
    Entry *e;
    size_t cap, count;
} Table;

#define HUGE_PAGE ((size_t)2 << 20)

/* Zeroed memory for ``cap`` entries. A big table goes on huge pages where the system
 * allows them: its lookups (the search's largest cost, measured with perf) land
 * anywhere in hundreds of megabytes, which small pages' address cache cannot cover. */
static Entry *entries_alloc(size_t cap) {
    size_t size = cap * sizeof(Entry);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE) {
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, size, MADV_HUGEPAGE);
        return p;
    }
#endif
    return calloc(cap, sizeof(Entry));
}

static void entries_free(Entry *e, size_t cap) {
    if (!e) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (cap * sizeof(Entry) >= HUGE_PAGE) {
        munmap(e, cap * sizeof(Entry));
        return;
    }
#endif
    (void)cap;
    free(e);
}

static int table_init(Table *t, size_t cap) {
    t->e = entries_alloc(cap);
    t->cap = cap;
    t->count = 0;
    return t->e != NULL;
}

static Entry *table_find(Table *t, uint64_t a, uint64_t b) {
    size_t mask = t->cap - 1, i = (size_t)a & mask;
    b &= ~VMASK;
    for (;;) {
        Entry *e = &t->e[i];
        if (e->b == 0 || (e->a == a && (e->b & ~VMASK) == b)) return e;
        i = (i + 1) & mask;
    }
}

static int table_grow(Table *t) {
    Table n;
    if (!table_init(&n, t->cap * 2)) return 0;
    for (size_t i = 0; i < t->cap; i++) {
        Entry *e = &t->e[i];
        if (e->b) {
            *table_find(&n, e->a, e->b) = *e;
            n.count++;
        }
    }
    entries_free(t->e, t->cap);
    *t = n;
    return 1;
}

static void table_clear(Table *t) {
    memset(t->e, 0, t->cap * sizeof(Entry));
    t->count = 0;
}

/* Put (a, b) -> val (|val| < 32768), in a table that holds up to ``limit`` entries;
 * 0 when out of memory. */
static int table_put(Table *t, uint64_t a, uint64_t b, int32_t val, size_t limit) {
    Entry *e = table_find(t, a, b);
    if (!e->b) {
        if ((t->count + 1) * 4 > t->cap * 3 && t->cap * 3 < limit * 4) {
            if (!table_grow(t)) return 0;
            e = table_find(t, a, b);
        }
        e->a = a;
        t->count++;
    }
    e->b = (b & ~VMASK) | (uint64_t)(val + 32768);
    return 1;
}

/* The rank tables of a game with base rank ``base`` (0: Klondike's plain ranks). */
static void set_ranks(State *s, int base) {
    s->npiles = 7;
    for (int c = 0; c < 52; c++) {
        s->rel[c] = base ? (RANK[c] - base + 13) % 13 + 1 : RANK[c];
        s->cof[SUIT[c]][s->rel[c]] = c;
    }
    for (int c = 0; c < 52; c++) {
        int r = s->rel[c];
        if (r == 13) {
            s->pa[c] = s->pb[c] = c; /* never read: Kings go to empty piles */
            continue;
        }
        s->pa[c] = s->cof[RED[c] ? 0 : 1][r + 1];
        s->pb[c] = s->cof[RED[c] ? 2 : 3][r + 1];
    }
}

/* ------------------------------------------------------------- search */

typedef struct {
    State st;
    int lady_jane;   /* 0: Klondike */
    int bakers;      /* Baker's Dozen: 1; other_suit, kings_move: its options */
    int other_suit, kings_move;
    uint64_t jitter; /* Baker's Dozen: a jittered move order's random state (0: none) */
    int draw, limit; /* limit < 0: unlimited redeals */
    int prune, lds;
    Done *done;
    size_t ndone, capdone;
    Child *kids;
    size_t nkids, capkids;
    Table tnew, told;
    size_t half;
    Table memo;
    size_t memo_limit;
    uint64_t *pa, *pb;
    int32_t *pc;
    size_t npath, cappath;
    long long states, max_states;
    double deadline, next_poll;
    int cut, incomplete, oom, interrupted;
    long probes, relax_losses, ordered_runs, ordered_losses; /* lately: see lost() */
    PyObject *cancel;
    PyThreadState *ts;
} Search;

static int push_done(Search *S, Done d) {
    if (S->ndone == S->capdone) {
        size_t cap = S->capdone ? S->capdone * 2 : 1024;
        Done *n = realloc(S->done, cap * sizeof(Done));
        if (!n) return 0;
        S->done = n;
        S->capdone = cap;
    }
    S->done[S->ndone++] = d;
    return 1;
}

static Child *new_kid(Search *S) {
    if (S->nkids == S->capkids) {
        size_t cap = S->capkids ? S->capkids * 2 : 4096;
        Child *n = realloc(S->kids, cap * sizeof(Child));
        if (!n) {
            S->oom = 1;
            return NULL;
        }
        S->kids = n;
        S->capkids = cap;
    }
    Child *c = &S->kids[S->nkids++];
    c->nprims = 0;
    c->tag = NOTAG;
    c->order = 0;
    return c;
}

/* --------------------------------------------------------- moves */

static void flip_after(State *s, int i, Done *d) {
    if (s->down[i] && s->down[i] >= s->len[i] && s->len[i] > 0) {
        s->down[i] = s->len[i] - 1;
        d->flipped = 1;
    }
}

static void to_home(State *s, int card, Done *d) {
    int su = SUIT[card];
    if (s->h[su] == 0) {
        int f = 0;
        while (s->sof[f] >= 0) f++;
        s->sof[f] = su;
        s->fof[su] = f;
        d->claimed = 1;
    }
    d->f = (int8_t)s->fof[su];
    s->h[su]++;
}

static void take_seq(State *s, int idx, Done *d, int redeals) {
    d->card = s->seq[idx];
    d->old_ptr = (uint8_t)s->ptr;
    d->old_redeals = s->redeals;
    memmove(&s->seq[idx], &s->seq[idx + 1], (size_t)(s->nseq - idx - 1));
    s->nseq--;
    s->ptr = idx;
    s->redeals = redeals;
}

static int apply(Search *S, Prim p) {
    State *s = &S->st;
    Done d;
    memset(&d, 0, sizeof d);
    d.p = p;
    d.f = -1;
    switch (p.kind) {
    case P_TT: {
        int n = p.c, src = p.a, dst = p.b;
        s->dirty |= 1u << src | 1u << dst;
        memcpy(&s->tab[dst][s->len[dst]], &s->tab[src][s->len[src] - n], (size_t)n);
        s->len[dst] += n;
        s->len[src] -= n;
        flip_after(s, src, &d);
        break;
    }
    case P_TF: {
        int src = p.a, card = s->tab[src][s->len[src] - 1];
        d.card = (uint8_t)card;
        s->dirty |= 1u << src;
        s->len[src]--;
        flip_after(s, src, &d);
        to_home(s, card, &d);
        break;
    }
    case P_WT:
        take_seq(s, p.a, &d, p.redeals);
        s->dirty |= 1u << p.b;
        s->tab[p.b][s->len[p.b]++] = d.card;
        break;
    case P_WF:
        take_seq(s, p.a, &d, p.redeals);
        to_home(s, d.card, &d);
        break;
    case P_XT:
    case P_XF: {
        int card = p.a == 8 ? s->stock[--s->nstock] : s->res[p.a][--s->nres[p.a]];
        d.card = (uint8_t)card;
        if (p.kind == P_XT) {
            s->dirty |= 1u << p.b;
            s->tab[p.b][s->len[p.b]++] = (uint8_t)card;
        } else
            to_home(s, card, &d);
        break;
    }
    case P_DEAL:
        if (s->nstock > 7) {
            for (int i = 0; i < 7; i++) s->res[i][s->nres[i]++] = s->stock[s->nstock - 1 - i];
            s->nstock -= 7;
            d.card = 7;
        } else {
            s->res[7][s->nres[7]++] = s->stock[--s->nstock];
            d.card = 1;
        }
        break;
    case P_FT: {
        int su = p.a, card = s->cof[su][s->h[su]];
        d.card = (uint8_t)card;
        d.f = (int8_t)s->fof[su];
        s->h[su]--;
        if (s->h[su] == 0) {
            s->sof[d.f] = -1;
            s->fof[su] = -1;
        }
        s->dirty |= 1u << p.b;
        s->tab[p.b][s->len[p.b]++] = (uint8_t)card;
        break;
    }
    }
    if (!push_done(S, d)) {
        S->oom = 1;
        return 0;
    }
    return 1;
}

static void from_home(State *s, Done *d) {
    int su = SUIT[d->card];
    s->h[su]--;
    if (d->claimed) {
        s->sof[d->f] = -1;
        s->fof[su] = -1;
    }
}

static void put_seq(State *s, Done *d) {
    int idx = d->p.a;
    memmove(&s->seq[idx + 1], &s->seq[idx], (size_t)(s->nseq - idx));
    s->seq[idx] = d->card;
    s->nseq++;
    s->ptr = d->old_ptr;
    s->redeals = d->old_redeals;
}

static void undo_to(Search *S, size_t mark) {
    State *s = &S->st;
    while (S->ndone > mark) {
        Done *d = &S->done[--S->ndone];
        Prim p = d->p;
        /* the piles the move touched (a: the source of TT and TF, b: a destination) */
        if (p.kind == P_TT || p.kind == P_TF) s->dirty |= 1u << p.a;
        if (p.kind == P_TT || p.kind == P_WT || p.kind == P_XT || p.kind == P_FT)
            s->dirty |= 1u << p.b;
        switch (p.kind) {
        case P_TT:
            if (d->flipped) s->down[p.a]++;
            memcpy(&s->tab[p.a][s->len[p.a]], &s->tab[p.b][s->len[p.b] - p.c], p.c);
            s->len[p.a] += p.c;
            s->len[p.b] -= p.c;
            break;
        case P_TF:
            from_home(s, d);
            if (d->flipped) s->down[p.a]++;
            s->tab[p.a][s->len[p.a]++] = d->card;
            break;
        case P_WT:
            s->len[p.b]--;
            put_seq(s, d);
            break;
        case P_WF:
            from_home(s, d);
            put_seq(s, d);
            break;
        case P_XT:
        case P_XF:
            if (p.kind == P_XT)
                s->len[p.b]--;
            else
                from_home(s, d);
            if (p.a == 8)
                s->stock[s->nstock++] = d->card;
            else
                s->res[p.a][s->nres[p.a]++] = d->card;
            break;
        case P_DEAL:
            if (d->card == 7) {
                s->nstock += 7;
                for (int i = 0; i < 7; i++) s->nres[i]--;
            } else {
                s->stock[s->nstock++] = s->res[7][--s->nres[7]];
            }
            break;
        case P_FT: {
            int su = p.a;
            s->len[p.b]--;
            if (s->h[su] == 0) {
                s->sof[d->f] = su;
                s->fof[su] = d->f;
            }
            s->h[su]++;
            break;
        }
        }
    }
}

/* ------------------------------------------------------- the relaxed game
 * alternating.Relaxed and KlondikeAdapter._relaxed_lost, move for move. */


typedef struct {
    const State *s;
    int h[4], avail[52], pool[52], npool, lows[7], empty;
    int downs[7][MAXPILE], nd[7];
    int twin[52]; /* alternating.Relaxed.twin: the twin above a card in its pile, or -1 */
} Relax;

/* alternating.stacked_twins over one stack: each card's twin above it, into ``twin``
 * (and back, into ``held``, unless NULL). */
static void twins_of(const State *s, const uint8_t *stack, int n, int *twin, int *held) {
    for (int k = 0; k < n; k++)
        for (int j = k + 1; j < n; j++) {
            int y = stack[k], x = stack[j];
            if (s->rel[x] == s->rel[y] && s->rel[y] != 13 && RED[x] == RED[y]) {
                twin[y] = x;
                if (held) held[x] = y;
            }
        }
}

/* Relaxed._open: ``c`` is available, and so is every card home that could come back
 * onto it (its children, theirs, ...). */
static void relax_open(Relax *R, int c) {
    const State *s = R->s;
    int todo[52], n = 0;
    R->avail[c] = 1;
    todo[n++] = c;
    while (n) {
        int x = todo[--n], r = s->rel[x];
        if (r <= 1) continue;
        for (int k = 0; k < 2; k++) {
            int y = s->cof[RED[x] ? 2 * k : 2 * k + 1][r - 1];
            if (!R->avail[y] && R->h[SUIT[y]] >= r - 1) {
                R->avail[y] = 1;
                todo[n++] = y;
            }
        }
    }
}

/* Relaxed._recall: ``c`` is home, available if it could come back. */
static void relax_recall(Relax *R, int c) {
    const State *s = R->s;
    if (R->avail[c]) return;
    if (s->rel[c] == 13 ? R->empty : (R->avail[s->pa[c]] || R->avail[s->pb[c]])) relax_open(R, c);
}

/* Relaxed._emptied: a pile is empty, so Kings home could come back. */
static void relax_emptied(Relax *R) {
    if (R->empty) return;
    R->empty = 1;
    for (int su = 0; su < 4; su++)
        if (R->h[su] == 13) relax_recall(R, R->s->cof[su][13]);
}

/* ``waste``: the waste is a stack too (Relaxed's ``stacks``). */
static void relax_init(Relax *R, const State *s, int waste) {
    memset(R, 0, sizeof *R);
    R->s = s;
    memcpy(R->h, s->h, sizeof R->h);
    for (int c = 0; c < 52; c++) R->twin[c] = -1;
    if (waste) twins_of(s, s->seq, s->ptr, R->twin, NULL);
    for (int i = 0; i < 7; i++) {
        int n = s->len[i], d = s->down[i];
        twins_of(s, s->tab[i], n < d + 1 ? n : d + 1, R->twin, NULL);
        for (int k = d + 1; k < n; k++) { /* a card on one of its parents: its twin */
            int x = s->tab[i][k], under = s->tab[i][k - 1];
            if (s->rel[x] != 13 && (under == s->pa[x] || under == s->pb[x]))
                R->twin[s->cof[SUIT[x] ^ 2][s->rel[x]]] = x;
        }
        if (!n) {
            R->empty = 1;
            R->lows[i] = -1;
            continue;
        }
        R->nd[i] = d;
        for (int k = 0; k < d; k++) R->downs[i][k] = s->tab[i][k];
        R->lows[i] = s->tab[i][d];
        R->avail[R->lows[i]] = 1;
        for (int k = d + 1; k < n; k++) {
            R->pool[R->npool++] = s->tab[i][k];
            R->avail[s->tab[i][k]] = 1;
        }
    }
    for (int su = 0; su < 4; su++)
        for (int r = 1; r <= R->h[su]; r++) relax_recall(R, s->cof[su][r]);
    for (int c = 0; c < 52; c++)
        if (R->avail[c]) relax_open(R, c);
}

/* Relaxed.take: play ``c`` home or into the pool if it fits anywhere. */
static int relax_take(Relax *R, int c) {
    const State *s = R->s;
    int f;
    if (R->h[SUIT[c]] == s->rel[c] - 1)
        f = 2;
    else if (s->rel[c] == 13)
        f = R->empty;
    else if (R->twin[c] >= 0 && R->h[SUIT[R->twin[c]]] < s->rel[R->twin[c]])
        f = R->avail[s->pa[c]] && R->avail[s->pb[c]];
    else
        f = R->avail[s->pa[c]] || R->avail[s->pb[c]];
    if (!f) return 0;
    if (f == 2) {
        R->h[SUIT[c]]++;
        relax_recall(R, c);
    } else {
        R->pool[R->npool++] = c;
        relax_open(R, c);
    }
    return 1;
}

/* Relaxed.settle: every move within the tableau and pool until none is left. */
static void relax_settle(Relax *R) {
    const State *s = R->s;
    int changed = 1;
    while (changed) {
        changed = 0;
        int keep = 0;
        for (int k = 0; k < R->npool; k++) {
            int c = R->pool[k];
            if (R->h[SUIT[c]] == s->rel[c] - 1) {
                R->h[SUIT[c]]++;
                changed = 1;
            } else {
                R->pool[keep++] = c;
            }
        }
        R->npool = keep;
        for (int i = 0; i < 7; i++) {
            int c = R->lows[i];
            if (c < 0 || !relax_take(R, c)) continue;
            changed = 1;
            if (R->nd[i]) {
                c = R->lows[i] = R->downs[i][--R->nd[i]];
                relax_open(R, c);
            } else {
                R->lows[i] = -1;
                relax_emptied(R);
            }
        }
    }
}

static int relax_won(const Relax *R) { return R->h[0] + R->h[1] + R->h[2] + R->h[3] == 52; }

/* A relaxed game as the drivers below play it: Relax or Ordered. */
typedef struct {
    void *g;
    int (*take)(void *, int);
    void (*settle)(void *);
    int (*won)(const void *);
} Relaxation;

static int relax_take_any(void *g, int c) { return relax_take(g, c); }
static void relax_settle_any(void *g) { relax_settle(g); }
static int relax_won_any(const void *g) { return relax_won(g); }

/* KlondikeAdapter._played_out: whether relaxed game G is lost, the stock dealt as
 * KlondikeAdapter.lost says. */
static int played_out(const State *s, int limit, Relaxation G) {
    int seq[52], nseq = s->nseq, ptr = s->ptr;
    for (int k = 0; k < nseq; k++) seq[k] = s->seq[k];
    int left = limit < 0 ? -1 : limit - s->redeals;
    int played = 1;
    for (;;) {
        G.settle(G.g);
        if (ptr && G.take(G.g, seq[ptr - 1])) {
            memmove(&seq[ptr - 1], &seq[ptr], sizeof(int) * (size_t)(nseq - ptr));
            nseq--;
            ptr--;
            played = 1;
        } else if (ptr < nseq) {
            ptr++;
        } else if (nseq && played && left != 0) {
            ptr = 0;
            played = 0;
            left--;
        } else {
            return !G.won(G.g);
        }
    }
}

/* LadyJaneAdapter._played_out. */
static int lj_played_out(const State *s, Relaxation G) {
    int res[8][52], nres[8], stock[52], nstock = s->nstock;
    for (int i = 0; i < 8; i++) {
        nres[i] = s->nres[i];
        for (int k = 0; k < nres[i]; k++) res[i][k] = s->res[i][k];
    }
    for (int k = 0; k < nstock; k++) stock[k] = s->stock[k];
    for (;;) {
        G.settle(G.g);
        int played = 0;
        for (int i = 0; i < 8; i++) /* the reserves, then the waste (stack 7) */
            while (nres[i] && G.take(G.g, res[i][nres[i] - 1])) {
                nres[i]--;
                played = 1;
            }
        if (nstock == 1 && G.take(G.g, stock[0])) {
            nstock = 0;
            played = 1;
        }
        if (played) continue;
        if (nstock > 7) {
            for (int i = 0; i < 7; i++) res[i][nres[i]++] = stock[nstock - 1 - i];
            nstock -= 7;
        } else if (nstock == 2) {
            res[7][nres[7]++] = stock[--nstock];
        } else {
            return !G.won(G.g);
        }
    }
}

/* KlondikeAdapter._stacks: with one card a deal and no redeal left, the waste is a
 * stack (its cards leave from the top). */
static int waste_stacked(const Search *S) {
    return !S->lady_jane && S->draw == 1 && S->limit >= 0 && S->st.redeals >= S->limit;
}

/* The adapter's ``_played_out``: whether relaxed game G is lost in the search's state. */
static int game_played_out(const Search *S, Relaxation G) {
    return S->lady_jane ? lj_played_out(&S->st, G) : played_out(&S->st, S->limit, G);
}

/* KlondikeAdapter._relaxed_lost and LadyJaneAdapter._relaxed_lost. */
static int relaxed_lost(const Search *S) {
    Relax R;
    relax_init(&R, &S->st, waste_stacked(S));
    return game_played_out(S, (Relaxation){&R, relax_take_any, relax_settle_any, relax_won_any});
}

/* ------------------------------------------------ the ordered relaxed game
 * alternating.Ordered: the same facts, played to the same end, but each fact looks
 * only at the cards it can help (a worklist) instead of sweeping every card. */

enum { O_AWAY, O_TABLEAU, O_GIVEN }; /* where a card not home is: stock or reserve */

typedef struct {
    const State *s;
    int h[4], empty, ntodo;
    int above[52], below[52]; /* the card on each tableau card, and under it, or -1 */
    uint8_t where[52], moved[52], top[52], up[52], bottom[52];
    int twin[52], held[52];   /* Ordered.twin, and back: the card each card keeps apart */
    /* Cards to look at again. Each card is pushed once at the start, twice when it
     * becomes a parent, once when it moves and twice when it goes home (each happens
     * once), the Kings once more for the first emptied pile: under 6 * 52 + 8. */
    uint8_t todo[6 * 52 + 8];
} Ordered;

static inline void ordered_push(Ordered *O, int c) {
    if (c >= 0) O->todo[O->ntodo++] = (uint8_t)c;
}

/* ``waste``: the waste is a stack too (Ordered's ``stacks``). */
static void ordered_init(Ordered *O, const State *s, int waste) {
    memset(O, 0, sizeof *O);
    O->s = s;
    memcpy(O->h, s->h, sizeof O->h);
    for (int c = 0; c < 52; c++) O->above[c] = O->below[c] = O->twin[c] = O->held[c] = -1;
    if (waste) twins_of(s, s->seq, s->ptr, O->twin, O->held);
    for (int i = 0; i < 7; i++) {
        int n = s->len[i];
        if (!n) O->empty = 1;
        twins_of(s, s->tab[i], n < s->down[i] + 1 ? n : s->down[i] + 1, O->twin, O->held);
        for (int k = 0; k < n; k++) {
            int c = s->tab[i][k];
            O->where[c] = O_TABLEAU;
            O->up[c] = k >= s->down[i];
            O->bottom[c] = k == 0;
            if (k + 1 < n) O->above[c] = s->tab[i][k + 1];
            if (k) O->below[c] = s->tab[i][k - 1];
        }
    }
    /* Every tableau card is looked at once; a card home, once it could come back
     * (nothing is a parent yet: only a King, with an empty pile). */
    for (int c = 0; c < 52; c++)
        if (O->where[c] == O_TABLEAU || (O->empty && s->rel[c] == 13 && O->h[SUIT[c]] == 13))
            ordered_push(O, c);
}

/* Ordered._fits */
static inline int ordered_fits(const Ordered *O, int c) {
    const State *s = O->s;
    if (s->rel[c] == 13) return O->empty;
    int x = O->twin[c];
    if (x >= 0 && O->h[SUIT[x]] < s->rel[x]) return O->top[s->pa[c]] && O->top[s->pb[c]];
    return O->top[s->pa[c]] || O->top[s->pb[c]];
}

/* c became a parent: the cards that could be built on it may now move or come back. */
static void ordered_topped(Ordered *O, int c) {
    const State *s = O->s;
    O->top[c] = 1;
    int r = s->rel[c];
    if (r > 1)
        for (int k = 0; k < 2; k++) ordered_push(O, s->cof[RED[c] ? 2 * k : 2 * k + 1][r - 1]);
}

/* c left its place: the card under it is clear, and a bottom card empties its pile. */
static void ordered_moved(Ordered *O, int c) {
    O->moved[c] = 1;
    ordered_push(O, O->below[c]);
    if (O->bottom[c] && !O->empty) {
        O->empty = 1;
        for (int su = 0; su < 4; su++) ordered_push(O, O->s->cof[su][13]);
    }
}

/* c went home: the next card of its suit may follow, the twin it kept apart may
 * take either parent, and c may come back. */
static void ordered_home(Ordered *O, int c) {
    const State *s = O->s;
    O->h[SUIT[c]]++;
    if (s->rel[c] < 13) ordered_push(O, s->cof[SUIT[c]][s->rel[c] + 1]);
    if (O->held[c] >= 0) ordered_push(O, O->held[c]);
    if (!O->top[c] && ordered_fits(O, c)) ordered_topped(O, c);
}

/* Ordered.take */
static int ordered_take(void *g, int c) {
    Ordered *O = g;
    if (O->h[SUIT[c]] == O->s->rel[c] - 1) {
        ordered_home(O, c);
        return 1;
    }
    if (!ordered_fits(O, c)) return 0;
    O->where[c] = O_GIVEN;
    ordered_topped(O, c);
    return 1;
}

/* Ordered.settle */
static void ordered_settle(void *g) {
    Ordered *O = g;
    const State *s = O->s;
    while (O->ntodo) {
        int c = O->todo[--O->ntodo];
        if (O->h[SUIT[c]] >= s->rel[c]) { /* home: could it come back? */
            if (!O->top[c] && ordered_fits(O, c)) ordered_topped(O, c);
            continue;
        }
        int home = O->h[SUIT[c]] == s->rel[c] - 1;
        if (O->where[c] == O_GIVEN) {
            if (home) ordered_home(O, c);
            continue;
        }
        if (O->where[c] != O_TABLEAU) continue;
        int clear = O->above[c] < 0 || O->moved[O->above[c]];
        if (clear && !O->top[c]) ordered_topped(O, c); /* even on its way home */
        if (clear && home) {
            if (!O->moved[c]) ordered_moved(O, c);
            ordered_home(O, c);
            continue;
        }
        if (!O->moved[c] && (clear || O->up[c]) && ordered_fits(O, c)) ordered_moved(O, c);
    }
}

static int ordered_won(const void *g) {
    const Ordered *O = g;
    return O->h[0] + O->h[1] + O->h[2] + O->h[3] == 52;
}

/* KlondikeAdapter._ordered_lost and LadyJaneAdapter._ordered_lost. */
static int ordered_lost(const Search *S) {
    Ordered O;
    ordered_init(&O, &S->st, waste_stacked(S));
    return game_played_out(S, (Relaxation){&O, ordered_take, ordered_settle, ordered_won});
}

/* The stock cycle's cards, as a set, into both lanes of a key. */
static void add_seq(const State *s, uint64_t *a, uint64_t *b) {
    for (int k = 0; k < s->nseq; k++) {
        *a += ZA[s->seq[k]];
        *b += ZB[s->seq[k]];
    }
}

/* Pile ``i``'s first ``n`` cards and its face-down count into both lanes of a key (a
 * sum over piles: they are compared as a set). */
static void add_pile(const State *s, int i, int n, uint64_t *a, uint64_t *b) {
    uint64_t x = DA[s->down[i]] + (uint64_t)n * 0x9E3779B97F4A7C15ULL;
    uint64_t y = DB[s->down[i]] + (uint64_t)n * 0xD6E8FEB86659FD93ULL;
    for (int k = 0; k < n; k++) {
        x += RA[k][s->tab[i][k]];
        y += RB[k][s->tab[i][k]];
    }
    *a += mixa(x);
    *b += mixb(y);
}

/* Bring the piles' parts of the keys up to date (``State.dirty``). */
static void refresh_piles(State *s) {
    for (int i = 0; i < s->npiles; i++) {
        if (s->dirty >> i & 1) {
            s->pha[i] = s->phb[i] = s->lpa[i] = s->lpb[i] = 0;
            add_pile(s, i, s->len[i], &s->pha[i], &s->phb[i]);
            add_pile(s, i, s->len[i] ? s->down[i] + 1 : 0, &s->lpa[i], &s->lpb[i]);
        }
#ifdef CHECK_KEYS
        uint64_t ca = 0, cb = 0, la = 0, lb = 0;
        add_pile(s, i, s->len[i], &ca, &cb);
        add_pile(s, i, s->len[i] ? s->down[i] + 1 : 0, &la, &lb);
        if (ca != s->pha[i] || cb != s->phb[i] || la != s->lpa[i] || lb != s->lpb[i]) abort();
#endif
    }
    s->dirty = 0;
}

static uint64_t heights_code(const State *s) {
    return (uint64_t)s->h[0] | (uint64_t)s->h[1] << 4 | (uint64_t)s->h[2] << 8 |
           (uint64_t)s->h[3] << 12;
}

/* Lady Jane's stacks (reserves, waste) and stock into a key: the reserves in order,
 * or as a set (``sorted``), the waste and the stock's size always. */
static void stacks_hash(const State *s, int sorted, uint64_t *pa, uint64_t *pb) {
    uint64_t a = mixa((uint64_t)s->nstock * 0x632BE59BD9B4E019ULL + 0x1F83D9ABFB41BD6BULL);
    uint64_t b = mixb((uint64_t)s->nstock * 0x8CB92BA72F3D8DD7ULL + 0x5BE0CD19137E2179ULL);
    for (int i = 0; i < 8; i++) {
        uint64_t x = (uint64_t)s->nres[i] * 0xA4093822299F31D0ULL + 0x082EFA98EC4E6C89ULL;
        uint64_t y = (uint64_t)s->nres[i] * 0x452821E638D01377ULL + 0xBE5466CF34E90C6CULL;
        for (int k = 0; k < s->nres[i]; k++) {
            x += RA[k][s->res[i][k]];
            y += RB[k][s->res[i][k]];
        }
        uint64_t at = sorted && i < 7 ? 0 : (uint64_t)(i + 1);
        a += mixa(x + at * 0xC0AC29B7C97C50DDULL);
        b += mixb(y + at * 0x3F84D5B5B5470917ULL);
    }
    *pa += a;
    *pb += b;
}

/* Whether the relaxed game Relax is lost, remembered by what it reads (LostMemo). */
static int relaxed_lost_memo(Search *S) {
    State *s = &S->st;
    int left = S->limit < 0 ? 255 : S->limit - s->redeals;
    uint64_t a = mixa(heights_code(s) ^ (uint64_t)s->ptr << 20 ^ (uint64_t)left << 28);
    uint64_t b = mixb(heights_code(s) + ((uint64_t)s->ptr << 24) + ((uint64_t)left << 40));
    add_seq(s, &a, &b);
    refresh_piles(s);
    for (int i = 0; i < 7; i++) {
        a += s->lpa[i];
        b += s->lpb[i];
    }
    if (S->lady_jane) stacks_hash(s, 0, &a, &b);
    for (int i = 0; i < 7; i++) /* alternating.loose */
        for (int k = s->down[i] + 1; k < s->len[i]; k++) {
            int x = s->tab[i][k], under = s->tab[i][k - 1];
            if (s->rel[x] == 13 || (under != s->pa[x] && under != s->pb[x])) {
                a += mixa(ZA[x] ^ 0x3C6EF372FE94F82BULL);
                b += mixb(ZB[x] ^ 0xA54FF53A5F1D36F1ULL);
            }
        }
    a = mixa(a);
    b = mixb(b);
    Entry *e = table_find(&S->memo, a, b);
    if (e->b) return entry_val(e);
    int v = relaxed_lost(S);
    if (S->memo.count >= S->memo_limit) table_clear(&S->memo);
    if (!table_put(&S->memo, a, b, v, S->memo_limit)) S->oom = 1;
    return v;
}

/* The adapters' ``lost``: whether a relaxed game, Relax or Ordered, is lost.
 *
 * Ordered proves every loss Relax proves (no exception among 23,600 positions from
 * random play, in every Klondike mode and Lady Jane) and more, but it costs about as
 * much as the rest of a state, and Relax, remembered, a fraction of that. Which pays
 * depends on the search, so one state in 16 (and the first 256) is a probe that runs
 * Relax, then Ordered if Relax found no loss, counting lately (a window halved every
 * 4,096 probes) the losses each proves; the other states run
 * - Relax alone while Ordered finds a loss Relax missed on fewer than 1% of the
 *   probes (draw-3 deal 244: not one in its first 600,000 runs; lost in 15 s, not
 *   over 30 s);
 * - Relax, then Ordered, while Relax proves over a quarter of the probes lost (it
 *   then saves more runs of Ordered than it costs);
 * - Ordered alone otherwise (unlimited deal 101: lost in 12 s, not 15 s).
 * A state left unpruned is only searched: the verdicts stay proven. (The Python
 * search, the reference the tests check the cuts against, always runs both.) */
static int lost(Search *S) {
    if (S->probes < 256 || S->states % 16 == 0) {
        int v = relaxed_lost_memo(S);
        S->relax_losses += v;
        if (!v) {
            v = ordered_lost(S);
            S->ordered_runs++;
            S->ordered_losses += v;
        }
        if (++S->probes == 4096) {
            S->probes /= 2;
            S->relax_losses /= 2;
            S->ordered_runs /= 2;
            S->ordered_losses /= 2;
        }
        return v;
    }
    if (S->ordered_losses * 100 < S->ordered_runs) return relaxed_lost_memo(S);
    if (S->relax_losses * 4 > S->probes && relaxed_lost_memo(S)) return 1;
    return ordered_lost(S);
}

/* KlondikeAdapter.cost: what of the redeals used and the pointer is a cost rather
 * than part of the key (a state of lower cost reaches the other by dealing). */
static int stock_cost(const Search *S) {
    const State *s = &S->st;
    if (S->limit >= 0) return S->draw == 1 ? s->redeals * 64 + s->ptr : s->redeals;
    if (S->draw == 1 || s->ptr % 3 == 0 || s->ptr == s->nseq) return 0;
    return s->ptr;
}

/* The canonical key (KlondikeAdapter.key) as two 64-bit lanes of a hash. */
static void key(Search *S, uint64_t *pa, uint64_t *pb) {
    State *s = &S->st;
    int tail; /* what of the pointer is not in stock_cost */
    if (S->draw == 1)
        tail = 0;
    else if (S->limit < 0)
        tail = stock_cost(S) % 3; /* 0 for the pointers that reach the same cards */
    else
        tail = s->ptr;
    uint64_t a = mixa(heights_code(s) ^ (uint64_t)(tail + 1) << 16);
    uint64_t b = mixb(heights_code(s) + ((uint64_t)(tail + 7) << 32));
    add_seq(s, &a, &b);
    refresh_piles(s);
    for (int i = 0; i < s->npiles; i++) {
        a += s->pha[i];
        b += s->phb[i];
    }
    /* Lady Jane (LadyJaneAdapter.key): the reserves as a set after the last deal. */
    if (S->lady_jane) stacks_hash(s, s->nstock <= 2, &a, &b);
    *pa = a;
    *pb = b;
}

static int is_safe(int card, int r, const int *h) {
    int su = SUIT[card];
    for (int t = 0; t < 4; t++) {
        if (t == su) continue;
        if ((t & 1) != RED[card]) {
            if (h[t] < r - 1) return 0;
        } else if (h[t] < r - 2) {
            return 0;
        }
    }
    return 1;
}

static void add_plain(Search *S, Prim m, int score, int order, int tag) {
    Child *ch = new_kid(S);
    if (!ch) return;
    ch->prims[0] = m;
    ch->nprims = 1;
    ch->score = score;
    ch->order = order;
    ch->tag = (uint8_t)tag;
}

/* Sort the children from ``base`` by score * 64 + order, keeping their order on ties. */
static void sort_kids(Search *S, size_t base) {
    Child *kids = S->kids + base;
    size_t n = S->nkids - base;
    for (size_t i = 1; i < n; i++) {
        Child t = kids[i];
        int kt = t.score * 64 + t.order;
        size_t j = i;
        while (j > 0 && kids[j - 1].score * 64 + kids[j - 1].order > kt) {
            kids[j] = kids[j - 1];
            j--;
        }
        kids[j] = t;
    }
}

/* ------------------------------------------------------ Baker's Dozen
 * BakersDozenAdapter's auto, dead and children (the proofs are in bakers_dozen.py). */

static int bd_auto(Search *S) {
    State *s = &S->st;
    int made = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            if (!s->len[i]) continue;
            int low = s->h[0];
            for (int su = 1; su < 4; su++)
                if (s->h[su] < low) low = s->h[su];
            int c = s->tab[i][s->len[i] - 1], r = RANK[c], su = SUIT[c];
            if (s->h[su] != r - 1 || (low < r - 1 && r > 1)) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return made;
            made++;
            progress = 1;
        }
    }
    return made;
}

/* A card's parents: rank + 1, any suit or (other_suit) another suit. */
static int bd_parent(const Search *S, int c, int q) {
    return RANK[q] == RANK[c] + 1 && !(S->other_suit && SUIT[q] == SUIT[c]);
}

/* BakersDozenAdapter.dead: whether the relaxation R cannot empty the piles. */
static int bd_dead(const Search *S) {
    const State *s = &S->st;
    int avail[52], gone[52], top[13], hh[4];
    memset(avail, 0, sizeof avail);
    memset(gone, 0, sizeof gone);
    int king_room = 0;
    for (int i = 0; i < 13; i++) {
        top[i] = s->len[i];
        if (top[i])
            avail[s->tab[i][top[i] - 1]] = 1;
        else
            king_room = S->kings_move;
    }
    for (int su = 0; su < 4; su++) {
        hh[su] = s->h[su];
        for (int r = 0; r < s->h[su]; r++) gone[su * 13 + r] = 1;
    }
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            int n = top[i];
            if (!n) continue;
            while (n) {
                int c = s->tab[i][n - 1], su = SUIT[c];
                if (hh[su] == c % 13) {
                    gone[c] = 1;
                    int k = hh[su] + 1;
                    while (k < 13 && gone[su * 13 + k]) k++;
                    hh[su] = k;
                } else {
                    int ok = 0;
                    if (RANK[c] < 13)
                        for (int t = 0; t < 4 && !ok; t++) {
                            int q = t * 13 + RANK[c];
                            if (bd_parent(S, c, q) && avail[q]) ok = 1;
                        }
                    if (!ok && !(king_room && RANK[c] == 13)) break;
                    gone[c] = 1;
                }
                n--;
                if (n) avail[s->tab[i][n - 1]] = 1;
            }
            if (n != top[i]) {
                top[i] = n;
                progress = 1;
                if (!n) king_room = S->kings_move;
            }
        }
    }
    for (int i = 0; i < 13; i++)
        if (top[i]) return 1;
    return 0;
}

static void bd_children(Search *S) {
    State *s = &S->st;
    size_t base0 = S->nkids;
    if (S->prune && bd_dead(S)) return;
    int urgency[13], under[13], empties[13], nempty = 0, loose_kings = 0;
    int by_rank[15][13], nby[15];
    memset(nby, 0, sizeof nby);
    for (int i = 0; i < 13; i++) {
        int n = s->len[i];
        urgency[i] = 99;
        under[i] = 0;
        if (!n) {
            empties[nempty++] = i;
            continue;
        }
        for (int k = 0; k < n; k++) {
            int c = s->tab[i][k], d = RANK[c] - s->h[SUIT[c]];
            if (d < urgency[i]) urgency[i] = d;
            if (k < n - 1 && (k == 0 || d < under[i])) under[i] = d;
            if (k > 0 && S->kings_move && RANK[c] == 13) loose_kings++;
        }
        int r = RANK[s->tab[i][n - 1]];
        by_rank[r][nby[r]++] = i;
    }
    int may_empty = !S->prune || (S->kings_move && nempty < loose_kings);
    for (int i = 0; i < 13; i++) {
        int n = s->len[i];
        if (!n) continue;
        int c = s->tab[i][n - 1], r = RANK[c], su = SUIT[c];
        if (s->h[su] == r - 1) {
            Prim m = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            add_plain(S, m, 0, 0, NOTAG);
        }
        if (n == 1 && !may_empty) continue;
        if (r == 13) {
            if (S->kings_move && nempty && n > 1) {
                Prim m = {P_TT, (uint8_t)i, (uint8_t)empties[0], 1, 0, 0};
                add_plain(S, m, 1 + 4 * under[i], 0, NOTAG);
            }
            continue;
        }
        int base = 1 + 4 * under[i];
        if (n > 1) {
            int u = s->tab[i][n - 2];
            if (s->h[SUIT[u]] == RANK[u] - 1) base = 1;
        }
        for (int k = 0; k < nby[r + 1]; k++) {
            int j = by_rank[r + 1][k], dest = s->tab[j][s->len[j] - 1];
            if (S->other_suit && SUIT[dest] == su) continue;
            int score = base + (14 - urgency[j] > 0 ? 14 - urgency[j] : 0);
            if (S->jitter) score += (int)(splitmix(&S->jitter) % 8);
            if (SUIT[dest] == su) score = score - 3 > 1 ? score - 3 : 1;
            Prim m = {P_TT, (uint8_t)i, (uint8_t)j, 1, 0, 0};
            add_plain(S, m, score, 0, NOTAG);
        }
    }
    sort_kids(S, base0);
}

/* Lady Jane's safe moves home from any source (LadyJaneAdapter.auto), one at a
 * time, the first source in the order t1-t7, r1-r7, waste, stock. */
static int lj_auto(Search *S) {
    State *s = &S->st;
    int made = 0;
    for (;;) {
        Prim step = {P_TT, 0, 0, 0, 0, 0};
        int found = 0;
        for (int i = 0; i < 7 && !found; i++) {
            if (!s->len[i]) continue;
            int c = s->tab[i][s->len[i] - 1], r = s->rel[c];
            if (s->h[SUIT[c]] == r - 1 && is_safe(c, r, s->h)) {
                step.kind = P_TF;
                step.a = (uint8_t)i;
                found = 1;
            }
        }
        for (int i = 0; i < 9 && !found; i++) {
            int c;
            if (i == 8) {
                if (s->nstock != 1) continue;
                c = s->stock[0];
            } else {
                if (!s->nres[i]) continue;
                c = s->res[i][s->nres[i] - 1];
            }
            int r = s->rel[c];
            if (s->h[SUIT[c]] == r - 1 && is_safe(c, r, s->h)) {
                step.kind = P_XF;
                step.a = (uint8_t)i;
                found = 1;
            }
        }
        if (!found || !apply(S, step)) return made;
        made++;
    }
}

/* Safe moves home (KlondikeAdapter.auto); how many were made. */
static int do_auto(Search *S) {
    State *s = &S->st;
    if (S->lady_jane) return lj_auto(S);
    if (S->bakers) return bd_auto(S);
    int made = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 7; i++) {
            if (!s->len[i]) continue;
            int c = s->tab[i][s->len[i] - 1], r = s->rel[c];
            if (s->h[SUIT[c]] != r - 1 || !is_safe(c, r, s->h)) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return made;
            made++;
            progress = 1;
        }
    }
    return made;
}

/* With no stock, no waste and no face-down card: play home until stuck (finish). */
static int finish(Search *S) {
    State *s = &S->st;
    if (s->nseq || s->nstock) return 0;
    for (int i = 0; i < 8; i++)
        if (s->nres[i]) return 0;
    for (int i = 0; i < s->npiles; i++)
        if (s->down[i]) return 0;
    size_t mark = S->ndone;
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < s->npiles; i++) {
            if (!s->len[i]) continue;
            int c = s->tab[i][s->len[i] - 1];
            if (s->h[SUIT[c]] != s->rel[c] - 1) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return 0;
            progress = 1;
        }
    }
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return 1;
    undo_to(S, mark);
    return 0;
}

static int obligation(const State *s, int src, int count) {
    int rest = s->len[src] - count;
    if (rest == 0) return EMPTIED;
    if (rest <= s->down[src]) return NOTAG;
    int parent = s->tab[src][rest - 1], base = s->tab[src][rest];
    if (s->rel[parent] == s->rel[base] + 1 && RED[parent] != RED[base]) return parent;
    return NOTAG;
}

static int run_length(const State *s, int i) {
    int limit = s->len[i] - s->down[i];
    int n = limit > 0 ? 1 : 0;
    while (n < limit) {
        int lower = s->tab[i][s->len[i] - n - 1], upper = s->tab[i][s->len[i] - n];
        if (s->rel[lower] != s->rel[upper] + 1 || RED[lower] == RED[upper]) break;
        n++;
    }
    return n;
}

/* The waste moves (KlondikeAdapter._waste_moves): every card dealing brings to the
 * waste top, each with the moves it has. Appended as children with ``prefix``;
 * with ``only`` >= 0 just those onto that pile; ``to`` >= 0: just onto pile ``to``,
 * with a score of 6 (compound returns). */
static void waste_moves(Search *S, int only, const Prim *prefix, int npre, int to) {
    State *s = &S->st;
    int total = s->nseq;
    if (!total) return;
    int ptr = s->ptr, r0 = s->redeals;
    int rdeals[52], rred[52], seen[52], order[52], norder = 0;
    memset(seen, 0, sizeof seen);
    if (ptr) {
        seen[ptr - 1] = 1;
        rdeals[ptr - 1] = 0;
        rred[ptr - 1] = r0;
        order[norder++] = ptr - 1;
    }
    int q = ptr, r = r0, k = 0;
    int cap = S->limit < 0 ? r0 + 1 : (S->limit < r0 + 1 ? S->limit : r0 + 1);
    for (;;) {
        if (q < total) {
            q = q + S->draw < total ? q + S->draw : total;
        } else if (r < cap) {
            q = 0;
            r++;
        } else {
            break;
        }
        k++;
        if (q && !seen[q - 1]) {
            seen[q - 1] = 1;
            rdeals[q - 1] = k;
            rred[q - 1] = r;
            order[norder++] = q - 1;
        }
    }
    int tops[7];
    for (int j = 0; j < 7; j++) tops[j] = s->len[j] ? s->tab[j][s->len[j] - 1] : -1;
    int lazy = S->prune && S->draw == 1 && S->limit < 0;
    for (int o = 0; o < norder; o++) {
        int idx = order[o], c = s->seq[idx], rank = s->rel[c];
        int extra = rred[idx] > r0 ? 4 : 0;
        if (s->h[SUIT[c]] == rank - 1 && only < 0 && to < 0) {
            Child *ch = new_kid(S);
            if (!ch) return;
            memcpy(ch->prims, prefix, sizeof(Prim) * (size_t)npre);
            Prim p = {P_WF, (uint8_t)idx, 0, 1, (uint8_t)rdeals[idx], (uint8_t)rred[idx]};
            ch->prims[npre] = p;
            ch->nprims = npre + 1;
            ch->score = 0 + extra;
        }
        int empty_done = 0;
        for (int j = 0; j < 7; j++) {
            if (only >= 0 && j != only) continue;
            if (to >= 0 && j != to) continue;
            int top = tops[j];
            if (top < 0) {
                if (rank != 13 || empty_done) continue;
                empty_done = 1;
            } else if (!(s->rel[top] == rank + 1 && RED[top] != RED[c])) {
                continue;
            }
            Child *ch = new_kid(S);
            if (!ch) return;
            memcpy(ch->prims, prefix, sizeof(Prim) * (size_t)npre);
            Prim p = {P_WT, (uint8_t)idx, (uint8_t)j, 1, (uint8_t)rdeals[idx], (uint8_t)rred[idx]};
            ch->prims[npre] = p;
            ch->nprims = npre + 1;
            if (to >= 0) {
                ch->score = 6;
            } else {
                ch->score = 2 + extra;
                if (lazy) ch->tag = (uint8_t)c;
            }
        }
    }
}

/* KlondikeAdapter._after_return: the compound moves that start with ``prefix``
 * (already applied to the state; its last move a return to pile ``j`` from
 * foundation ``fsrc``). */
static void after_return(Search *S, Prim *prefix, int npre, int j, int fsrc, int depth) {
    State *s = &S->st;
    if (depth > RETURN_DEPTH || npre >= MAXP - 1) {
        S->incomplete = 1;
        return;
    }
    int d = s->tab[j][s->len[j] - 1], rank = s->rel[d];
    if (rank > 1) {
        int in_stock = 0;
        int suits[2] = {RED[d] ? 0 : 1, RED[d] ? 2 : 3};
        for (int u = 0; u < 2; u++) {
            int su = suits[u], x = s->cof[su][rank - 1];
            if (s->h[su] >= rank - 1) {
                if (s->h[su] == rank - 1) {
                    int f = s->fof[su];
                    Prim m = {P_FT, (uint8_t)su, (uint8_t)j, 1, 0, 0};
                    size_t mark = S->ndone;
                    if (!apply(S, m)) return;
                    prefix[npre] = m;
                    after_return(S, prefix, npre + 1, j, f, depth + 1);
                    undo_to(S, mark);
                }
                continue;
            }
            int found = 0;
            for (int i = 0; i < 7 && !found; i++) {
                if (i == j) continue;
                for (int k = 0; k < s->len[i]; k++) {
                    if (s->tab[i][k] != x) continue;
                    found = 1;
                    int count = s->len[i] - k;
                    if (k >= s->down[i] && count <= run_length(s, i)) {
                        Child *ch = new_kid(S);
                        if (!ch) return;
                        memcpy(ch->prims, prefix, sizeof(Prim) * (size_t)npre);
                        Prim m = {P_TT, (uint8_t)i, (uint8_t)j, (uint8_t)count, 0, 0};
                        ch->prims[npre] = m;
                        ch->nprims = npre + 1;
                        ch->score = 6;
                        ch->tag = S->prune ? (uint8_t)obligation(s, i, count) : NOTAG;
                    }
                    break;
                }
            }
            if (!found)
                for (int k = 0; k < s->nseq; k++)
                    if (s->seq[k] == x) in_stock = 1;
        }
        if (in_stock) waste_moves(S, -1, prefix, npre, j);
    }
    /* The return of the card beneath the returned one, wherever it fits. */
    int su = fsrc >= 0 ? s->sof[fsrc] : -1;
    if (su >= 0) {
        int c = s->cof[su][s->h[su]], r = s->rel[c], empty_done = 0;
        for (int i = 0; i < 7; i++) {
            if (s->len[i]) {
                int top = s->tab[i][s->len[i] - 1];
                if (s->rel[top] != r + 1 || RED[top] == RED[c]) continue;
            } else if (r != 13 || empty_done) {
                continue;
            } else {
                empty_done = 1;
            }
            Prim m = {P_FT, (uint8_t)su, (uint8_t)i, 1, 0, 0};
            size_t mark = S->ndone;
            if (!apply(S, m)) return;
            prefix[npre] = m;
            after_return(S, prefix, npre + 1, i, fsrc, depth + 1);
            undo_to(S, mark);
        }
    }
}


/* KlondikeAdapter.children: appended to S->kids, best first. */
static void children(Search *S, int tag) {
    State *s = &S->st;
    size_t base = S->nkids;
    if (S->prune && lost(S)) return;
    int only = -1;
    if (tag != NOTAG) {
        for (int j = 0; j < 7; j++) {
            if (s->len[j] ? s->tab[j][s->len[j] - 1] == tag : tag == EMPTIED) {
                only = j;
                break;
            }
        }
    }
    /* Where each movable card is: pile and cards from it to the top. */
    int lpile[52], lcount[52];
    for (int c = 0; c < 52; c++) lpile[c] = -1;
    for (int i = 0; i < 7; i++) {
        int n = s->len[i];
        if (!n) continue;
        int k = n - 1, c = s->tab[i][k];
        lpile[c] = i;
        lcount[c] = 1;
        while (k > s->down[i]) {
            int below = s->tab[i][k - 1];
            if (s->rel[below] != s->rel[c] + 1 || RED[below] == RED[c]) break;
            k--;
            c = below;
            lpile[c] = i;
            lcount[c] = n - k;
        }
    }
    Prim returns[16];
    int nret = 0, empty_done = 0;
    for (int j = 0; j < 7; j++) {
        if (only >= 0 && j != only) continue;
        int wanted[4], nw;
        if (s->len[j]) {
            int d = s->tab[j][s->len[j] - 1], r = s->rel[d];
            if (r == 1) continue;
            nw = 2;
            wanted[0] = s->cof[RED[d] ? 0 : 1][r - 1];
            wanted[1] = s->cof[RED[d] ? 2 : 3][r - 1];
        } else if (empty_done) {
            continue;
        } else {
            empty_done = 1;
            nw = 4;
            for (int u = 0; u < 4; u++) wanted[u] = s->cof[u][13];
        }
        for (int w = 0; w < nw; w++) {
            int c = wanted[w];
            if (lpile[c] >= 0) {
                int i = lpile[c], count = lcount[c];
                if (!s->len[j] && count == s->len[i]) continue;
                Prim m = {P_TT, (uint8_t)i, (uint8_t)j, (uint8_t)count, 0, 0};
                int rest = s->len[i] - count, score, order = 0;
                if (rest == 0)
                    score = 3;
                else if (rest <= s->down[i])
                    score = s->down[i] ? 1 : 3;
                else
                    score = 5;
                if (score == 1) order = -s->down[i];
                int t = S->prune ? obligation(s, i, count) : NOTAG;
                add_plain(S, m, score, order, t);
            } else if (s->h[SUIT[c]] == s->rel[c] && nret < 16) {
                Prim m = {P_FT, (uint8_t)SUIT[c], (uint8_t)j, 1, 0, 0};
                returns[nret++] = m;
            }
        }
    }
    for (int i = 0; i < 7; i++) {
        if (!s->len[i] || (only >= 0 && i != only)) continue;
        int c = s->tab[i][s->len[i] - 1];
        if (s->h[SUIT[c]] == s->rel[c] - 1) {
            Prim m = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            add_plain(S, m, 0, 0, NOTAG);
        }
    }
    waste_moves(S, only, NULL, 0, -1);
    for (int k = 0; k < nret; k++) {
        Prim prefix[MAXP];
        prefix[0] = returns[k];
        int f = s->fof[returns[k].a];
        size_t mark = S->ndone;
        if (!apply(S, returns[k])) return;
        after_return(S, prefix, 1, returns[k].b, f, 1);
        undo_to(S, mark);
    }
    sort_kids(S, base);
}

/* LadyJaneAdapter.children: the engine's legal moves in its order (sources stock,
 * waste, reserves, foundations, tableau; foundations before tableau; deal last),
 * less those that reach the same canonical state as an earlier one (a second empty
 * foundation or empty pile, a whole pile to an empty pile), those that miss the
 * obligation ``tag`` (alternating.honours), ranked as there. */
static int lj_empty_foundation(const State *s) {
    for (int f = 0; f < 4; f++)
        if (s->sof[f] < 0) return 1;
    return 0;
}

/* Whether pile ``j`` takes card ``c`` (as a card or a run's bottom). */
static int lj_takes(const State *s, int j, int c) {
    if (!s->len[j]) return s->rel[c] == 13;
    int top = s->tab[j][s->len[j] - 1];
    return s->rel[top] == s->rel[c] + 1 && RED[top] != RED[c];
}

/* Whether a move to ``dst`` (0-6 a pile, 7 home) from pile ``src`` (-1: not a pile)
 * meets obligation ``tag``. */
static int lj_honours(const State *s, int tag, int src, int dst) {
    if (tag == NOTAG) return 1;
    if (dst < 7) {
        if (tag == EMPTIED) return s->len[dst] == 0;
        return s->len[dst] && s->tab[dst][s->len[dst] - 1] == tag;
    }
    return src >= 0 && tag != EMPTIED && s->len[src] && s->tab[src][s->len[src] - 1] == tag;
}

static void lj_single(Search *S, int kind_t, int kind_f, int a, int c, int home, int score,
                      int tag) {
    State *s = &S->st;
    if (home && s->h[SUIT[c]] == s->rel[c] - 1 && lj_honours(s, tag, -1, 7) &&
        (s->rel[c] > 1 || lj_empty_foundation(s))) {
        Prim m = {(uint8_t)kind_f, (uint8_t)a, 0, 1, 0, 0};
        add_plain(S, m, 0, 0, NOTAG);
    }
    int empty_done = 0;
    for (int j = 0; j < 7; j++) {
        if (!lj_takes(s, j, c) || !lj_honours(s, tag, -1, j)) continue;
        if (!s->len[j]) {
            if (empty_done) continue;
            empty_done = 1;
        }
        Prim m = {(uint8_t)kind_t, (uint8_t)a, (uint8_t)j, 1, 0, 0};
        add_plain(S, m, score, 0, NOTAG);
    }
}

static void lj_children(Search *S, int tag) {
    State *s = &S->st;
    size_t base = S->nkids;
    if (S->prune && lost(S)) return;
    if (s->nstock == 1) lj_single(S, P_XT, P_XF, 8, s->stock[0], 1, 25, tag);
    if (s->nres[7]) lj_single(S, P_XT, P_XF, 7, s->res[7][s->nres[7] - 1], 1, 25, tag);
    for (int i = 0; i < 7; i++)
        if (s->nres[i]) lj_single(S, P_XT, P_XF, i, s->res[i][s->nres[i] - 1], 1, 20, tag);
    for (int f = 0; f < 4; f++) {
        int su = s->sof[f];
        if (su < 0) continue;
        lj_single(S, P_FT, P_FT, su, s->cof[su][s->h[su]], 0, 60, tag);
    }
    for (int i = 0; i < 7; i++) {
        int n = s->len[i];
        if (!n) continue;
        int top = s->tab[i][n - 1];
        if (s->h[SUIT[top]] == s->rel[top] - 1 && lj_honours(s, tag, i, 7) &&
            (s->rel[top] > 1 || lj_empty_foundation(s))) {
            Prim m = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            add_plain(S, m, 0, 0, NOTAG);
        }
        int length = run_length(s, i), empty_done = 0;
        for (int j = 0; j < 7; j++) {
            if (j == i || !lj_honours(s, tag, i, j)) continue;
            int count;
            if (s->len[j]) {
                int d = s->tab[j][s->len[j] - 1];
                if (s->rel[d] == 1) continue;
                count = s->rel[d] - 1 - s->rel[top] + 1;
                if (count < 1 || count > length) continue;
                int bottom = s->tab[i][n - count];
                if (RED[bottom] == RED[d]) continue;
            } else {
                if (empty_done) continue;
                count = 13 - s->rel[top] + 1;
                if (count < 1 || count > length) continue;
                empty_done = 1;
            }
            int rest = n - count;
            if (rest == 0 && !s->len[j]) continue; /* a whole pile to an empty pile */
            int score;
            if (rest == 0)
                score = 30;
            else if (rest <= s->down[i])
                score = 10 - (s->down[i] < 9 ? s->down[i] : 9);
            else
                score = 50;
            Prim m = {P_TT, (uint8_t)i, (uint8_t)j, (uint8_t)count, 0, 0};
            add_plain(S, m, score, 0, S->prune ? obligation(s, i, count) : NOTAG);
        }
    }
    if (tag == NOTAG && (s->nstock > 7 || s->nstock == 2)) {
        Prim m = {P_DEAL, 0, 0, 1, 0, 0};
        add_plain(S, m, 40, 0, NOTAG);
    }
    sort_kids(S, base);
}

/* ------------------------------------------------------ the table */

/* Start loading where key ``a`` lies in both tables: the lookups then wait for memory
 * together rather than one after the other. */
static inline void prefetch(Search *S, uint64_t a) {
    __builtin_prefetch(&S->tnew.e[(size_t)a & (S->tnew.cap - 1)]);
    __builtin_prefetch(&S->told.e[(size_t)a & (S->told.cap - 1)]);
}

static int covers(Search *S, uint64_t a, uint64_t b, int32_t cost) {
    Entry *e = table_find(&S->tnew, a, b);
    if (!e->b) e = table_find(&S->told, a, b);
    return e->b && entry_val(e) <= cost;
}

static int add_key(Search *S, uint64_t a, uint64_t b, int32_t cost) {
    if (!table_put(&S->tnew, a, b, cost, S->half)) return 0;
    if (S->tnew.count >= S->half) {
        Table t = S->told;
        S->told = S->tnew;
        S->tnew = t;
        table_clear(&S->tnew);
        for (size_t k = 0; k < S->npath; k++)
            if (!table_put(&S->tnew, S->pa[k], S->pb[k], S->pc[k], S->half)) return 0;
    }
    return 1;
}

static int push_path(Search *S, uint64_t a, uint64_t b, int32_t c) {
    if (S->npath == S->cappath) {
        size_t cap = S->cappath ? S->cappath * 2 : 1024;
        uint64_t *na = realloc(S->pa, cap * sizeof *na);
        if (!na) return 0;
        S->pa = na;
        uint64_t *nb = realloc(S->pb, cap * sizeof *nb);
        if (!nb) return 0;
        S->pb = nb;
        int32_t *nc = realloc(S->pc, cap * sizeof *nc);
        if (!nc) return 0;
        S->pc = nc;
        S->cappath = cap;
    }
    S->pa[S->npath] = a;
    S->pb[S->npath] = b;
    S->pc[S->npath] = c;
    S->npath++;
    return 1;
}

/* Whether the search must stop: its states or time are spent, the caller's cancel
 * event is set, or Ctrl-C was pressed (in the main thread: run then raises
 * KeyboardInterrupt, as the Python search would). The interpreter is taken back to
 * look at the event and the signals only every 20 ms: a thread that holds it (the
 * web server's) makes each look wait. */
static int budget_out(Search *S) {
    if (S->max_states >= 0 && S->states > S->max_states) return 1;
    if ((S->states & 1023) == 0) {
        double t = now();
        if (t > S->deadline) return 1;
        if (t >= S->next_poll) {
            S->next_poll = t + 0.02;
            if (caller_stops(S->cancel, &S->ts, &S->interrupted)) return 1;
        }
    }
    return 0;
}

/* search.py's enter(): open the node the state is in now, its children appended to
 * S->kids from ``*base``. OPEN: there are children to search; otherwise the node
 * is closed (LOST: a loss or a state already searched), won, or the budget ran out. */
enum { OPEN = 5 };

static int open_node(Search *S, int tag, int left, size_t *base) {
    State *s = &S->st;
    if (do_auto(S)) tag = NOTAG;
    if (S->oom) return STOP;
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return WON;
    if (finish(S)) return WON;
    uint64_t a, b;
    key(S, &a, &b);
    int32_t cost;
    if (S->lds) {
        int c = stock_cost(S);
        if (c) {
            a = mixa(a + 0x51ED270B27A3ULL * (uint64_t)(c + 1));
            b = mixb(b ^ 0x2545F4914F6CDD1DULL * (uint64_t)(c + 3));
        }
        cost = -left;
    } else {
        cost = stock_cost(S);
    }
    a = mixa(a);
    b = mixb(b);
    prefetch(S, a);
    if (tag != NOTAG) {
        uint64_t ta = mixa(a ^ (0xA0761D6478BD642FULL * (uint64_t)(tag + 1)));
        uint64_t tb = mixb(b + 0xE7037ED1A0B428DBULL * (uint64_t)(tag + 1));
        prefetch(S, ta);
        if (covers(S, a, b, cost)) return LOST;
        a = ta;
        b = tb;
    }
    if (covers(S, a, b, cost)) return LOST;
    if (!add_key(S, a, b, cost) || !push_path(S, a, b, cost)) {
        S->oom = 1;
        return STOP;
    }
    S->states++;
    if (budget_out(S)) {
        return STOP;
    }
    *base = S->nkids;
    if (S->lady_jane)
        lj_children(S, tag);
    else if (S->bakers)
        bd_children(S);
    else
        children(S, tag);
    return S->oom ? STOP : OPEN;
}

typedef struct {
    size_t undo; /* the line's length before the moves into this node */
    size_t base, next, end; /* its children in S->kids, the next to search */
    int left;               /* discrepancies left */
} Frame;

/* The depth-first search from the state the search is in (an explicit stack: a line
 * can be far longer than a C stack allows): WON (the line is S->done), LOST, or STOP. */
static int dfs(Search *S, int left) {
    Frame *stack = NULL;
    size_t depth = 0, cap = 0;
    int ret = LOST;
    size_t base = 0, undo = 0;
    int r = open_node(S, NOTAG, left, &base);
    for (;;) {
        if (r == WON || r == STOP) {
            ret = r;
            break;
        }
        if (r == OPEN) {
            if (depth == cap) {
                size_t c = cap ? cap * 2 : 256;
                Frame *n = realloc(stack, c * sizeof(Frame));
                if (!n) {
                    S->oom = 1;
                    ret = STOP;
                    break;
                }
                stack = n;
                cap = c;
            }
            Frame f = {undo, base, base, S->nkids, left};
            stack[depth++] = f;
        } else {
            undo_to(S, undo);
        }
        /* The next child of the deepest open node, closing the nodes that have none. */
        Frame *f = NULL;
        while (depth) {
            f = &stack[depth - 1];
            size_t i = f->next - f->base;
            if (f->next < f->end && !(S->lds && i && (size_t)f->left < i)) break;
            if (f->next < f->end) S->cut = 1;
            S->nkids = f->base;
            S->npath--;
            undo_to(S, f->undo);
            depth--;
            f = NULL;
        }
        if (!f) break;
        size_t i = f->next - f->base;
        left = S->lds && i ? f->left - (int)i : f->left;
        undo = S->ndone;
        Child *ch = &S->kids[f->next++];
        int ok = 1, tag = ch->tag;
        for (int k = 0; k < ch->nprims && ok; k++) ok = apply(S, ch->prims[k]);
        r = ok ? open_node(S, tag, left, &base) : STOP;
    }
    free(stack);
    return ret;
}

/* ------------------------------------------------------ Python glue */

static int fill_pile(PyObject *obj, uint8_t *out, int *n, int cap) {
    Py_buffer v;
    if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) < 0) return 0;
    if (v.len > cap) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "pile too long");
        return 0;
    }
    memcpy(out, v.buf, (size_t)v.len);
    *n = (int)v.len;
    PyBuffer_Release(&v);
    for (int k = 0; k < *n; k++)
        if (out[k] > 51) {
            PyErr_SetString(PyExc_ValueError, "card out of range");
            return 0;
        }
    return 1;
}

static PyObject *line_of(Search *S) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    char buf[32];
    for (size_t k = 0; k < S->ndone; k++) {
        Done *d = &S->done[k];
        Prim p = d->p;
        if (p.kind == P_WT || p.kind == P_WF)
            for (int n = 0; n < p.deals; n++) {
                PyObject *u = PyUnicode_FromString("deal");
                if (!u || PyList_Append(out, u) < 0) {
                    Py_XDECREF(u);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(u);
            }
        switch (p.kind) {
        case P_TT:
            if (p.c > 1)
                snprintf(buf, sizeof buf, "t%d>t%d/%d", p.a + 1, p.b + 1, p.c);
            else
                snprintf(buf, sizeof buf, "t%d>t%d", p.a + 1, p.b + 1);
            break;
        case P_TF: snprintf(buf, sizeof buf, "t%d>f%d", p.a + 1, d->f + 1); break;
        case P_WT: snprintf(buf, sizeof buf, "w>t%d", p.b + 1); break;
        case P_WF: snprintf(buf, sizeof buf, "w>f%d", d->f + 1); break;
        case P_FT: snprintf(buf, sizeof buf, "f%d>t%d", d->f + 1, p.b + 1); break;
        case P_DEAL: snprintf(buf, sizeof buf, "deal"); break;
        default: {
            char src[8];
            if (p.a < 7)
                snprintf(src, sizeof src, "r%d", p.a + 1);
            else
                snprintf(src, sizeof src, "%s", p.a == 7 ? "w" : "s");
            if (p.kind == P_XT)
                snprintf(buf, sizeof buf, "%s>t%d", src, p.b + 1);
            else
                snprintf(buf, sizeof buf, "%s>f%d", src, d->f + 1);
        }
        }
        PyObject *u = PyUnicode_FromString(buf);
        if (!u || PyList_Append(out, u) < 0) {
            Py_XDECREF(u);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(u);
    }
    return out;
}

static void release(Search *S) {
    free(S->done);
    free(S->kids);
    entries_free(S->tnew.e, S->tnew.cap);
    entries_free(S->told.e, S->told.cap);
    entries_free(S->memo.e, S->memo.cap);
    free(S->pa);
    free(S->pb);
    free(S->pc);
}

/* Fill the foundations, piles and face-down counts, search, and answer
 * (verdict, line, states); frees S. */
static PyObject *run(Search *S, PyObject *fnd, PyObject *tab, PyObject *down, int prune,
                     int disc, double seconds, long long max_states, long long table_size,
                     PyObject *cancel) {
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
    S->prune = prune;
    S->lds = disc >= 0;
    S->max_states = max_states;
    S->cancel = cancel;
    S->deadline = now() + seconds;
    S->half = table_size > 2 ? (size_t)table_size / 2 : 1;
    S->memo_limit = 1 << 20;
    if (!table_init(&S->tnew, 1 << 16) || !table_init(&S->told, 1 << 16) ||
        !table_init(&S->memo, 1 << 16)) {
        PyErr_NoMemory();
        goto fail;
    }
    int r;
    S->ts = PyEval_SaveThread();
    r = dfs(S, disc >= 0 ? disc : 0);
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

static PyObject *py_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"stock", "waste", "foundations", "tableau", "down", "redeals",
                            "draw", "limit", "prune", "discrepancies", "seconds",
                            "max_states", "table_size", "cancel", NULL};
    PyObject *stock, *waste, *fnd, *tab, *down, *cancel;
    int redeals, draw, limit, prune, disc;
    double seconds;
    long long max_states, table_size;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOOOiiipidLLO", names, &stock, &waste, &fnd,
                                     &tab, &down, &redeals, &draw, &limit, &prune, &disc,
                                     &seconds, &max_states, &table_size, &cancel))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    State *s = &S->st;
    uint8_t buf[52];
    int n;
    set_ranks(s, 0);
    /* seq = waste + reversed(stock) */
    if (!fill_pile(waste, s->seq, &s->nseq, 52) || !fill_pile(stock, buf, &n, 52)) goto fail;
    if (s->nseq + n > 52) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        goto fail;
    }
    s->ptr = s->nseq;
    for (int k = n - 1; k >= 0; k--) s->seq[s->nseq++] = buf[k];
    s->redeals = redeals;
    S->draw = draw;
    S->limit = limit;
    return run(S, fnd, tab, down, prune, disc, seconds, max_states, table_size, cancel);
fail:
    release(S);
    free(S);
    return NULL;
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
    S->lady_jane = 1;
    S->draw = 1;
    S->limit = -1;
    set_ranks(s, base);
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
                            "seed", NULL};
    PyObject *fnd, *tab, *cancel;
    int other_suit, kings_move, prune, disc;
    double seconds;
    long long max_states, table_size;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOpppidLLOK", names, &fnd, &tab, &other_suit,
                                     &kings_move, &prune, &disc, &seconds, &max_states,
                                     &table_size, &cancel, &seed))
        return NULL;
    Search *S = calloc(1, sizeof(Search));
    if (!S) return PyErr_NoMemory();
    set_ranks(&S->st, 0);
    S->st.npiles = 13;
    S->bakers = 1;
    S->other_suit = other_suit;
    S->kings_move = kings_move;
    S->draw = 1;
    S->limit = -1;
    S->jitter = seed ? seed * 0x9E3779B97F4A7C15ULL : 0;
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

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(stock, waste, foundations, tableau, down, redeals, draw, limit, prune,"
     " discrepancies, seconds, max_states, table_size, cancel) -> (verdict, moves, states)\n"
     "verdict: 0 won, 1 lost, 2 unknown; discrepancies < 0: exhaustive; max_states < 0:"
     " none."},
    {"lady_jane", (PyCFunction)(void (*)(void))py_lady_jane, METH_VARARGS | METH_KEYWORDS,
     "lady_jane(stock, waste, foundations, tableau, down, reserve, base, prune,"
     " discrepancies, seconds, max_states, table_size, cancel) -> (verdict, moves, states)"},
    {"bakers_dozen", (PyCFunction)(void (*)(void))py_bakers_dozen, METH_VARARGS | METH_KEYWORDS,
     "bakers_dozen(foundations, tableau, other_suit, kings_move, prune, discrepancies,"
     " seconds, max_states, table_size, cancel, seed) -> (verdict, moves, states)\n"
     "seed: a jittered move order (0: none)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_alternating",
                                    "The search of Klondike and Lady Jane at native speed (see klondike.py, lady_jane.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__alternating(void) {
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
