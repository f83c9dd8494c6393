/* Baker's Dozen searched by classes of states: the search of tests/bd_classes_oracle.py
 * (its reference, with the proof) at native speed, with every group's arrangements
 * enumerated once (the states, groups and components are in _bd_groups.h).
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
 * remembered by 128-bit hashes (two 64-bit lanes), components' arrangements too.
 * A child the relaxation or the looser game (_bd_looser.h) proves lost is not kept. */

/* The safe moves home of BakersDozenAdapter.auto. */
static void cl_settle(CState *s) {
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            if (!s->len[i] || !bd_safe(s->h, s->tab[i][s->len[i] - 1])) continue;
            s->h[SUIT[s->tab[i][--s->len[i]]]]++;
            progress = 1;
        }
    }
}

/* Keep in L the child that the move of pile i's top to pile j (CL_HOME, or CL_ROOT:
 * none) makes from t, ranked ``score`` (lower: searched sooner). */
static int level_add(Level *L, const CState *t, int i, int j, int score) {
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
    p->b[CL_SCORE] = (uint8_t)(score < 0 ? 0 : score > 255 ? 255 : score);
    return 1;
}

/* L's children in the order of their scores, the first made first among equals (a
 * counting sort); L as it was when out of memory, or with fewer than two children. */
static void level_sort(Level *L) {
    if (L->n < 2) return;
    size_t at[257] = {0};
    for (size_t q = 0; q < L->n; q++) at[L->kids[q].b[CL_SCORE] + 1]++;
    for (int v = 1; v < 257; v++) at[v] += at[v - 1];
    Packed *sorted = malloc(L->n * sizeof(Packed));
    if (!sorted) return;
    for (size_t q = 0; q < L->n; q++) sorted[at[L->kids[q].b[CL_SCORE]]++] = L->kids[q];
    free(L->kids);
    L->kids = sorted;
    L->cap = L->n;
}

/* The move of pile i's top to pile j (CL_HOME: home) in u, then the safe moves home. */
static void cl_play(CState *u, int i, int j) {
    int c = u->tab[i][--u->len[i]];
    if (j == CL_HOME)
        u->h[SUIT[c]]++;
    else
        u->tab[j][u->len[j]++] = (uint8_t)c;
    cl_settle(u);
}

/* The child p, made and settled. */
static void cl_child(const Packed *p, CState *u) {
    cl_unpack(p, u);
    if (p->b[CL_FROM] != CL_ROOT) cl_play(u, p->b[CL_FROM], p->b[CL_TO]);
}

/* The move of pile i's top (home: j < 0) from t, as a child: CL_WON when it wins; else
 * kept in L when its class is new and not proved lost. */
static int cl_consider(CSearch *C, const CState *t, int i, int j, Level *L) {
    int to = j < 0 ? CL_HOME : j;
    CState u = *t;
    cl_play(&u, i, to);
    if (u.h[0] + u.h[1] + u.h[2] + u.h[3] == 52) {
        cl_pack(t, &C->win);
        C->win.b[CL_FROM] = (uint8_t)i;
        C->win.b[CL_TO] = (uint8_t)to;
        return CL_WON;
    }
    if (++C->children >= C->max_states) return C->status = UNKNOWN;
    if ((C->children & 0x3FF) == 0 && !cl_budget(C)) return C->status;
    if (bd_dead_piles((const uint8_t(*)[MAXPILE])u.tab, u.len, u.h, C->other_suit, 0)) return 0;
    if (C->looser && looser_lost(C->looser, &u)) return 0;
    Groups G;
    if (!cl_identify(C, &u, &G)) return C->status;
    H2 k = class_key(C, &u, &G);
    if (map_get(&C->seen, k)) return 0;
    int score = bd_estimate_piles((const uint8_t(*)[MAXPILE])u.tab, u.len, u.h, 0);
    if (!map_put(&C->seen, k, 1) || !level_add(L, t, i, to, score))
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
    C->looser = looser_new(C->parents, C->looser_states, C->max_arrangements);
    if (C->looser_states && !C->looser) return UNKNOWN;
    cl_settle(s);
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return WON;
    if (bd_dead_piles((const uint8_t(*)[MAXPILE])s->tab, s->len, s->h, C->other_suit, 0) ||
        (C->looser && looser_lost(C->looser, s)))
        return LOST;
    Groups G;
    if (!cl_identify(C, s, &G)) return C->status;
    if (!map_put(&C->seen, class_key(C, s, &G), 1)) return UNKNOWN;
    int depth = 1;
    if (!level_add(&C->levels[0], s, CL_ROOT, CL_ROOT, 0)) return UNKNOWN;
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
        if (!r) level_sort(&C->levels[depth - 1]);
        if (r == CL_WON) C->depth = depth;
        if (r) return r == CL_WON ? WON : r;
    }
    return LOST;
}

static void class_search_free(CSearch *C) {
    looser_free(C->looser);
    for (int d = 0; d < CL_DEPTH; d++) free(C->levels[d].kids);
    free(C->memo.e);
    free(C->seen.e);
    free(C->comps);
    free(C->arena);
}
