/* The canonical keys of a state, the memo of the relaxed games' verdicts (``lost``),
 * the safe-move test and the ranking of children, shared by the three games.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* The stock cycle into both lanes of a key, afresh (State.za and zb keep it). */
__attribute__((unused)) static void add_seq(const State *s, uint64_t *a, uint64_t *b) {
    for (int k = 0; k < s->nseq; k++) {
        *a += ZA[s->seq[k]];
        *b += ZB[s->seq[k]];
    }
}

/* A pile of ``n`` cards, ``down`` of them face down, into both lanes of a key (a sum
 * over piles: they are compared as a set). */
static void add_cards(const uint8_t *cards, int n, int down, uint64_t *a, uint64_t *b) {
    uint64_t x = DA[down] + (uint64_t)n * 0x9E3779B97F4A7C15ULL;
    uint64_t y = DB[down] + (uint64_t)n * 0xD6E8FEB86659FD93ULL;
    for (int k = 0; k < n; k++) {
        x += RA[k][cards[k]];
        y += RB[k][cards[k]];
    }
    *a += mixa(x);
    *b += mixb(y);
}

/* Pile ``i``'s first ``n`` cards and its face-down count. */
__attribute__((unused)) static void add_pile(const State *s, int i, int n, uint64_t *a, uint64_t *b) {
    add_cards(s->tab[i], n, s->down[i], a, b);
}

/* The parents that the face-up cards of a pile of ``n`` cards (``down`` face down)
 * would lie on in their arrangement (canon_key), a bit per card: State.twin, and canon_key's
 * bits, as a walk finds them (CHECK_KEYS builds compare). */
__attribute__((unused)) static uint64_t twins_wanted(const State *s, const uint8_t *pile, int n,
                                                     int down) {
    uint64_t w = 0;
    for (int k = down + 1; k < n; k++) {
        int o = twin_of(s, pile[k], pile[k - 1]);
        if (o >= 0) w |= 1ULL << o;
    }
    return w;
}

/* A pile's part of a key from its sums (add_cards' value, without its walk): ``n``
 * cards, ``down`` of them face down, whose RA and RB terms sum to ``x`` and ``y``. */
static inline void pile_part(uint64_t x, uint64_t y, int n, int down, uint64_t *a, uint64_t *b) {
    *a = mixa(DA[down] + (uint64_t)n * 0x9E3779B97F4A7C15ULL + x);
    *b = mixb(DB[down] + (uint64_t)n * 0xD6E8FEB86659FD93ULL + y);
}

/* Bring the piles' parts of the keys up to date (``State.dirty``): the whole pile,
 * and its face-down cards with its lowest face-up card (the relaxed game's memo). */
static void refresh_piles(State *s) {
    for (int i = 0; i < s->npiles; i++) {
        if (s->dirty >> i & 1) {
            int n = s->len[i], d = s->down[i];
            pile_part(s->sa[i], s->sb[i], n, d, &s->pha[i], &s->phb[i]);
            if (n) {
                int c = s->tab[i][d];
                pile_part(s->fa[i] + RA[d][c], s->fb[i] + RB[d][c], d + 1, d, &s->lpa[i],
                          &s->lpb[i]);
            } else {
                pile_part(0, 0, 0, d, &s->lpa[i], &s->lpb[i]);
            }
        }
#ifdef CHECK_KEYS
        if (s->twin[i] != twins_wanted(s, s->tab[i], s->len[i], s->down[i])) abort();
        uint64_t ca = 0, cb = 0, la = 0, lb = 0, za = 0, zb = 0;
        add_pile(s, i, s->len[i], &ca, &cb);
        add_pile(s, i, s->len[i] ? s->down[i] + 1 : 0, &la, &lb);
        if (ca != s->pha[i] || cb != s->phb[i] || la != s->lpa[i] || lb != s->lpb[i]) abort();
        add_seq(s, &za, &zb);
        if (za != s->za || zb != s->zb) abort();
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

/* Klondike and Baker's Dozen have no reserves: nothing of them in a key. */
static void no_reserves_key(const State *s, int sorted, uint64_t *pa, uint64_t *pb) {
    (void)s, (void)sorted, (void)pa, (void)pb;
}

/* Whether the relaxed game Relax is lost, remembered by what it reads (LostMemo). */
static int relaxed_lost_memo(Search *S) {
    State *s = &S->st;
    int left = S->limit < 0 ? 255 : S->limit - s->redeals;
    uint64_t a = mixa(heights_code(s) ^ (uint64_t)s->ptr << 20 ^ (uint64_t)left << 28);
    uint64_t b = mixb(heights_code(s) + ((uint64_t)s->ptr << 24) + ((uint64_t)left << 40));
    a += s->za;
    b += s->zb;
    refresh_piles(s);
    for (int i = 0; i < 7; i++) {
        a += s->lpa[i];
        b += s->lpb[i];
    }
    S->rules->reserves_key(s, 0, &a, &b);
    for (int i = 0; i < 7; i++) /* relaxed.loose */
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
 * depends on the search, so one state in 16 (and the first 16) is a probe that runs
 * Relax, then Ordered if Relax found no loss, counting lately (a window halved every
 * 4,096 probes) the losses each proves; the other states run
 * - Relax alone while Ordered finds a loss Relax missed on fewer than 1% of the
 *   probes (draw-3 deal 244: not one in its first 600,000 runs; lost in 15 s, not
 *   over 30 s);
 * - Relax, then Ordered, while Relax proves over a quarter of the probes lost (it
 *   then saves more runs of Ordered than it costs);
 * - Ordered alone otherwise (unlimited deal 101: lost in 12 s, not 15 s).
 * A state left unpruned is only searched: the verdicts stay proven. (The Python
 * search, the reference the tests check the cuts against, always runs both.)
 * The first probes were 256: each discrepancy pass is a search of its own, and most
 * passes of a deal won at once are a few hundred states, so nearly every state of them
 * ran both games (draw-3 deals 50001..50100: median 5.8 ms to 4.8, the same verdicts
 * and mean). */
static int lost(Search *S) {
    if (S->probes < 16 || S->states % 16 == 0) {
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

/* Whether the state, reached under obligation ``tag``, is lost by lost(), asked only
 * where it pays. A state reached under an obligation (a tableau move that turned no
 * card, a return from the foundations, a card dealt onto the tableau with unlimited
 * redeals) differs from its parent only in where some face-up cards lie, and the
 * relaxed games seldom lose it when they did not lose the parent: in the proof of
 * draw-1 unlimited deal 318, 8,000 of 2.4 million such states, and not asking about
 * them halved its time. But in deal 3343's they lost 4.1 million of 15.7 million
 * states just after a card was dealt onto the tableau, and such a state, not asked,
 * has children under an obligation again (a card dealt onto that card): not asking
 * about any of them more than doubled the states. So a state under an obligation is
 * asked only when its parent was not (dfs() keeps that in S->parent_unasked): two in
 * a row are never both left. 3343 then took 40 instead of 36 million states in about
 * the same time, 318 5.3 s instead of 8.3, proofs of every mode measured 2 to 38% less
 * time (docs/solver-log.md, session 20). A state not asked is only searched, its children
 * asked in their turn: the verdicts stay proven. */
static int ask_lost(Search *S, int tag) {
    S->unasked = tag != NOTAG && !S->parent_unasked;
    return !S->unasked && lost(S);
}

/* KlondikeAdapter.cost: what of the redeals used and the pointer is a cost rather
 * than part of the key (a state of lower cost reaches the other by dealing). */
static int stock_cost(const Search *S) {
    const State *s = &S->st;
    if (S->limit >= 0) return S->draw == 1 ? s->redeals * 64 + s->ptr : s->redeals;
    if (S->draw == 1 || s->ptr % 3 == 0 || s->ptr == s->nseq) return 0;
    return s->ptr;
}

/* The canonical key (KlondikeAdapter.key, LadyJaneAdapter.key) as two 64-bit lanes of a
 * hash, of the state as it lies: with the cuts on, the search keys its arrangement
 * (canon_key). */
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
    a += s->za;
    b += s->zb;
    refresh_piles(s);
    for (int i = 0; i < s->npiles; i++) {
        a += s->pha[i];
        b += s->phb[i];
    }
    /* Lady Jane (LadyJaneAdapter.key): the reserves as a set after the last deal. */
    S->rules->reserves_key(s, s->nstock <= 2, &a, &b);
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

/* Whether Klondike's keys also exchange the runs lying on twin parents (swap_runs;
 * _tableau.run_swaps() sets it, for the test that the cut changes no verdict). */
static int RUN_SWAPS = 1;

/* Klondike's runs on twin parents (alternating.swapped_runs, where the proof is): after
 * canon_key's moves, wherever two face-up twins of other piles both carry a run and the
 * higher-numbered base lies on the lower-numbered parent, the two runs are exchanged.
 * The piles (``pile``, ``len``, their twin bits ``want``) are canon_key's, copied to
 * ``t`` as they change (``moved``); the piles exchanged are returned, a bit each (their
 * parts of the key are made afresh). */
static unsigned swap_runs(const State *s, uint8_t t[7][MAXPILE], const uint8_t *pile[7],
                          int len[7], uint64_t want[7], unsigned *moved) {
    unsigned walked = 0;
    int8_t onp[52], onk[52]; /* the pile of the card lying on each face-up card, its place */
    for (;;) {
        uint64_t all = 0; /* the twins wanted: each bit o, a card on o's twin (card o + 26) */
        for (int i = 0; i < 7; i++) all |= want[i];
        if (!all) return walked;
        memset(onp, -1, sizeof onp);
        for (int x = 0; x < 7; x++)
            for (int y = s->down[x] + 1; y < len[x]; y++) {
                onp[pile[x][y - 1]] = (int8_t)x;
                onk[pile[x][y - 1]] = (int8_t)y;
            }
        int i = -1, k = 0, j = 0, q = 0;
        for (uint64_t m = all; m && i < 0; m &= m - 1) {
            int o = __builtin_ctzll(m), p = (o + 26) % 52;
            if (onp[o] < 0 || onp[o] == onp[p]) continue; /* o bare, face down, or in p's pile */
            int c = pile[onp[p]][onk[p]], w = pile[onp[o]][onk[o]];
            if (s->rel[w] != s->rel[c] || RED[w] != RED[c] || w < c) continue;
            i = onp[p], k = onk[p], j = onp[o], q = onk[o];
        }
        if (i < 0) return walked;
        for (int u = 0; u < 2; u++) {
            int x = u ? j : i;
            if (!(*moved >> x & 1)) memcpy(t[x], s->tab[x], (size_t)len[x]);
            pile[x] = t[x];
            *moved |= 1u << x;
        }
        uint8_t run[MAXPILE];
        int a = len[i] - k, b = len[j] - q;
        memcpy(run, &t[i][k], (size_t)a);
        memcpy(&t[i][k], &t[j][q], (size_t)b);
        memcpy(&t[j][q], run, (size_t)a);
        len[i] = k + b;
        len[j] = q + a;
        walked |= 1u << i | 1u << j;
        want[i] = twins_wanted(s, t[i], len[i], s->down[i]);
        want[j] = twins_wanted(s, t[j], len[j], s->down[j]);
    }
}
