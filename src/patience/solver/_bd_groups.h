/* Baker's Dozen by classes of states: the states, their groups, and the components
 * remembered with every arrangement (the search is in _bd_classes.h; the proof in
 * tests/bd_classes_oracle.py).
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

typedef struct {
    uint8_t tab[13][MAXPILE];
    int len[13], h[4];
} CState;

#define CL_PACK 68 /* a state packed: each pile's cards and 0xFF after it (<= 65) */
#define CL_FROM 66 /* a child as packed: the state it comes from, and at CL_FROM and */
#define CL_TO 67   /* CL_TO the pile its move takes a card from and the pile it goes to */
#define CL_HOME 255 /* (CL_HOME: the foundation; CL_ROOT: no move, the search's start) */
#define CL_ROOT 254
#define CL_SCORE 65 /* and its rank among its siblings: BakersDozenAdapter.estimate 0 */

typedef struct {
    uint8_t b[CL_PACK];
} Packed;

typedef struct {
    uint64_t a, b;
} H2;

/* A hash map from a 128-bit key to a 64-bit value (open addressing; b is never 0). */
typedef struct {
    uint64_t a, b, v;
} MapEntry;

typedef struct {
    MapEntry *e;
    size_t cap, count;
} Map;

static int map_init(Map *m, size_t cap) {
    m->e = calloc(cap, sizeof(MapEntry));
    m->cap = cap;
    m->count = 0;
    return m->e != NULL;
}

static MapEntry *map_slot(const Map *m, uint64_t a, uint64_t b) {
    size_t mask = m->cap - 1, i = (size_t)a & mask;
    for (;;) {
        MapEntry *e = &m->e[i];
        if (!e->b || (e->a == a && e->b == b)) return e;
        i = (i + 1) & mask;
    }
}

/* The entry of (a, b), NULL when absent. */
static MapEntry *map_get(const Map *m, H2 k) {
    MapEntry *e = map_slot(m, k.a, k.b | 1);
    return e->b ? e : NULL;
}

/* Put (a, b) -> v; 0 when out of memory. */
static int map_put(Map *m, H2 k, uint64_t v) {
    uint64_t b = k.b | 1;
    if ((m->count + 1) * 4 > m->cap * 3) {
        Map n;
        if (!map_init(&n, m->cap * 2)) return 0;
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].b) *map_slot(&n, m->e[i].a, m->e[i].b) = m->e[i];
        n.count = m->count;
        free(m->e);
        *m = n;
    }
    MapEntry *e = map_slot(m, k.a, b);
    if (!e->b) m->count++;
    e->a = k.a;
    e->b = b;
    e->v = v;
    return 1;
}

/* A component: a multiset of piles with every arrangement its rearrangements reach. */
typedef struct {
    H2 canon;         /* the least of its arrangements' hashes */
    uint64_t tops;    /* the cards at a top in some arrangement */
    uint64_t targets; /* the parents of a card that some arrangement can rearrange */
    uint64_t onto;    /* the parents of a card at a top, lying on no parent, in some arrangement */
    size_t off;       /* its first arrangement in the arena */
    uint32_t count;
    uint16_t np, width; /* piles; bytes an arrangement (its cards and a 0xFF after each pile) */
} Comp;

typedef struct {
    Packed *kids;
    size_t n, cap, next;
} Level;

typedef struct Looser Looser; /* _bd_looser.h */

#define CL_DEPTH 160
#define CL_WON 9 /* a child won: the searches' WON is 0, which here means "go on" */

typedef struct {
    int other_suit;
    uint64_t parents[52]; /* the cards each card may be built on */
    Map memo;             /* an arrangement's hash -> its component */
    Map seen;             /* the classes met */
    Comp *comps;
    size_t ncomps, capcomps;
    uint8_t *arena;
    size_t used, capa;
    size_t max_arrangements, max_states;
    size_t arrangements, classes, children;
    double deadline;
    PyObject *cancel;
    PyThreadState *ts;
    int interrupted, status; /* status: 0, or UNKNOWN / STOP once the search must end */
    Level levels[CL_DEPTH];
    Packed win; /* the winning move, as a child */
    size_t looser_states; /* the looser game's give-up (0: not used) */
    Looser *looser;
    int depth;  /* the levels on the winning line, with the start's */
} CSearch;

/* The groups of a state: each pile's group (-1: a pile no rearrangement touches). */
typedef struct {
    int of[13], ng, comp[13], np[13], piles[13][13];
} Groups;

static inline int cl_built(const CSearch *C, const CState *s, int i) {
    int n = s->len[i];
    return n > 1 && ((C->parents[s->tab[i][n - 1]] >> s->tab[i][n - 2]) & 1);
}

static H2 pile_hash(const uint8_t *p, int n) {
    H2 h = {0x243F6A8885A308D3ULL + (uint64_t)n, 0x13198A2E03707344ULL + (uint64_t)n};
    for (int k = 0; k < n; k++) {
        h.a = mixa(h.a * 0x100000001B3ULL + p[k] + 1);
        h.b = mixb(h.b * 0x9E3779B97F4A7C15ULL + p[k] + 1);
    }
    return h;
}

static int h2_less(H2 x, H2 y) { return x.a < y.a || (x.a == y.a && x.b < y.b); }

/* The hash of a multiset (sorted in place), tagged with what it is a multiset of. */
static H2 multiset_hash(H2 *e, int n, uint64_t tag) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && h2_less(e[j], e[j - 1]); j--) {
            H2 t = e[j];
            e[j] = e[j - 1];
            e[j - 1] = t;
        }
    H2 h = {mixa(tag + (uint64_t)n), mixb(tag ^ (uint64_t)n)};
    for (int i = 0; i < n; i++) {
        h.a = mixa(h.a ^ e[i].a);
        h.b = mixb(h.b ^ e[i].b);
    }
    return h;
}

static H2 arrangement_hash(const CState *s, const int *piles, int np) {
    H2 e[13];
    for (int k = 0; k < np; k++) e[k] = pile_hash(s->tab[piles[k]], s->len[piles[k]]);
    return multiset_hash(e, np, 0xA11A);
}

static void cl_pack(const CState *s, Packed *p) {
    int at = 0;
    for (int i = 0; i < 13; i++) {
        memcpy(p->b + at, s->tab[i], (size_t)s->len[i]);
        at += s->len[i];
        p->b[at++] = 0xFF;
    }
}

static void cl_unpack(const Packed *p, CState *s) {
    int at = 0, left[4] = {13, 13, 13, 13};
    for (int i = 0; i < 13; i++) {
        int n = 0;
        while (p->b[at] != 0xFF) {
            int c = p->b[at++];
            s->tab[i][n++] = (uint8_t)c;
            left[SUIT[c]]--;
        }
        at++;
        s->len[i] = n;
    }
    for (int su = 0; su < 4; su++) s->h[su] = left[su]; /* the cards home: the rest */
}

/* The piles of a group in one arrangement: write them into the state's slots. */
static void put_arrangement(CState *s, const int *piles, int np, const uint8_t *a) {
    for (int k = 0; k < np; k++) {
        int n = 0;
        while (*a != 0xFF) s->tab[piles[k]][n++] = *a++;
        a++;
        s->len[piles[k]] = n;
    }
}

static void take_arrangement(const CState *s, const int *piles, int np, uint8_t *out) {
    for (int k = 0; k < np; k++) {
        memcpy(out, s->tab[piles[k]], (size_t)s->len[piles[k]]);
        out += s->len[piles[k]];
        *out++ = 0xFF;
    }
}

static int arena_add(CSearch *C, const uint8_t *a, size_t w) {
    if (C->used + w > C->capa) {
        size_t cap = C->capa ? C->capa * 2 : (size_t)1 << 20;
        while (cap < C->used + w) cap *= 2;
        uint8_t *n = realloc(C->arena, cap);
        if (!n) return 0;
        C->arena = n;
        C->capa = cap;
    }
    memcpy(C->arena + C->used, a, w);
    C->used += w;
    return 1;
}

static int cl_budget(CSearch *C) {
    if (C->status) return 0;
    if (now() > C->deadline) C->status = UNKNOWN;
    else if (caller_stops(C->cancel, &C->ts, &C->interrupted)) C->status = STOP;
    return !C->status;
}

/* Arrangement q of component id (a pointer into the arena, which moves as it grows). */
static const uint8_t *cl_arrangement(const CSearch *C, int id, size_t q) {
    const Comp *K = &C->comps[id];
    return C->arena + K->off + q * K->width;
}

/* Enumerate the component of the piles ``piles`` of s: its index, or -1 (status set)
 * when the search must end. */
static long cl_enumerate(CSearch *C, const CState *s, const int *piles, int np) {
    if (C->ncomps == C->capcomps) {
        size_t cap = C->capcomps ? C->capcomps * 2 : 1024;
        Comp *n = realloc(C->comps, cap * sizeof(Comp));
        if (!n) return C->status = UNKNOWN, -1;
        C->comps = n;
        C->capcomps = cap;
    }
    long id = (long)C->ncomps;
    Comp *K = &C->comps[id];
    memset(K, 0, sizeof *K);
    int w = np;
    for (int k = 0; k < np; k++) w += s->len[piles[k]];
    K->np = (uint16_t)np;
    K->width = (uint16_t)w;
    K->off = C->used;
    uint8_t buf[CL_PACK];
    take_arrangement(s, piles, np, buf);
    K->canon = arrangement_hash(s, piles, np);
    if (!map_put(&C->memo, K->canon, (uint64_t)id) || !arena_add(C, buf, (size_t)w))
        return C->status = UNKNOWN, -1;
    K->count = 1;
    C->ncomps++;
    CState t;
    for (size_t q = 0; q < K->count; q++) {
        if ((q & 0xFFFF) == 0xFFFF && !cl_budget(C)) return -1;
        put_arrangement(&t, piles, np, cl_arrangement(C, (int)id, q));
        for (int x = 0; x < np; x++) {
            int i = piles[x], n = t.len[i], c = t.tab[i][n - 1];
            K->tops |= 1ULL << c;
            if (!cl_built(C, &t, i)) {
                if (n > 1) K->onto |= C->parents[c];
                continue;
            }
            K->targets |= C->parents[c];
            for (int y = 0; y < np; y++) {
                int j = piles[y];
                if (y == x || !((C->parents[c] >> t.tab[j][t.len[j] - 1]) & 1)) continue;
                t.len[i]--;
                t.tab[j][t.len[j]++] = (uint8_t)c;
                H2 h = arrangement_hash(&t, piles, np);
                if (!map_get(&C->memo, h)) {
                    if (C->arrangements + K->count >= C->max_arrangements)
                        return C->status = UNKNOWN, -1;
                    take_arrangement(&t, piles, np, buf);
                    if (!map_put(&C->memo, h, (uint64_t)id) || !arena_add(C, buf, (size_t)w))
                        return C->status = UNKNOWN, -1;
                    K->count++;
                    if (h2_less(h, K->canon)) K->canon = h;
                }
                t.len[j]--;
                t.tab[i][t.len[i]++] = (uint8_t)c;
            }
        }
    }
    C->arrangements += K->count;
    return id;
}

static int uf_find(int *root, int a) {
    while (root[a] != a) a = root[a] = root[root[a]];
    return a;
}

/* Place s in its class: its groups, each with its component (0 when the search must
 * end). Piles are joined while a card one of them can rearrange may go onto a top
 * another can show: the groups' arrangements combine freely. */
static int cl_identify(CSearch *C, const CState *s, Groups *G) {
    int root[13];
    for (int i = 0; i < 13; i++) root[i] = i;
    for (int i = 0; i < 13; i++) {
        if (!cl_built(C, s, i)) continue;
        uint64_t par = C->parents[s->tab[i][s->len[i] - 1]];
        for (int j = 0; j < 13; j++)
            if (j != i && s->len[j] && ((par >> s->tab[j][s->len[j] - 1]) & 1))
                root[uf_find(root, i)] = uf_find(root, j);
    }
    for (;;) {
        int size[13] = {0}, index[13];
        for (int i = 0; i < 13; i++) {
            size[uf_find(root, i)]++;
            index[i] = -1;
        }
        G->ng = 0;
        for (int i = 0; i < 13; i++) {
            int r = uf_find(root, i);
            if (size[r] < 2) {
                G->of[i] = -1;
                continue;
            }
            if (index[r] < 0) {
                index[r] = G->ng;
                G->np[G->ng++] = 0;
            }
            int g = index[r];
            G->of[i] = g;
            G->piles[g][G->np[g]++] = i;
        }
        for (int g = 0; g < G->ng; g++) {
            MapEntry *e = map_get(&C->memo, arrangement_hash(s, G->piles[g], G->np[g]));
            long id = e ? (long)e->v : cl_enumerate(C, s, G->piles[g], G->np[g]);
            if (id < 0) return 0;
            G->comp[g] = (int)id;
        }
        int joined = 0;
        for (int g = 0; g < G->ng; g++) {
            const Comp *X = &C->comps[G->comp[g]];
            int rx = uf_find(root, G->piles[g][0]);
            for (int k = 0; k < 13; k++) {
                if (G->of[k] == g || !s->len[k]) continue;
                int meet;
                if (G->of[k] >= 0) {
                    meet = (X->targets & C->comps[G->comp[G->of[k]]].tops) != 0;
                } else {
                    int t = s->tab[k][s->len[k] - 1];
                    meet = ((X->targets >> t) & 1) ||
                           (cl_built(C, s, k) && (C->parents[t] & X->tops));
                }
                if (meet && uf_find(root, k) != rx) {
                    root[uf_find(root, k)] = rx;
                    joined = 1;
                }
            }
        }
        if (!joined) return 1;
    }
}

static H2 class_key(const CSearch *C, const CState *s, const Groups *G) {
    H2 e[13];
    int n = 0;
    for (int g = 0; g < G->ng; g++) {
        H2 k = C->comps[G->comp[g]].canon;
        e[n++] = (H2){mixa(k.a ^ 0xC1A55), mixb(k.b ^ 0xC1A55)};
    }
    for (int i = 0; i < 13; i++)
        if (G->of[i] < 0) e[n++] = pile_hash(s->tab[i], s->len[i]);
    return multiset_hash(e, n, 0xC1A55);
}
