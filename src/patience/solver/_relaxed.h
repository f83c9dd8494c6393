/* The two relaxed games that prove a Klondike or Lady Jane position lost (their
 * proofs: alternating.py's Relaxed and Ordered): the pooling game, the Ordered game,
 * and how each game's stock and reserves are played out in them.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* ------------------------------------------------------- cards as sets
 * Both relaxed games keep their facts as sets of cards: a card is a bit of a 64-bit
 * set (State.bit: 16 bits a suit, one a rank, the Ace lowest), so that what a fact
 * gives every card is found for all of them at once. */

#define LANES 0x1FFF1FFF1FFF1FFFULL      /* the 13 ranks of each suit */
#define KING_BITS 0x1000100010001000ULL
#define LANE_ONES 0x0001000100010001ULL /* each suit's Ace */

/* The cards home, as a set: each suit's lowest h ranks. */
static inline uint64_t home_set(const int *h) {
    return ((1ULL << h[0]) - 1) | ((1ULL << h[1]) - 1) << 16 | ((1ULL << h[2]) - 1) << 32 |
           ((1ULL << h[3]) - 1) << 48;
}

/* The cards that could be built on a card of ``x``, by which parent: ``*pa`` those
 * whose parent in the suit 1 or 0 (State.pa) is in ``x``, ``*pb`` those whose parent in
 * the suit 3 or 2 (State.pb) is. Suits 0 and 2 take their parents from suits 1 and 3,
 * suits 1 and 3 from 0 and 2: the set a rank down, suits 0 and 1 swapped, 2 and 3
 * swapped, then one parent is its low half, the other its high half. */
static inline void children_of(uint64_t x, uint64_t *pa, uint64_t *pb) {
    uint64_t w = (x >> 1) & LANES;
    w = (w >> 16 & 0x0000FFFF0000FFFFULL) | (w & 0x0000FFFF0000FFFFULL) << 16;
    uint64_t lo = w & 0xFFFFFFFFULL, hi = w >> 32;
    *pa = lo | lo << 32;
    *pb = hi | hi << 32;
}

/* A set's twins (the other card of the same rank and colour): 32 bits away. */
static inline uint64_t twins(uint64_t x) { return x << 32 | x >> 32; }

/* relaxed.stacked_twins over one stack (``n`` cards, the bottom first): the cards with
 * their twin above them. */
static uint64_t apart_in(const State *s, const uint8_t *stack, int n) {
    uint64_t seen = 0, apart = 0;
    for (int k = n - 1; k >= 0; k--) {
        int b = s->bit[stack[k]];
        if (s->rel[stack[k]] != 13 && (seen >> (b ^ 32) & 1)) apart |= 1ULL << b;
        seen |= 1ULL << b;
    }
    return apart;
}

/* ------------------------------------------------------- the relaxed game
 * relaxed.Relaxed and KlondikeAdapter._relaxed_lost, move for move, its sets of cards
 * as 64-bit sets. */

typedef struct {
    const State *s;
    uint64_t avail; /* Relaxed.avail */
    uint64_t pool;  /* Relaxed.pool */
    uint64_t apart; /* the cards whose twin must go home first (Relaxed.twin) */
    int h[4], lows[7], nd[7], empty;
} Relax;

/* Relaxed._open and _recall, for every card at once: a card home is available once a
 * card it could come back onto is (a King, once a pile is empty), and so on down. */
static inline void relax_close(Relax *R) {
    uint64_t home = home_set(R->h), kings = R->empty ? KING_BITS & home : 0;
    for (;;) {
        uint64_t pa, pb;
        children_of(R->avail, &pa, &pb);
        uint64_t n = R->avail | ((pa | pb) & home) | kings;
        if (n == R->avail) return;
        R->avail = n;
    }
}

/* ``waste``: the waste is a stack too (Relaxed's ``stacks``). */
static void relax_init(Relax *R, const State *s, int waste) {
    R->s = s;
    R->avail = R->pool = R->apart = 0;
    R->empty = 0;
    memcpy(R->h, s->h, sizeof R->h);
    if (waste) R->apart |= apart_in(s, s->seq, s->ptr);
    for (int i = 0; i < 7; i++) {
        int n = s->len[i], d = s->down[i];
        R->apart |= apart_in(s, s->tab[i], n < d + 1 ? n : d + 1);
        for (int k = d + 1; k < n; k++) { /* a card on one of its parents: its twin */
            int x = s->tab[i][k], under = s->tab[i][k - 1];
            if (s->rel[x] != 13 && (under == s->pa[x] || under == s->pb[x]))
                R->apart |= 1ULL << (s->bit[x] ^ 32);
        }
        R->nd[i] = d;
        if (!n) {
            R->empty = 1;
            R->lows[i] = -1;
            continue;
        }
        R->lows[i] = s->tab[i][d];
        R->avail |= 1ULL << s->bit[R->lows[i]];
        for (int k = d + 1; k < n; k++) R->pool |= 1ULL << s->bit[s->tab[i][k]];
    }
    R->avail |= R->pool;
    relax_close(R);
}

/* Relaxed.take: play ``c`` home or into the pool if it fits anywhere. */
static int relax_take(Relax *R, int c) {
    const State *s = R->s;
    uint64_t m = 1ULL << s->bit[c];
    if (R->h[SUIT[c]] == s->rel[c] - 1) {
        R->h[SUIT[c]]++;
        relax_close(R);
        return 1;
    }
    int f;
    if (s->rel[c] == 13) {
        f = R->empty;
    } else {
        int a = R->avail >> s->bit[s->pa[c]] & 1, b = R->avail >> s->bit[s->pb[c]] & 1;
        f = (R->apart & ~twins(home_set(R->h)) & m) ? a && b : a || b;
    }
    if (!f) return 0;
    R->pool |= m;
    R->avail |= m;
    relax_close(R);
    return 1;
}

/* Relaxed.settle: every move within the tableau and pool until none is left. The
 * pool's cards go home suit by suit, each suit's next card while it is in the pool,
 * where Relaxed sweeps the pool in its order: every fact of the game only grows (the
 * proof in relaxed.Relaxed), so any order of its moves ends in the same state, and
 * settle returns only there. */
static void relax_settle(Relax *R) {
    const State *s = R->s;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int su = 0; su < 4 && R->pool; su++)
            while (R->h[su] < 13 && (R->pool >> (su * 16 + R->h[su]) & 1)) {
                R->pool &= ~(1ULL << (su * 16 + R->h[su]));
                R->h[su]++;
                changed = 1;
            }
        for (int i = 0; i < 7; i++) {
            int c = R->lows[i];
            if (c < 0 || !relax_take(R, c)) continue;
            changed = 1;
            if (R->nd[i]) {
                c = R->lows[i] = s->tab[i][--R->nd[i]];
                R->avail |= 1ULL << s->bit[c];
            } else {
                R->lows[i] = -1;
                R->empty = 1;
            }
            relax_close(R);
        }
    }
}

static int relax_won(const Relax *R) { return R->h[0] + R->h[1] + R->h[2] + R->h[3] == 52; }

/* A relaxed game as the drivers below play it: Relax or Ordered. */
typedef struct Relaxation {
    void *g;
    int (*take)(void *, int);
    void (*settle)(void *);
    int (*won)(const void *);
} Relaxation;

static int relax_take_any(void *g, int c) { return relax_take(g, c); }
static void relax_settle_any(void *g) { relax_settle(g); }
static int relax_won_any(const void *g) { return relax_won(g); }

/* klondike_stock.played_out: whether relaxed game G is lost, the stock dealt one card
 * a deal. */
static int played_out(const State *s, int limit, Relaxation G) {
    int seq[52], nseq = s->nseq, ptr = s->ptr;
    for (int k = 0; k < nseq; k++) seq[k] = s->seq[k];
    int left = limit < 0 ? -1 : limit - s->redeals;
    int played = 1;
    for (;;) {
        G.settle(G.g);
        if (ptr && G.take(G.g, seq[ptr - 1])) {
            memmove(&seq[ptr - 1], &seq[ptr], sizeof(int) * (size_t)(nseq - ptr));
            nseq--;
            ptr--;
            played = 1;
        } else if (ptr < nseq) {
            ptr++;
        } else if (nseq && played && left != 0) {
            ptr = 0;
            played = 0;
            left--;
        } else {
            return !G.won(G.g);
        }
    }
}

/* klondike_stock.played_out3: the same, three cards a deal. Only some of the
 * cycle's cards can come to the waste's top, and taking one changes which (not greedy
 * dealing, as one card a deal is: declining a card keeps another in reach). A card can
 * come to the top, as a fact that only grows, when it is the top now, the last, the
 * third of a deal in this pass (the pass's later cards keep their places as the top is
 * taken), the card under one taken (it is the top then), or, with a redeal left, the
 * third of a deal in a later pass, its place less the cards before it taken (any number
 * of them, at most two mattering). Every card the real game can take is so reached. */
static int played_out3(const State *s, int limit, Relaxation G) {
    int nseq = s->nseq, ptr = s->ptr, redeal = limit < 0 || s->redeals < limit;
    uint8_t taken[52] = {0};
    for (int changed = 1; changed;) {
        G.settle(G.g);
        changed = 0;
        for (int i = 0, before = 0; i < nseq; i++) {
            if (!taken[i]) {
                int reach = i == nseq - 1 || i == ptr - 1 || (i >= ptr && (i - ptr) % 3 == 2) ||
                            taken[i + 1] ||
                            (redeal && (i % 3 == 2 || (before && i % 3 == 0) || before >= 2));
                if (reach && G.take(G.g, s->seq[i])) taken[i] = changed = 1;
            }
            before += taken[i];
        }
    }
    return !G.won(G.g);
}

/* LadyJaneAdapter._played_out. */
static int lj_played_out(const State *s, Relaxation G) {
    int res[8][52], nres[8], stock[52], nstock = s->nstock;
    for (int i = 0; i < 8; i++) {
        nres[i] = s->nres[i];
        for (int k = 0; k < nres[i]; k++) res[i][k] = s->res[i][k];
    }
    for (int k = 0; k < nstock; k++) stock[k] = s->stock[k];
    for (;;) {
        G.settle(G.g);
        int played = 0;
        for (int i = 0; i < 8; i++) /* the reserves, then the waste (stack 7) */
            while (nres[i] && G.take(G.g, res[i][nres[i] - 1])) {
                nres[i]--;
                played = 1;
            }
        if (nstock == 1 && G.take(G.g, stock[0])) {
            nstock = 0;
            played = 1;
        }
        if (played) continue;
        if (nstock > 7) {
            for (int i = 0; i < 7; i++) res[i][nres[i]++] = stock[nstock - 1 - i];
            nstock -= 7;
        } else if (nstock == 2) {
            res[7][nres[7]++] = stock[--nstock];
        } else {
            return !G.won(G.g);
        }
    }
}

/* KlondikeAdapter._stacks: with one card a deal and no redeal left, the waste is a
 * stack (its cards leave from the top). Lady Jane's waste is a reserve. */
static int kl_waste_stacked(const Search *S) {
    return S->draw == 1 && S->limit >= 0 && S->st.redeals >= S->limit;
}

static int lj_waste_stacked(const Search *S) {
    (void)S;
    return 0;
}

/* The adapters' ``_played_out``: whether relaxed game G is lost in the search's state
 * (Klondike with one card a deal, with three, Lady Jane). */
static int kl1_played_out(const Search *S, Relaxation G) {
    return played_out(&S->st, S->limit, G);
}

static int kl3_played_out(const Search *S, Relaxation G) {
    return played_out3(&S->st, S->limit, G);
}

static int lj_game_played_out(const Search *S, Relaxation G) {
    return lj_played_out(&S->st, G);
}

static int waste_stacked(const Search *S) { return S->rules->waste_stacked(S); }

static int game_played_out(const Search *S, Relaxation G) { return S->rules->played_out(S, G); }

/* KlondikeAdapter._relaxed_lost and LadyJaneAdapter._relaxed_lost. */
static int relaxed_lost(const Search *S) {
    Relax R;
    relax_init(&R, &S->st, waste_stacked(S));
    return game_played_out(S, (Relaxation){&R, relax_take_any, relax_settle_any, relax_won_any});
}

/* ------------------------------------------------ the ordered relaxed game
 * relaxed.Ordered: the same facts, played to the same end, on sets of cards. A card
 * is a bit of a 64-bit set (State.bit: 16 bits a suit, one a rank), so each of the
 * game's rules is applied to every card at once: the cards a parent on top lets
 * move are the tops shifted down a rank, with the suits of the other colour swapped
 * in; a twin (the card of the same rank and colour) is the card 32 bits away. Every
 * fact only grows (the proof in relaxed.Ordered), so the rules applied to every card,
 * round after round until a round changes nothing, end where relaxed.Ordered's
 * sweeps end: in the one least set of facts closed under them. A take plays one card
 * as Ordered.take does (home, and then on top if it fits; else given, on top, if it
 * fits), so the stock's drivers (played_out, played_out3, lj_played_out) take
 * the same cards in the same order as with relaxed.Ordered. */

typedef struct {
    const State *s;
    uint64_t tab;    /* the tableau's cards */
    uint64_t up;     /* face up now */
    uint64_t clear;  /* tableau cards with nothing on them, or what was on them moved */
    uint64_t top;    /* Ordered.top */
    uint64_t moved;  /* Ordered.moved */
    uint64_t given;  /* cards the drivers gave that fitted (they go home from there) */
    uint64_t apart;  /* cards whose twin lies above them in a stack (Ordered.twin) */
    uint64_t bottom; /* the piles' bottom cards */
    uint64_t fits;   /* the cards that fit (ordered_fits_all), while ``fresh`` */
    int h[4], empty, dirty, fresh;
    uint8_t below[64]; /* by bit: the bit of the card under a tableau card, 64: none */
} Ordered;

/* Ordered._fits, for every card at once: a King once a pile is emptied; another card
 * once a parent is ``top``, both while its twin kept apart (``apart``) is not home. */
static inline uint64_t ordered_fits_all(const Ordered *O) {
    uint64_t pa, pb;
    children_of(O->top, &pa, &pb);
    uint64_t held = O->apart & ~twins(home_set(O->h));
    return (pa & pb) | ((pa | pb) & ~held) | (O->empty ? KING_BITS : 0);
}

/* ``waste``: the waste is a stack too (Ordered's ``stacks``). */
static void ordered_init(Ordered *O, const State *s, int waste) {
    O->s = s;
    O->tab = O->up = O->clear = O->top = O->moved = O->given = O->apart = O->bottom = 0;
    memcpy(O->h, s->h, sizeof O->h);
    O->empty = 0;
    O->dirty = 1;
    O->fresh = 0;
    if (waste) O->apart |= apart_in(s, s->seq, s->ptr);
    for (int i = 0; i < 7; i++) {
        int n = s->len[i], d = s->down[i];
        if (!n) {
            O->empty = 1;
            continue;
        }
        const uint8_t *p = s->tab[i];
        O->apart |= apart_in(s, p, n < d + 1 ? n : d + 1);
        int under = 64;
        for (int k = 0; k < n; k++) {
            int b = s->bit[p[k]];
            O->tab |= 1ULL << b;
            O->below[b] = (uint8_t)under;
            under = b;
        }
        for (int k = d; k < n; k++) O->up |= 1ULL << s->bit[p[k]];
        O->bottom |= 1ULL << s->bit[p[0]];
        O->clear |= 1ULL << s->bit[p[n - 1]];
    }
}

/* Card (bit) b left its place: the card under it is clear, a bottom card empties its
 * pile. */
static inline void ordered_move(Ordered *O, int b) {
    O->moved |= 1ULL << b;
    if (O->below[b] < 64) O->clear |= 1ULL << O->below[b];
    if (O->bottom >> b & 1) O->empty = 1;
}

/* Ordered.settle: the rules, round after round, until one changes nothing. */
static void ordered_settle(void *g) {
    Ordered *O = g;
    if (!O->dirty) return;
    O->dirty = 0;
    for (;;) {
        uint64_t top = O->top, moved = O->moved;
        int empty = O->empty, sent = 0;
        /* home: a clear tableau card or one given, each suit's next while there is one
         * (each suit's run of them from its next card, all suits at once: the lowest
         * card of a suit's lane neither home nor sendable, less one, is the lane's
         * new home) */
        uint64_t home = home_set(O->h);
        for (;;) {
            uint64_t y = home | (((O->tab & O->clear) | O->given) & LANES);
            uint64_t now = (((y + LANE_ONES) & ~y) - LANE_ONES) & LANES, fresh = now & ~home;
            if (!fresh) break;
            sent = 1;
            home = now;
            for (uint64_t m = fresh & O->tab & ~O->moved; m; m &= m - 1)
                ordered_move(O, __builtin_ctzll(m));
        }
        if (sent) /* a lane's cards home are its lowest bits: h is its first zero */
            for (int su = 0; su < 4; su++) O->h[su] = __builtin_ctzll(~(home >> 16 * su));
        O->top |= O->tab & O->clear; /* a clear tableau card, even on its way home */
        uint64_t fits = ordered_fits_all(O);
        O->top |= home & fits; /* a card home could come back */
        for (uint64_t m = O->tab & ~O->moved & ~home & (O->clear | O->up) & fits; m; m &= m - 1)
            ordered_move(O, __builtin_ctzll(m)); /* the base of a run onto a parent */
        if (!sent && O->top == top && O->moved == moved && O->empty == empty) {
            O->fits = fits;
            O->fresh = 1;
            return;
        }
    }
}

/* Ordered.take, and then, home, on top if it fits (as relaxed.Ordered's settle puts
 * it there before the drivers' next take). */
static int ordered_take(void *g, int c) {
    Ordered *O = g;
    const State *s = O->s;
    uint64_t m = 1ULL << s->bit[c];
    int su = SUIT[c];
    if (O->h[su] == s->rel[c] - 1) {
        O->h[su]++;
        O->dirty = 1;
        if (ordered_fits_all(O) & m) O->top |= m;
        O->fresh = 0;
        return 1;
    }
    if (!O->fresh) {
        O->fits = ordered_fits_all(O);
        O->fresh = 1;
    }
    if (!(O->fits & m)) return 0;
    O->given |= m;
    O->top |= m;
    O->dirty = 1;
    O->fresh = 0;
    return 1;
}

static int ordered_won(const void *g) {
    const Ordered *O = g;
    return O->h[0] + O->h[1] + O->h[2] + O->h[3] == 52;
}

/* KlondikeAdapter._ordered_lost and LadyJaneAdapter._ordered_lost. */
static int ordered_lost(const Search *S) {
    Ordered O;
    ordered_init(&O, &S->st, waste_stacked(S));
    return game_played_out(S, (Relaxation){&O, ordered_take, ordered_settle, ordered_won});
}

/* The stock cycle's cards, as a set, into both lanes of a key. */
