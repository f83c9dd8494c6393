/* Baker's Dozen searched by classes of states: bench/groups.py's search at native
 * speed, with every group's arrangements enumerated once (the proof is in
 * bakers_dozen_classes.py).
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files).
 *
 * A card lying on a card it may be built on can move onto another such card at a
 * pile's top, and back (a rearrangement); the states these moves connect make a
 * class, all won or all lost. The piles they touch split into groups that never
 * reach each other; a class is the product of its groups' arrangements. Piles are
 * interchangeable (an empty pile stays empty), so a group's arrangements depend only
 * on the multiset of its piles: a *component*, enumerated once and remembered with
 * each of its arrangements (``memo``), so a state met later is placed in its class
 * by lookups. A class's key is the multiset of its components and its other piles.
 * The search meets each class once and makes from it every other move (a card home,
 * a card not lying on a card it may be built on moved onto a top, never a pile's
 * last card) in every arrangement of the groups the move touches. Classes are
 * remembered by 128-bit hashes (two 64-bit lanes), components' arrangements too. */

typedef struct {
    uint8_t tab[13][MAXPILE];
    int len[13], h[4];
} CState;

#define CL_PACK 68 /* a state packed: each pile's cards and 0xFF after it (<= 65) */
#define CL_FROM 66 /* a child as packed: the state it comes from, and at CL_FROM and */
#define CL_TO 67   /* CL_TO the pile its move takes a card from and the pile it goes to */
#define CL_HOME 255 /* (CL_HOME: the foundation; CL_ROOT: no move, the search's start) */
#define CL_ROOT 254

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
        put_arrangement(&t, piles, np, C->arena + K->off + q * (size_t)w);
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

/* The safe moves home of BakersDozenAdapter.auto (bd_auto's rule). */
static void cl_settle(CState *s) {
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            if (!s->len[i]) continue;
            int low = s->h[0];
            for (int su = 1; su < 4; su++)
                if (s->h[su] < low) low = s->h[su];
            int c = s->tab[i][s->len[i] - 1], r = RANK[c], su = SUIT[c];
            if (s->h[su] != r - 1 || (low < r - 1 && r > 1)) continue;
            s->len[i]--;
            s->h[su]++;
            progress = 1;
        }
    }
}

/* Keep in L the child that the move of pile i's top to pile j (CL_HOME, or CL_ROOT:
 * none) makes from t. */
static int level_add(Level *L, const CState *t, int i, int j) {
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 16;
        Packed *k = realloc(L->kids, cap * sizeof(Packed));
        if (!k) return 0;
        L->kids = k;
        L->cap = cap;
    }
    Packed *p = &L->kids[L->n++];
    cl_pack(t, p);
    p->b[CL_FROM] = (uint8_t)i;
    p->b[CL_TO] = (uint8_t)j;
    return 1;
}

/* The child p, made and settled. */
static void cl_child(const Packed *p, CState *u) {
    cl_unpack(p, u);
    int i = p->b[CL_FROM], j = p->b[CL_TO];
    if (i == CL_ROOT) return;
    int c = u->tab[i][--u->len[i]];
    if (j == CL_HOME)
        u->h[SUIT[c]]++;
    else
        u->tab[j][u->len[j]++] = (uint8_t)c;
    cl_settle(u);
}

/* The move of pile i's top (home: j < 0) from t, as a child: CL_WON when it wins; else
 * kept in L when its class is new and not proved lost. */
static int cl_consider(CSearch *C, const CState *t, int i, int j, Level *L) {
    Packed p;
    cl_pack(t, &p);
    p.b[CL_FROM] = (uint8_t)i;
    p.b[CL_TO] = (uint8_t)(j < 0 ? CL_HOME : j);
    CState u;
    cl_child(&p, &u);
    if (u.h[0] + u.h[1] + u.h[2] + u.h[3] == 52) {
        C->win = p;
        return CL_WON;
    }
    if (++C->children >= C->max_states) return C->status = UNKNOWN;
    if ((C->children & 0x3FF) == 0 && !cl_budget(C)) return C->status;
    if (bd_dead_piles((const uint8_t(*)[MAXPILE])u.tab, u.len, u.h, C->other_suit, 0)) return 0;
    Groups G;
    if (!cl_identify(C, &u, &G)) return C->status;
    H2 k = class_key(C, &u, &G);
    if (map_get(&C->seen, k)) return 0;
    if (!map_put(&C->seen, k, 1) || !level_add(L, t, p.b[CL_FROM], p.b[CL_TO]))
        return C->status = UNKNOWN;
    return 0;
}

/* Every other move of t whose source and target groups (-1: no group, -2: home) are
 * a and b in either order, that is: for mode 0, both -1; for mode 1, group a with
 * -1, -2 or a; for mode 2, groups a and b. */
static int cl_moves(CSearch *C, const CState *t, const Groups *G, int mode, int a, int b,
                    Level *L) {
    for (int i = 0; i < 13; i++) {
        int n = t->len[i];
        if (!n) continue;
        int c = t->tab[i][n - 1], gi = G->of[i], r;
        if (t->h[SUIT[c]] == RANK[c] - 1 && ((mode == 0 && gi == -1) || (mode == 1 && gi == a)))
            if ((r = cl_consider(C, t, i, -1, L))) return r;
        if (n < 2 || cl_built(C, t, i)) continue;
        uint64_t par = C->parents[c];
        for (int j = 0; j < 13; j++) {
            if (j == i || !t->len[j] || !((par >> t->tab[j][t->len[j] - 1]) & 1)) continue;
            int gj = G->of[j], want;
            if (mode == 0)
                want = gi == -1 && gj == -1;
            else if (mode == 1)
                want = (gi == a && (gj == -1 || gj == a)) || (gi == -1 && gj == a);
            else
                want = (gi == a && gj == b) || (gi == b && gj == a);
            if (want && (r = cl_consider(C, t, i, j, L))) return r;
        }
    }
    return 0;
}

/* Arrangement q of component id (a pointer into the arena, which moves as it grows). */
static const uint8_t *cl_arrangement(const CSearch *C, int id, size_t q) {
    const Comp *K = &C->comps[id];
    return C->arena + K->off + q * K->width;
}

/* Every child of the class of s (groups G) into L: CL_WON when one wins, the status
 * when the search must end, else 0. */
static int cl_children(CSearch *C, const CState *s, const Groups *G, Level *L) {
    int r = cl_moves(C, s, G, 0, 0, 0, L);
    if (r) return r;
    CState t = *s;
    for (int g = 0; g < G->ng; g++) {
        int x = G->comp[g];
        for (size_t p = 0, n = C->comps[x].count; p < n; p++) {
            put_arrangement(&t, G->piles[g], G->np[g], cl_arrangement(C, x, p));
            if ((r = cl_moves(C, &t, G, 1, g, 0, L))) return r;
        }
        t = *s;
    }
    for (int g = 0; g < G->ng; g++)
        for (int h = g + 1; h < G->ng; h++) {
            int x = G->comp[g], y = G->comp[h];
            const Comp *X = &C->comps[x], *Y = &C->comps[y];
            if (!(X->onto & Y->tops) && !(Y->onto & X->tops)) continue;
            for (size_t p = 0, nx = X->count, ny = Y->count; p < nx; p++) {
                put_arrangement(&t, G->piles[g], G->np[g], cl_arrangement(C, x, p));
                for (size_t q = 0; q < ny; q++) {
                    put_arrangement(&t, G->piles[h], G->np[h], cl_arrangement(C, y, q));
                    if ((r = cl_moves(C, &t, G, 2, g, h, L))) return r;
                }
            }
            t = *s;
        }
    return 0;
}

/* Search the classes from s: WON, LOST, UNKNOWN (out of time, classes or memory) or
 * STOP (the caller's cancel, or Ctrl-C). */
static int class_search(CSearch *C, CState *s) {
    for (int c = 0; c < 52; c++) {
        C->parents[c] = 0;
        for (int q = 0; q < 52; q++)
            if (bd_parent_of(C->other_suit, c, q)) C->parents[c] |= 1ULL << q;
    }
    if (!map_init(&C->memo, (size_t)1 << 16) || !map_init(&C->seen, (size_t)1 << 16))
        return UNKNOWN;
    cl_settle(s);
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return WON;
    if (bd_dead_piles((const uint8_t(*)[MAXPILE])s->tab, s->len, s->h, C->other_suit, 0))
        return LOST;
    Groups G;
    if (!cl_identify(C, s, &G)) return C->status;
    if (!map_put(&C->seen, class_key(C, s, &G), 1)) return UNKNOWN;
    int depth = 1;
    if (!level_add(&C->levels[0], s, CL_ROOT, CL_ROOT)) return UNKNOWN;
    while (depth) {
        Level *L = &C->levels[depth - 1];
        if (L->next == L->n) {
            free(L->kids);
            memset(L, 0, sizeof *L);
            depth--;
            continue;
        }
        CState u;
        cl_child(&L->kids[L->next++], &u);
        if (!cl_identify(C, &u, &G)) return C->status;
        C->classes++;
        if (depth == CL_DEPTH) return UNKNOWN;
        int r = cl_children(C, &u, &G, &C->levels[depth++]);
        if (r == CL_WON) C->depth = depth;
        if (r) return r == CL_WON ? WON : r;
    }
    return LOST;
}

static void class_search_free(CSearch *C) {
    for (int d = 0; d < CL_DEPTH; d++) free(C->levels[d].kids);
    free(C->memo.e);
    free(C->seen.e);
    free(C->comps);
    free(C->arena);
}
