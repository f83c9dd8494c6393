/* Lady Jane: its safe moves from every source and its children.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

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
            if (s->h[SUIT[c]] == r - 1 &&
                (is_safe(c, r, s->h) || (S->prune && comes_back(s, i)))) {
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
            int go = S->prune ? below_home(r, s->h) : is_safe(c, r, s->h);
            if (s->h[SUIT[c]] == r - 1 && go) {
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
    if (S->prune && ask_lost(S, tag)) return;
    if (s->nstock == 1) lj_single(S, P_XT, P_XF, 8, s->stock[0], 1, 25, tag);
    if (s->nres[7]) lj_single(S, P_XT, P_XF, 7, s->res[7][s->nres[7] - 1], 1, 25, tag);
    for (int i = 0; i < 7; i++)
        if (s->nres[i]) lj_single(S, P_XT, P_XF, i, s->res[i][s->nres[i] - 1], 1, 20, tag);
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
            int t = S->prune ? obligation(s, i, count) : NOTAG;
            if (S->canon && t < 52) t += SWITCH; /* the run left a parent for its twin */
            add_plain(S, m, score, 0, t);
        }
    }
    /* Returns from the foundations, in blocks that bring back a card to build on
     * (klondike_returns), from the tableau or the top of a reserve, the waste or the
     * last stock card. */
    uint64_t avail = 0;
    for (int i = 0; i < 7; i++) {
        int n = s->len[i];
        for (int k = n - run_length(s, i); k < n; k++) avail |= 1ULL << s->tab[i][k];
    }
    for (int a = 0; a < 8; a++)
        if (s->nres[a]) avail |= 1ULL << s->res[a][s->nres[a] - 1];
    if (s->nstock == 1) avail |= 1ULL << s->stock[0];
    returns_children(S, avail, only_pile(s, tag));
    if (tag == NOTAG && (s->nstock > 7 || s->nstock == 2)) {
        Prim m = {P_DEAL, 0, 0, 1, 0, 0};
        add_plain(S, m, 40, 0, NOTAG);
    }
    sort_kids(S, base);
}
