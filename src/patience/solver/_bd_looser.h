/* Baker's Dozen's looser game, a test that a position is lost, for the search by
 * classes: the twin of tests/bd_looser_oracle.py (its reference, with the proof), the
 * same states in the same order.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* A state: each base's length (its cards are the bottom of the base the test began
 * with, L->base) and the built cards. */
typedef struct {
    uint8_t len[13];
    uint64_t built;
} LState;

typedef struct {
    size_t start, n, next; /* its children: todo[start .. start + n), the next one */
    H2 key;
} LFrame;

#define LDEPTH 128 /* more than any line: each move takes a card out of a base or home */
#define L_LOST 1
#define L_WON 3

struct Looser {
    uint64_t parents[52];
    Map memo; /* a state's key -> L_LOST or L_WON, for the whole search by classes */
    size_t max_memo;
    uint8_t base[13][MAXPILE];
    int nb;
    uint64_t prefix[13][MAXPILE + 1]; /* the cards of each base's first n */
    LState *todo;
    size_t ntodo, captodo;
    size_t cap;
    int8_t match[52]; /* the built card on each top (-1: none) */
    uint64_t visited;
};

/* splitmix64's finalizer: a bijection of 64-bit words. */
static inline uint64_t lmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The cards of a state's bases. */
static inline uint64_t lbasemask(const Looser *L, const LState *st) {
    uint64_t bm = 0;
    for (int k = 0; k < L->nb; k++) bm |= L->prefix[k][st->len[k]];
    return bm;
}

/* A state's key from its base cards bm and built cards: both recoverable from it (lmix
 * is a bijection), so no two states share one. */
static inline H2 lkey(uint64_t bm, uint64_t built) {
    H2 h = {lmix(bm) ^ built, (built << 1) | 1};
    return h;
}

/* The cards home in each suit, with ``left`` the cards on the table. */
static inline void lheights(uint64_t left, int h[4]) {
    for (int s = 0; s < 4; s++) {
        uint64_t bits = (left >> (13 * s)) & 0x1FFF;
        h[s] = bits ? __builtin_ctzll(bits) : 13;
    }
}

/* Kuhn's augmenting path for built card c among the parents in ``allowed``. */
static int laug(Looser *L, int c, uint64_t allowed) {
    uint64_t qs = L->parents[c] & allowed & ~L->visited;
    while (qs) {
        int q = __builtin_ctzll(qs);
        qs &= qs - 1;
        L->visited |= 1ULL << q;
        if (L->match[q] < 0 || laug(L, L->match[q], allowed)) {
            L->match[q] = c;
            return 1;
        }
    }
    return 0;
}

/* Whether the built cards can each lie on a parent of ``allowed``, no two on one; if
 * so, L->match holds such a placement. */
static int lplaceable(Looser *L, uint64_t built, uint64_t allowed) {
    memset(L->match, -1, sizeof L->match);
    while (built) {
        int c = __builtin_ctzll(built);
        built &= built - 1;
        L->visited = 0;
        if (!laug(L, c, allowed)) return 0;
    }
    return 1;
}

/* lplaceable(built, tops & ~gone) for a state with placement ``full`` on all its tops:
 * only the cards lying on the tops in ``gone`` look for another place (an augmenting
 * path from each card left without one finds a placement from any start, when there
 * is one: Berge), so the answer is the same. */
static int lplaceable_without(Looser *L, const int8_t *full, uint64_t tops, uint64_t gone) {
    memcpy(L->match, full, sizeof L->match);
    uint64_t freed = 0;
    for (uint64_t g = gone; g; g &= g - 1) {
        int q = __builtin_ctzll(g);
        if (L->match[q] >= 0) freed |= 1ULL << L->match[q];
        L->match[q] = -1;
    }
    for (; freed; freed &= freed - 1) {
        L->visited = 0;
        if (!laug(L, __builtin_ctzll(freed), tops & ~gone)) return 0;
    }
    return 1;
}

/* The length of the base of the first n cards of pile, the cards of the run above it
 * added to *built. */
static int lbase_len(const Looser *L, const uint8_t *pile, int n, uint64_t *built) {
    while (n > 1 && ((L->parents[pile[n - 1]] >> pile[n - 2]) & 1)) {
        *built |= 1ULL << pile[n - 1];
        n--;
    }
    return n;
}

/* Base slot k's top gone; the run left on top of it becomes built. */
static void lwithout_top(const Looser *L, LState *st, int k) {
    st->len[k] = (uint8_t)lbase_len(L, L->base[k], st->len[k] - 1, &st->built);
}

/* Every safe card home (bd_safe: nothing can lie on it), one at a time. Only a suit's
 * next card can go home, and sending one home never makes another unsafe, so this
 * ends where the reference's order (built cards, then bases) does. */
static void lclosure(const Looser *L, LState *st) {
    for (;;) {
        int h[4], done = 0;
        lheights(lbasemask(L, st) | st->built, h);
        for (int s = 0; s < 4 && !done; s++) {
            int c = s * 13 + h[s];
            if (h[s] == 13 || !bd_safe(h, c)) continue;
            if ((st->built >> c) & 1) {
                st->built &= ~(1ULL << c);
                done = 1;
            }
            for (int k = 0; k < L->nb && !done; k++)
                if (st->len[k] && L->base[k][st->len[k] - 1] == c) {
                    lwithout_top(L, st, k);
                    done = 1;
                }
        }
        if (!done) return;
    }
}

/* Push st on L->todo: 0 when out of memory. */
static int lpush(Looser *L, const LState *st) {
    if (L->ntodo == L->captodo) {
        size_t cap = L->captodo ? L->captodo * 2 : 1024;
        LState *t = realloc(L->todo, cap * sizeof(LState));
        if (!t) return 0;
        L->todo = t;
        L->captodo = cap;
    }
    L->todo[L->ntodo++] = *st;
    return 1;
}

/* st's children pushed on L->todo, in the reference's order: their count, or -1 when
 * out of memory. */
static int lexpand(Looser *L, const LState *st) {
    int pushed = 0;
    int h[4];
    lheights(lbasemask(L, st) | st->built, h);
    uint64_t tops = st->built;
    for (int q = 0; q < L->nb; q++)
        if (st->len[q]) tops |= 1ULL << L->base[q][st->len[q] - 1];
    /* Every move needs a placement on some of the tops: none without one on them all. */
    if (!lplaceable(L, st->built, tops)) return 0;
    int8_t full[52];
    memcpy(full, L->match, sizeof full);
    for (uint64_t b = st->built; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        if (h[c / 13] == c % 13 && lplaceable_without(L, full, tops, 1ULL << c)) {
            LState ch = *st;
            ch.built &= ~(1ULL << c);
            lclosure(L, &ch);
            if (!lpush(L, &ch)) return -1;
            pushed++;
        }
    }
    for (int q = 0; q < L->nb; q++) {
        if (!st->len[q]) continue;
        int c = L->base[q][st->len[q] - 1];
        uint64_t cb = 1ULL << c;
        if (h[c / 13] == c % 13 && lplaceable_without(L, full, tops, cb)) {
            LState ch = *st;
            lwithout_top(L, &ch, q);
            lclosure(L, &ch);
            if (!lpush(L, &ch)) return -1;
            pushed++;
        }
        for (uint64_t ps = L->parents[c] & tops; ps; ps &= ps - 1) {
            int p = __builtin_ctzll(ps);
            if (lplaceable_without(L, full, tops, cb | 1ULL << p)) {
                LState ch = *st;
                lwithout_top(L, &ch, q);
                ch.built |= cb;
                lclosure(L, &ch);
                if (!lpush(L, &ch)) return -1;
                pushed++;
            }
        }
    }
    return pushed;
}

/* Open st (key k) as frame F: 0 when out of memory. */
static int lopen(Looser *L, LFrame *F, LState st, H2 k) {
    F->key = k;
    F->start = L->ntodo;
    F->next = 0;
    int n = lexpand(L, &st);
    F->n = n < 0 ? 0 : (size_t)n;
    /* Each child's memo slot, fetched ahead: the memo is large, and waiting for it was
     * the largest share of the time (perf; solver-log.md, session 34). */
    for (size_t i = 0; i < F->n; i++) {
        const LState *ch = &L->todo[F->start + i];
        H2 ck = lkey(lbasemask(L, ch), ch->built);
        __builtin_prefetch(&L->memo.e[ck.a & (L->memo.cap - 1)]);
    }
    return n >= 0;
}

/* Remember state k as L_LOST or L_WON while the memo has room (forgetting costs work,
 * never correctness). */
static void lremember(Looser *L, H2 k, uint64_t v) {
    if (L->memo.count < L->max_memo) map_put(&L->memo, k, v);
}

/* Whether the looser game from u is lost: a depth-first search (the looser game has no
 * cycle) that remembers each state it finishes, lost or won, and gives up (0) after
 * L->cap states no earlier test finished. */
static int looser_lost(Looser *L, const CState *u) {
    LState root;
    memset(&root, 0, sizeof root);
    L->nb = 0;
    for (int i = 0; i < 13; i++) {
        if (!u->len[i]) continue;
        int n = lbase_len(L, u->tab[i], u->len[i], &root.built), k = L->nb++;
        memcpy(L->base[k], u->tab[i], (size_t)n);
        L->prefix[k][0] = 0;
        for (int m = 0; m < n; m++)
            L->prefix[k][m + 1] = L->prefix[k][m] | (1ULL << u->tab[i][m]);
        root.len[k] = (uint8_t)n;
    }
    lclosure(L, &root);
    uint64_t bm = lbasemask(L, &root);
    if (!(bm | root.built)) return 0;
    H2 rk = lkey(bm, root.built);
    MapEntry *e = map_get(&L->memo, rk);
    if (e) return e->v == L_LOST;
    LFrame F[LDEPTH];
    int nf = 0;
    size_t count = 0;
    L->ntodo = 0;
    if (!lopen(L, &F[nf++], root, rk)) return 0;
    while (nf) {
        LFrame *f = &F[nf - 1];
        if (f->next == f->n) {
            lremember(L, f->key, L_LOST);
            L->ntodo = f->start;
            nf--;
            continue;
        }
        LState ch = L->todo[f->start + f->next++];
        bm = lbasemask(L, &ch);
        H2 k = lkey(bm, ch.built);
        MapEntry *m = map_get(&L->memo, k);
        if (m && m->v == L_LOST) continue;
        if (m || !(bm | ch.built)) {
            for (int d = 0; d < nf; d++) lremember(L, F[d].key, L_WON);
            return 0;
        }
        if (++count > L->cap || nf == LDEPTH) return 0;
        if (!lopen(L, &F[nf++], ch, k)) return 0;
    }
    return 1;
}

/* A looser game for the search by classes of C (parents set): NULL when out of
 * memory or with cap 0. */
static Looser *looser_new(const uint64_t parents[52], size_t cap, size_t max_memo) {
    if (!cap) return NULL;
    Looser *L = calloc(1, sizeof(Looser));
    if (!L) return NULL;
    if (!map_init(&L->memo, (size_t)1 << 16)) {
        free(L);
        return NULL;
    }
    memcpy(L->parents, parents, sizeof L->parents);
    L->cap = cap;
    L->max_memo = max_memo;
    return L;
}

static void looser_free(Looser *L) {
    if (!L) return;
    free(L->memo.e);
    free(L->todo);
    free(L);
}
