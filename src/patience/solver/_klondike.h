/* Klondike: obligations, the stock macro, returns from the foundations and the
 * children (obligation and run_length serve Lady Jane too).
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

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
    if (S->prune && ask_lost(S, tag)) return;
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
