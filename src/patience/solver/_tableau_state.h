/* The state of a Klondike, Lady Jane or Baker's Dozen search (the cards, the
 * search's stacks and budget) and its moves, made and undone.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

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
    uint8_t bit[52];             /* each card's bit in a set of cards: suit * 16 + rank - 1 */
    /* Lady Jane: the reserves, the waste (stack 7), the stock */
    uint8_t res[8][52];
    int nres[8];
    uint8_t stock[52];
    int nstock;
    /* Each pile's part of the key (add_pile over the whole pile) and of the relaxed
     * game's memo key (over its face-down cards and lowest face-up card), kept until
     * the pile changes: ``dirty`` has a bit per pile that apply or undo_to changed. */
    uint64_t pha[13], phb[13], lpa[13], lpb[13];
    /* Klondike, Lady Jane: the parents that a face-up card of the pile, lying on its
     * other parent, would lie on in its arrangement (canon_key), a bit per card, kept as
     * the cards move (sum_push, sum_pop, sums_move; twin_bit) */
    uint64_t twin[13];
    unsigned dirty;
    /* The sums that add_cards would make afresh, kept as the cards move (sum_push,
     * sum_pop, flip_after): each pile's RA/RB terms over all its cards (``sa``, ``sb``)
     * and over its face-down cards (``fa``, ``fb``), and the stock cycle's ZA/ZB terms
     * (``za``, ``zb``: add_seq). A dirty pile's parts of the keys are then a few mixes,
     * not a walk of the pile twice (the same values: CHECK_KEYS compares them). */
    uint64_t sa[13], sb[13], fa[13], fb[13], za, zb;
} State;

/* The parent card ``c`` would lie on in its arrangement (canon_key), lying on ``p``:
 * its other parent, where that one is the lower-numbered; -1 where it stays (on the
 * lower one already, or on a card it is not built on: a position given by hand). */
static inline int twin_of(const State *s, int c, int p) {
    int o = s->pa[c] ^ s->pb[c] ^ p;
    return (p == s->pa[c] || p == s->pb[c]) && o < p ? o : -1;
}

/* Card ``c``'s bit in State.twin, lying at place ``k`` of a pile with ``down`` cards
 * face down, on ``p``: the parent twin_of names, where ``p`` is face up. No two cards
 * of a tableau give one bit (the card that gives o lies on o's twin, which holds
 * one card), so a card taken off takes its bit with it. */
static inline uint64_t twin_bit(const State *s, int c, int p, int k, int down) {
    int o = k > down ? twin_of(s, c, p) : -1;
    return o >= 0 ? 1ULL << o : 0;
}

/* Card ``c`` put on pile ``i``'s top, or the top taken off, in the pile's sums and
 * its twin bits. */
static inline void sum_push(State *s, int i, int c) {
    int k = s->len[i];
    s->sa[i] += RA[k][c];
    s->sb[i] += RB[k][c];
    if (k) s->twin[i] |= twin_bit(s, c, s->tab[i][k - 1], k, s->down[i]);
}

static inline void sum_pop(State *s, int i) {
    int k = s->len[i] - 1, c = s->tab[i][k];
    s->sa[i] -= RA[k][c];
    s->sb[i] -= RB[k][c];
    if (k) s->twin[i] &= ~twin_bit(s, c, s->tab[i][k - 1], k, s->down[i]);
}

/* ``n`` cards from the top of pile ``src`` put on pile ``dst``, in the piles' sums and
 * twin bits (the cards not yet moved). */
static inline void sums_move(State *s, int src, int dst, int n) {
    const uint8_t *from = s->tab[src], *onto = s->tab[dst];
    for (int t = 0; t < n; t++) {
        int k = s->len[src] - n + t, c = from[k], to = s->len[dst] + t;
        s->sa[src] -= RA[k][c];
        s->sb[src] -= RB[k][c];
        s->sa[dst] += RA[to][c];
        s->sb[dst] += RB[to][c];
        if (k) s->twin[src] &= ~twin_bit(s, c, from[k - 1], k, s->down[src]);
        if (to) s->twin[dst] |= twin_bit(s, c, t ? from[k - 1] : onto[to - 1], to, s->down[dst]);
    }
}

/* Every sum of the state made afresh (after the state is filled). */
static void sums_init(State *s) {
    s->za = s->zb = 0;
    for (int k = 0; k < s->nseq; k++) {
        s->za += ZA[s->seq[k]];
        s->zb += ZB[s->seq[k]];
    }
    for (int i = 0; i < s->npiles; i++) {
        s->sa[i] = s->sb[i] = s->fa[i] = s->fb[i] = 0;
        s->twin[i] = 0;
        for (int k = 0; k < s->len[i]; k++) {
            int c = s->tab[i][k];
            s->sa[i] += RA[k][c];
            s->sb[i] += RB[k][c];
            if (k) s->twin[i] |= twin_bit(s, c, s->tab[i][k - 1], k, s->down[i]);
            if (k < s->down[i]) {
                s->fa[i] += RA[k][c];
                s->fb[i] += RB[k][c];
            }
        }
    }
}

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

static void set_ranks(State *s, int base) {
    s->npiles = 7;
    for (int c = 0; c < 52; c++) {
        s->rel[c] = base ? (RANK[c] - base + 13) % 13 + 1 : RANK[c];
        s->cof[SUIT[c]][s->rel[c]] = c;
        s->bit[c] = (uint8_t)(SUIT[c] * 16 + s->rel[c] - 1);
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
    uint64_t a, b;
    int32_t cost;
} PathKey;

/* A node's key as the table knows it (_dfs.h: node_key): (a, b), and under an
 * obligation (``tagged``) first the key without it (a0, b0). */
typedef struct {
    uint64_t a0, b0, a, b;
    int32_t cost;
    int tagged;
    int dominated; /* draw 3: the keys of the states that dominate it (_dfs.h: node_key) */
    uint64_t da[2], db[2];
} NodeKey;

/* A child's key made ahead (_dfs.h: key_children), and its obligation once its safe
 * moves are made; ``keyed`` 0: none. */
typedef struct {
    NodeKey key;
    uint8_t keyed, tag;
} KidKey;

struct Search;
struct Relaxation;

/* The cards dealing brings to the waste's top (_klondike.h's waste_order), for the
 * stock cycle of ``total`` cards, pointer ``ptr`` and ``r0`` redeals made. */
typedef struct {
    int valid, total, ptr, r0, n;
    uint8_t order[52];
    int rdeals[52], rred[52];
} WasteOrder;

/* What a game does differently, chosen once when its search is made (Klondike with one
 * card a deal or three, Lady Jane, Baker's Dozen: _dfs.h) instead of asked of a flag
 * wherever it matters. */
typedef struct {
    int (*autoplay)(struct Search *S);            /* its safe moves home (do_auto) */
    void (*children)(struct Search *S, int tag);  /* the moves worth trying */
    /* Klondike and Lady Jane only, for the relaxed games (_relaxed.h): whether the waste
     * is a stack, whether relaxed game G is lost, the reserves in a key (settled: as a
     * set) and the builds onto a tableau card from outside the tableau. */
    int (*waste_stacked)(const struct Search *S);
    int (*played_out)(const struct Search *S, struct Relaxation G);
    void (*reserves_key)(const State *s, int settled, uint64_t *a, uint64_t *b);
    void (*builds_from_outside)(struct Search *S, Prim *prefix, int npre, int j, int d,
                                int rank, int in_stock);
    int build_score; /* a run's move onto a card a return brought back */
} Rules;

typedef struct Search {
    State st;
    const Rules *rules;
    int other_suit, kings_move; /* Baker's Dozen's options */
    uint64_t jitter; /* Baker's Dozen: a jittered move order's random state (0: none) */
    int shuffle;     /* Baker's Dozen: a shuffled order (from jitter) instead of a jittered one */
    int best;        /* Baker's Dozen: best-first with estimate best - 1 (0: depth-first) */
    int draw, limit; /* limit < 0: unlimited redeals */
    int prune, lds;
    int canon;       /* with the cuts, not Baker's Dozen: keys of arrangements, SWITCH tags */
    Done *done;
    size_t ndone, capdone;
    Child *kids;
    size_t nkids, capkids;
    KidKey *kkeys; /* S->kids' keys made ahead (_dfs.h: key_children), by index */
    size_t capkkeys;
    Table tnew, told;
    size_t half;
    Table memo;
    size_t memo_limit;
    Table *kept; /* the memo of the solve's searches before this one (memo()), or NULL */
    PathKey *path; /* the keys of the states on the current line (_dfs.h) */
    size_t npath, cappath;
    long long states, max_states;
    double deadline, next_poll;
    int cut, incomplete, oom, interrupted;
    long probes, relax_losses, ordered_runs, ordered_losses; /* lately: see lost() */
    int parent_unasked, unasked; /* lost() not asked of the parent, of this node */
    int tabled;                  /* the node just opened is in the table (open_twin) */
    WasteOrder worder;           /* the last one asked for (waste_order) */
    PyObject *cancel;
    PyThreadState *ts;
} Search;

/* Room for ``need`` items of ``size`` bytes in the array ``*p`` of ``*cap`` items
 * (doubled as needed, from 1024); 0, with ``*p`` as it was, when out of memory. */
static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *n = realloc(*p, c * size);
    if (!n) return 0;
    *p = n;
    *cap = c;
    return 1;
}

static int push_done(Search *S, Done d) {
    if (!grow((void **)&S->done, &S->capdone, S->ndone + 1, sizeof(Done))) return 0;
    S->done[S->ndone++] = d;
    return 1;
}

static Child *new_kid(Search *S) {
    if (!grow((void **)&S->kids, &S->capkids, S->nkids + 1, sizeof(Child))) {
        S->oom = 1;
        return NULL;
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
        int k = s->len[i] - 1, c = s->tab[i][k]; /* down was len: the top card turns */
        s->fa[i] -= RA[k][c];
        s->fb[i] -= RB[k][c];
        s->down[i] = k;
        d->flipped = 1;
    }
}

/* Undo flip_after: pile i's top card face down again. */
static void unflip(State *s, int i) {
    int k = s->down[i], c = s->tab[i][k];
    s->fa[i] += RA[k][c];
    s->fb[i] += RB[k][c];
    s->down[i]++;
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
    s->za -= ZA[d->card];
    s->zb -= ZB[d->card];
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
        sums_move(s, src, dst, n);
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
        sum_pop(s, src);
        s->len[src]--;
        flip_after(s, src, &d);
        to_home(s, card, &d);
        break;
    }
    case P_WT:
        take_seq(s, p.a, &d, p.redeals);
        s->dirty |= 1u << p.b;
        sum_push(s, p.b, d.card);
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
            sum_push(s, p.b, card);
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
        sum_push(s, p.b, card);
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
    s->za += ZA[d->card];
    s->zb += ZB[d->card];
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
            if (d->flipped) unflip(s, p.a);
            sums_move(s, p.b, p.a, p.c);
            memcpy(&s->tab[p.a][s->len[p.a]], &s->tab[p.b][s->len[p.b] - p.c], p.c);
            s->len[p.a] += p.c;
            s->len[p.b] -= p.c;
            break;
        case P_TF:
            from_home(s, d);
            if (d->flipped) unflip(s, p.a);
            sum_push(s, p.a, d->card);
            s->tab[p.a][s->len[p.a]++] = d->card;
            break;
        case P_WT:
            sum_pop(s, p.b);
            s->len[p.b]--;
            put_seq(s, d);
            break;
        case P_WF:
            from_home(s, d);
            put_seq(s, d);
            break;
        case P_XT:
        case P_XF:
            if (p.kind == P_XT) {
                sum_pop(s, p.b);
                s->len[p.b]--;
            }
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
            sum_pop(s, p.b);
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
