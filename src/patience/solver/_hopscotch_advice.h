/* Hopscotch's fair advice (``fair/hopscotch_rollout.py``'s ``rollout``) at native speed: the whole
 * decision loop of a game in C, for the advice's own chance (its playouts from a position
 * over stock orders of the unseen ranks) and for benches that play thousands of games.
 *
 * A decision is ``rollout``'s: the waste card home when it goes (``take``, then
 * ``settle``); otherwise each reserve it may go on (``candidates``: ``label_on`` on each
 * reserve, one empty reserve for them all; the policy's own choice first, the others in
 * reserve order) is scored by ``inner`` playouts of the labels policy over the same stock
 * orders (``p_order`` from the decision's seed: the caller's seed plus the cards left in
 * the stock, as ``labels_move`` seeds it), and the most won is taken, the first on a tie.
 * One thing differs in the work, none in the choice: a candidate's playouts stop once it
 * can no longer win more than the best so far (each playout's order depends on its index
 * alone, so the counts that decide are the same). The moves are those of the Python
 * ``rollout`` loop (tests/test_hopscotch_advice.py, move for move). */

enum { A_LOST = -1 };

/* The inner playouts of candidate state ``c`` (its playouts from index 0), stopped once
 * ``won`` plus the playouts left cannot pass ``best`` (-1: none yet). */
static int a_score(const PState *c, const int left[14], int inner, uint64_t seed, int search,
                   int best) {
    if (!p_acyclic(c)) return 0;
    uint8_t st[PNC + 4];
    int won = 0;
    p_search = search;
    for (int i = 0; i < inner; i++) {
        if (best >= 0 && won + (inner - i) <= best) break;
        int n = p_order(seed, i, left, st);
        won += p_playout(c, 0, 0, st, n, left);
    }
    p_search = PSEARCH;
    return won;
}

/* ``rollout``: where the card of rank r goes from ``s`` (settled; ``left`` the cards
 * unseen, r no longer among them); ``s`` becomes the state after. The move: 1 + q the
 * card home to foundation q, 5 + j onto reserve j; A_LOST when only a cycle is left
 * (the policy's fallback: a lost game). */
static int a_decide(PState *s, int r, const int left[14], int inner, uint64_t seed, int search) {
    PState home = *s;
    int q = p_take(&home, r, -1);
    if (q >= 0) {
        home.cnt[q]++;
        p_settle(&home);
        *s = home;
        return 1 + q;
    }
    PState cand[4];
    int cj[4], cost[4], nf = 0, empty = 0;
    p_search = PSEARCH;
    for (int j = 0; j < 4; j++) {
        if (!s->n[j]) {
            if (empty) continue;
            empty = 1;
        }
        cand[nf] = *s;
        int c;
        if (p_label_on(&cand[nf], r, j, left, &c)) {
            cj[nf] = j;
            cost[nf++] = c;
        }
    }
    if (!nf) return A_LOST;
    int own = -1;
    for (int a = 0; a < nf; a++) /* the first of the cheapest options */
        if (cost[a] >= 0 && (own < 0 || cost[a] < cost[own])) own = a;
    if (own < 0) /* no option: the rescue's order, the smallest pile first */
        for (int a = 0; a < nf; a++)
            if (own < 0 || s->n[cj[a]] < s->n[cj[own]]) own = a;
    int pick = own;
    if (nf > 1) {
        int best = a_score(&cand[own], left, inner, seed, search, -1);
        for (int a = 0; a < nf; a++) {
            if (a == own) continue;
            int won = a_score(&cand[a], left, inner, seed, search, best);
            if (won > best) {
                best = won;
                pick = a;
            }
        }
    }
    *s = cand[pick];
    return 5 + cj[pick];
}

/* The reserve tops of ``s`` home, each from the reserve the last card home came from
 * (``last``, then wherever one went: the game's ``settle_move``). */
static void a_settle(PState *s, int last) {
    for (int moved = 1; moved;) {
        moved = 0;
        for (int a = 0; a < 4 && !moved; a++)
            if (p_pop(s, (last + a) % 4)) {
                last = (last + a) % 4;
                moved = 1;
            }
    }
}

/* The advice from ``s`` (settled), the waste card of rank ``waste`` (0: none) and the
 * ranks of ``stock`` from its end (``*t`` of them left, ``left`` the cards unseen, both
 * updated), each card decided by ``a_decide``, until ``upto`` cards are left in the
 * stock with a card just turned (its rank returned, ``s`` the state before it is
 * decided; -1: play to the end). 0: the game ended (``*lost``: at a card only a cycle
 * is left for). ``moves`` (when not NULL) gets each card's move, ``*nm`` their count. */
static int a_play(PState *s, int waste, const uint8_t *stock, int *t, int left[14], int inner,
                  uint64_t seed, int search, int upto, uint8_t *moves, int *nm, int *lost) {
    int r = waste;
    *lost = 0;
    while (r || *t > 0) {
        if (!r) {
            r = stock[--*t];
            left[r]--;
        }
        if (*t == upto) return r;
        int m = a_decide(s, r, left, inner, seed + (uint64_t)*t, search);
        if (m == A_LOST) {
            *lost = 1;
            return 0;
        }
        if (moves) moves[*nm] = (uint8_t)m;
        ++*nm;
        r = 0;
    }
    return 0;
}

/* One game of the advice from ``s0`` (copied): the reserve tops home first (``a_settle``
 * from ``last``), then the waste card (0: none) and the ranks of ``stock`` from its end.
 * Won or not; ``moves`` (when not NULL, room for ``nstock`` + 1) gets each card's move,
 * ``*nmoves`` their count. Stops, lost, at the first card only a cycle is left for. */
static int a_game(const PState *s0, int last, int waste, const uint8_t *stock, int nstock,
                  const int left0[14], int inner, uint64_t seed, int search, uint8_t *moves,
                  int *nmoves) {
    PState s = *s0;
    int left[14], nm = 0, lost, t = nstock;
    memcpy(left, left0, sizeof left);
    a_settle(&s, last);
    a_play(&s, waste, stock, &t, left, inner, seed, search, -1, moves, &nm, &lost);
    if (nmoves) *nmoves = nm;
    return !lost && s.cnt[0] + s.cnt[1] + s.cnt[2] + s.cnt[3] == 52;
}

/* Playouts ``first`` .. ``first + count - 1`` of the advice from ``s`` over stock orders of
 * the unseen ranks drawn from ``seed`` (``p_order``): the games won. */
static long a_playouts(const PState *s, int last, int waste, const int left[14], int first,
                       int count, uint64_t seed, int inner, uint64_t inner_seed, int search) {
    uint8_t st[PNC + 4];
    long won = 0;
    for (int i = first; i < first + count; i++) {
        int n = p_order(seed, i, left, st);
        won += a_game(s, last, waste, st, n, left, inner, inner_seed, search, NULL, NULL);
    }
    return won;
}
