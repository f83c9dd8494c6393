/* Klondike: obligations, the stock macro, returns from the foundations and the
 * children (obligation and run_length serve Lady Jane too).
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* Whether a stock or waste card of rank ``r`` that can go home may go at once, with
 * one card a deal: every card two ranks below it is home (KlondikeAdapter.auto). */
static int below_home(int r, const int *h) {
    return h[0] >= r - 2 && h[1] >= r - 2 && h[2] >= r - 2 && h[3] >= r - 2;
}

static int obligation(const State *s, int src, int count) {
    int rest = s->len[src] - count;
    if (rest == 0) return EMPTIED;
    if (rest <= s->down[src]) return NOTAG;
    int parent = s->tab[src][rest - 1], base = s->tab[src][rest];
    if (s->rel[parent] == s->rel[base] + 1 && RED[parent] != RED[base]) return parent;
    return NOTAG;
}

/* Whether the top card of pile ``i`` would come straight back from its foundation:
 * it lies face up on the card it is built on, or is a King alone in its pile
 * (klondike_returns.comes_back). */
static int comes_back(const State *s, int i) {
    int n = s->len[i], c = s->tab[i][n - 1];
    if (n == 1) return !s->down[i] && s->rel[c] == 13;
    if (n - 2 < s->down[i]) return 0;
    int below = s->tab[i][n - 2];
    return s->rel[below] == s->rel[c] + 1 && RED[below] != RED[c];
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

/* The cards dealing brings to the waste's top, in the order it brings them, each with
 * the deals and the redeal count it takes, for the stock cycle as it is: the last ones
 * found are kept (Search.worder), since they depend only on the cycle's length, the
 * pointer and the redeals, and a node asks for them again for each return it builds
 * on. */
static const WasteOrder *waste_order(Search *S) {
    State *s = &S->st;
    WasteOrder *w = &S->worder;
    int total = s->nseq, ptr = s->ptr, r0 = s->redeals;
    if (w->valid && w->total == total && w->ptr == ptr && w->r0 == r0) return w;
    w->valid = 1;
    w->total = total;
    w->ptr = ptr;
    w->r0 = r0;
    uint8_t seen[52];
    memset(seen, 0, sizeof seen);
    int norder = 0;
    if (ptr) {
        seen[ptr - 1] = 1;
        w->rdeals[ptr - 1] = 0;
        w->rred[ptr - 1] = r0;
        w->order[norder++] = (uint8_t)(ptr - 1);
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
            w->rdeals[q - 1] = k;
            w->rred[q - 1] = r;
            w->order[norder++] = (uint8_t)(q - 1);
        }
    }
    w->n = norder;
    return w;
}

/* The waste moves (KlondikeAdapter._waste_moves): every card dealing brings to the
 * waste top, each with the moves it has. Appended as children with ``prefix``;
 * with ``only`` >= 0 just those onto that pile; ``to`` >= 0: just onto pile ``to``,
 * with a score of 6 (compound returns). */
static void waste_moves(Search *S, int only, const Prim *prefix, int npre, int to) {
    State *s = &S->st;
    int total = s->nseq;
    if (!total) return;
    int r0 = s->redeals;
    const WasteOrder *w = waste_order(S);
    int norder = w->n;
    const uint8_t *order = w->order;
    const int *rdeals = w->rdeals, *rred = w->rred;
    /* The piles each card fits on, a bit a pile: the two cards of the other colour a
     * rank below each top, the Kings on the first empty pile (of those allowed). */
    uint8_t fits[52];
    memset(fits, 0, sizeof fits);
    int empty_done = 0;
    for (int j = 0; j < 7; j++) {
        if ((only >= 0 && j != only) || (to >= 0 && j != to)) continue;
        if (!s->len[j]) {
            if (empty_done) continue;
            empty_done = 1;
            for (int u = 0; u < 4; u++) fits[s->cof[u][13]] |= (uint8_t)(1u << j);
            continue;
        }
        int top = s->tab[j][s->len[j] - 1], r = s->rel[top];
        if (r == 1) continue;
        fits[s->cof[RED[top] ? 0 : 1][r - 1]] |= (uint8_t)(1u << j);
        fits[s->cof[RED[top] ? 2 : 3][r - 1]] |= (uint8_t)(1u << j);
    }
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
        for (unsigned m = fits[c]; m; m &= m - 1) {
            int j = __builtin_ctz(m);
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

/* klondike_returns.Returns: the compound moves that bring a card home back into
 * play (goals ``g``, the last first: RESTORE puts a card home on top of a pile, PLACE
 * returns a foundation's top card onto a pile top, restoring a parent first if need
 * be) and then build on it (``builds_onto``). ``hit``: a return went onto pile
 * ``only`` (an obligation's pile). */
enum { RESTORE = 0, PLACE = 1 };
typedef struct {
    uint8_t kind, card;
} Goal;

static int pending(const Goal *g, int ng, int card) {
    for (int k = 0; k < ng; k++)
        if (g[k].card == card) return 1;
    return 0;
}

/* Klondike: the cards of the stock cycle that fit onto tableau card d (of ``rank``,
 * on pile j), when one of them is there (``in_stock``). */
static void kl_builds_from_outside(Search *S, Prim *prefix, int npre, int j, int d, int rank,
                                   int in_stock) {
    (void)d, (void)rank;
    if (in_stock) waste_moves(S, -1, prefix, npre, j);
}

/* Lady Jane: the top cards of the reserves, the waste, the last stock card that fit onto
 * tableau card d (of ``rank``, on pile j). */
static void lj_builds_from_outside(Search *S, Prim *prefix, int npre, int j, int d, int rank,
                                   int in_stock) {
    State *s = &S->st;
    (void)in_stock;
    for (int a = 0; a < 9; a++) {
        int c = a == 8 ? (s->nstock == 1 ? s->stock[0] : -1)
                       : (s->nres[a] ? s->res[a][s->nres[a] - 1] : -1);
        if (c < 0 || s->rel[c] != rank - 1 || RED[c] == RED[d]) continue;
        Child *ch = new_kid(S);
        if (!ch) return;
        memcpy(ch->prims, prefix, sizeof(Prim) * (size_t)npre);
        Prim m = {P_XT, (uint8_t)a, (uint8_t)j, 1, 0, 0};
        ch->prims[npre] = m;
        ch->nprims = npre + 1;
        ch->score = 60;
    }
}

static void builds_onto(Search *S, Prim *prefix, int npre, int only, int hit) {
    State *s = &S->st;
    if (only >= 0 && !hit) return;
    int j = prefix[npre - 1].b, d = s->tab[j][s->len[j] - 1], rank = s->rel[d];
    int in_stock = 0;
    for (int u = 0; u < 2; u++) {
        int x = s->cof[RED[d] ? 2 * u : 2 * u + 1][rank - 1];
        int found = 0;
        for (int i = 0; i < 7 && !found; i++) {
            if (i == j) continue;
            for (int k = s->down[i]; k < s->len[i]; k++) {
                if (s->tab[i][k] != x) continue;
                found = 1;
                int count = s->len[i] - k;
                if (count <= run_length(s, i)) {
                    Child *ch = new_kid(S);
                    if (!ch) return;
                    memcpy(ch->prims, prefix, sizeof(Prim) * (size_t)npre);
                    Prim m = {P_TT, (uint8_t)i, (uint8_t)j, (uint8_t)count, 0, 0};
                    ch->prims[npre] = m;
                    ch->nprims = npre + 1;
                    ch->score = S->rules->build_score;
                    ch->tag = S->prune ? (uint8_t)obligation(s, i, count) : NOTAG;
                }
                break;
            }
        }
        if (!found)
            for (int k = 0; k < s->nseq; k++)
                if (s->seq[k] == x) in_stock = 1;
    }
    S->rules->builds_from_outside(S, prefix, npre, j, d, rank, in_stock);
}

static void restorations(Search *S, const Goal *goals, int ng, Prim *prefix, int npre, int only,
                         int hit) {
    State *s = &S->st;
    if (S->oom) return;
    if (!ng) {
        builds_onto(S, prefix, npre, only, hit);
        return;
    }
    Goal g[56];
    memcpy(g, goals, sizeof(Goal) * (size_t)ng);
    int c = g[ng - 1].card, su = SUIT[c], r = s->rel[c];
    if (g[ng - 1].kind == RESTORE) {
        if (s->h[su] > r) { /* the cards above it on its foundation go first */
            int b = s->cof[su][s->h[su]];
            if (pending(g, ng, b) || ng >= 55) return;
            g[ng] = (Goal){PLACE, (uint8_t)b};
            restorations(S, g, ng + 1, prefix, npre, only, hit);
        } else if (s->h[su] == r) {
            g[ng - 1].kind = PLACE;
            restorations(S, g, ng, prefix, npre, only, hit);
        }
        return;
    }
    if (s->h[su] != r) return;
    int slots[2], nslots = 0, empty = -1;
    if (r == 13) {
        for (int j = 0; j < 7 && empty < 0; j++)
            if (!s->len[j]) empty = j;
        if (empty >= 0) slots[nslots++] = empty;
    } else {
        int parents[2] = {s->pa[c], s->pb[c]};
        for (int u = 0; u < 2; u++) {
            int p = parents[u], at = -1;
            for (int j = 0; j < 7; j++)
                if (s->len[j] && s->tab[j][s->len[j] - 1] == p) at = j;
            if (at >= 0) {
                slots[nslots++] = at;
            } else if (s->h[SUIT[p]] >= s->rel[p] && !pending(g, ng, p) && ng < 55) {
                g[ng] = (Goal){RESTORE, (uint8_t)p};
                restorations(S, g, ng + 1, prefix, npre, only, hit);
            }
        }
    }
    for (int k = 0; k < nslots; k++) {
        if (npre >= RETURN_DEPTH) {
            S->incomplete = 1;
            return;
        }
        int j = slots[k];
        Prim m = {P_FT, (uint8_t)su, (uint8_t)j, 1, 0, 0};
        size_t mark = S->ndone;
        if (!apply(S, m)) return;
        prefix[npre] = m;
        restorations(S, g, ng - 1, prefix, npre + 1, only, hit || j == only);
        undo_to(S, mark);
    }
}

/* The compound moves (klondike_returns.Returns.children): for each card home that a card
 * in ``avail`` (a bit a card, by its number) could be built on, the blocks of returns that bring it back, each
 * with the builds on it. */
static void returns_children(Search *S, uint64_t avail, int only) {
    State *s = &S->st;
    for (int su = 0; su < 4; su++) {
        for (int r = s->h[su]; r >= 2; r--) {
            int t = s->cof[su][r];
            int x1 = s->cof[RED[t] ? 0 : 1][r - 1], x2 = s->cof[RED[t] ? 2 : 3][r - 1];
            if (!((avail >> x1 | avail >> x2) & 1)) continue;
            Goal g = {RESTORE, (uint8_t)t};
            Prim prefix[MAXP];
            restorations(S, &g, 1, prefix, 0, only, 0);
            if (S->oom) return;
        }
    }
}

/* The pile obligation ``tag`` is about: the one whose top is the card, or the first
 * empty one (EMPTIED); -1 for none (klondike_returns.only_pile). */
static int only_pile(const State *s, int tag) {
    if (tag == NOTAG) return -1;
    for (int j = 0; j < 7; j++)
        if (s->len[j] ? s->tab[j][s->len[j] - 1] == tag : tag == EMPTIED) return j;
    return -1;
}

/* KlondikeAdapter.children: appended to S->kids, best first. */
static void children(Search *S, int tag) {
    State *s = &S->st;
    size_t base = S->nkids;
    if (S->prune && ask_lost(S, tag)) return;
    int only = only_pile(s, tag);
    /* Where each movable card is: pile and cards from it to the top. */
    int lpile[52], lcount[52];
    uint64_t avail = 0; /* the cards with a pile in lpile, then the stock cycle's too */
    for (int c = 0; c < 52; c++) lpile[c] = -1;
    for (int i = 0; i < 7; i++) {
        int n = s->len[i];
        if (!n) continue;
        int k = n - 1, c = s->tab[i][k];
        lpile[c] = i;
        lcount[c] = 1;
        avail |= 1ULL << c;
        while (k > s->down[i]) {
            int below = s->tab[i][k - 1];
            if (s->rel[below] != s->rel[c] + 1 || RED[below] == RED[c]) break;
            k--;
            c = below;
            lpile[c] = i;
            lcount[c] = n - k;
            avail |= 1ULL << c;
        }
    }
    int empty_done = 0;
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
                if (S->canon && t < 52) t += SWITCH; /* the run left a parent for its twin */
                add_plain(S, m, score, order, t);
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
    /* Compound moves: a card home comes back (with what must come back first) to be
     * built on, by a tableau run or a waste card. */
    for (int k = 0; k < s->nseq; k++) avail |= 1ULL << s->seq[k];
    returns_children(S, avail, only);
    sort_kids(S, base);
}

/* LadyJaneAdapter.children: the engine's legal moves in its order (sources stock,
 * waste, reserves, foundations, tableau; foundations before tableau; deal last),
 * less those that reach the same canonical state as an earlier one (a second empty
 * foundation or empty pile, a whole pile to an empty pile), those that miss the
 * obligation ``tag`` (alternating.honours), ranked as there. */
