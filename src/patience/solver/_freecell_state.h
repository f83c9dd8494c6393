/* FreeCell's state for the native search (_freecell.c): the cascades, the free cells and
 * each suit's height at home; the moves of the rules (the engine's, less those the
 * canonical key makes duplicates of), made on a copy; the safe moves home; and the
 * canonical key. Every cut here is proven in docs/solver.md (FreeCell) and in
 * freecell.py's docstring. Cards are the package's: suit c / 13 (clubs, diamonds,
 * spades, hearts: odd suits red), rank c % 13 + 1. */
#ifndef PATIENCE_FREECELL_STATE_H
#define PATIENCE_FREECELL_STATE_H

#include <stdint.h>
#include <string.h>

#define NONE 255
#define MAXCOL 52
#define MAXMOVES 160
#define KEYWORDS 5

/* A card's place in the key: the card it lies on (0..51), or one of these (ABSENT: a
 * position of fewer cards, as the tests build; it is never won). */
enum { BOTTOM = 52, CELL = 53, HOME = 54, ABSENT = 55 };
/* Piles in a move: 0-7 the cascades, 8-11 the free cells, HOMEPILE a foundation (in a
 * line written for the engine, 12 + the foundation's slot). */
enum { CELL0 = 8, HOMEPILE = 12 };

typedef struct {
    uint8_t col[8][MAXCOL];
    uint8_t len[8];
    uint8_t cell[4]; /* NONE: empty */
    uint8_t home[4]; /* each suit's height at home */
} St;

typedef struct {
    uint8_t src, dst, n;
} Mv;

typedef struct {
    uint64_t w[KEYWORDS];
} Key;

static inline int rank_of(int c) { return c % 13 + 1; }
static inline int suit_of(int c) { return c / 13; }
static inline int red_of(int c) { return (c / 13) & 1; }

/* Whether card a may lie on card b on a cascade: one rank lower, the other colour. */
static inline int fits(int a, int b) {
    return rank_of(b) == rank_of(a) + 1 && red_of(a) != red_of(b);
}

static inline int top_of(const St *s, int i) { return s->len[i] ? s->col[i][s->len[i] - 1] : NONE; }

/* The run on top of cascade i: how many cards, each on the next higher of the other
 * colour (at most 13, as the engine counts). */
static int run_length(const St *s, int i) {
    int n = s->len[i], L = 1;
    if (!n) return 0;
    while (L < n && L < 13 && fits(s->col[i][n - L], s->col[i][n - L - 1])) L++;
    return L;
}

/* The card a move takes (the lowest of a run). */
static inline int moved_card(const St *s, Mv m) {
    return m.src < CELL0 ? s->col[m.src][s->len[m.src] - m.n] : s->cell[m.src - CELL0];
}

static void apply(St *s, Mv m) {
    uint8_t cards[MAXCOL];
    if (m.src < CELL0) {
        s->len[m.src] -= m.n;
        memcpy(cards, &s->col[m.src][s->len[m.src]], m.n);
    } else {
        cards[0] = s->cell[m.src - CELL0];
        s->cell[m.src - CELL0] = NONE;
    }
    if (m.dst < CELL0) {
        memcpy(&s->col[m.dst][s->len[m.dst]], cards, m.n);
        s->len[m.dst] += m.n;
    } else if (m.dst < HOMEPILE) {
        s->cell[m.dst - CELL0] = cards[0];
    } else {
        s->home[suit_of(cards[0])]++;
    }
}

static inline int goes_home(const St *s, int c) {
    return c != NONE && rank_of(c) == s->home[suit_of(c)] + 1;
}

/* Safe home (proof in docs/solver.md): playable home, and both cards of the rank below
 * of the other colour home already (every Ace). */
static inline int safe_home(const St *s, int c) {
    if (!goes_home(s, c)) return 0;
    int r = rank_of(c), o = red_of(c) ? 0 : 1; /* the other colour's suits: o, o + 2 */
    return r == 1 || (s->home[o] >= r - 1 && s->home[o + 2] >= r - 1);
}

/* Make every safe move home, again and again (free cells first, then the cascades, as
 * freecell.py's ``auto``); each move is written to ``rec`` when it is not NULL. */
static int autos(St *s, Mv *rec) {
    int n = 0;
    for (;;) {
        Mv m = {NONE, HOMEPILE, 1};
        for (int k = 0; k < 4 && m.src == NONE; k++)
            if (safe_home(s, s->cell[k])) m.src = (uint8_t)(CELL0 + k);
        for (int i = 0; i < 8 && m.src == NONE; i++)
            if (safe_home(s, top_of(s, i))) m.src = (uint8_t)i;
        if (m.src == NONE) return n;
        if (rec) rec[n] = m;
        n++;
        apply(s, m);
    }
}

static inline int won(const St *s) {
    return s->home[0] + s->home[1] + s->home[2] + s->home[3] == 52;
}

typedef struct {
    int free_cells, empty, first_cell, first_empty;
} Room;

static Room room_of(const St *s) {
    Room r = {0, 0, -1, -1};
    for (int k = 0; k < 4; k++)
        if (s->cell[k] == NONE && r.free_cells++ == 0) r.first_cell = k;
    for (int i = 0; i < 8; i++)
        if (!s->len[i] && r.empty++ == 0) r.first_empty = i;
    return r;
}

static inline void add(Mv *out, int *n, int src, int dst, int count) {
    out[*n] = (Mv){(uint8_t)src, (uint8_t)dst, (uint8_t)count};
    (*n)++;
}

/* The moves of cascade i's top card or run: onto another cascade's top, into the first
 * empty cascade (every run that fits, but never the whole cascade), into the first free
 * cell. The engine's room: (free cells + 1) << empty cascades, the target not counted. */
static void cascade_moves(const St *s, const Room *r, int i, Mv *out, int *n) {
    int L = run_length(s, i), top = top_of(s, i);
    for (int j = 0; j < 8; j++) {
        if (j == i || !s->len[j]) continue;
        int tj = top_of(s, j), m = rank_of(tj) - rank_of(top);
        if (m < 1 || m > L) continue;
        if (!fits(s->col[i][s->len[i] - m], tj)) continue;
        if (m == 1 || m <= (r->free_cells + 1) << r->empty) add(out, n, i, j, m);
    }
    if (r->first_empty >= 0) {
        int room = (r->free_cells + 1) << (r->empty - 1), most = L == 1 ? 1 : (L < room ? L : room);
        for (int m = 1; m <= most; m++)
            if (m != s->len[i]) add(out, n, i, r->first_empty, m);
    }
    if (r->first_cell >= 0) add(out, n, i, CELL0 + r->first_cell, 1);
}

/* Every move worth a child (docs/solver.md, FreeCell: one move into an empty free cell or
 * cascade stands for all, the key sorting both); the count. */
static int gen_moves(const St *s, Mv *out) {
    Room r = room_of(s);
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (goes_home(s, s->cell[k])) add(out, &n, CELL0 + k, HOMEPILE, 1);
    for (int i = 0; i < 8; i++)
        if (goes_home(s, top_of(s, i))) add(out, &n, i, HOMEPILE, 1);
    for (int k = 0; k < 4; k++) {
        int c = s->cell[k];
        if (c == NONE) continue;
        for (int j = 0; j < 8; j++)
            if (s->len[j] && fits(c, top_of(s, j))) add(out, &n, CELL0 + k, j, 1);
        if (r.first_empty >= 0) add(out, &n, CELL0 + k, r.first_empty, 1);
    }
    for (int i = 0; i < 8; i++)
        if (s->len[i]) cascade_moves(s, &r, i, out, &n);
    return n;
}

/* The canonical key: for each card, what it lies on (a card, a cascade's bottom, a free
 * cell, home, or not in play), 6 bits each. The order of the cascades and of the free
 * cells is in no key (proof in docs/solver.md): a cascade is rebuilt from its bottom
 * card up. */
static Key key_of(const St *s) {
    uint8_t below[52];
    memset(below, ABSENT, sizeof below);
    for (int suit = 0; suit < 4; suit++)
        for (int r = 0; r < s->home[suit]; r++) below[suit * 13 + r] = HOME;
    for (int k = 0; k < 4; k++)
        if (s->cell[k] != NONE) below[s->cell[k]] = CELL;
    for (int i = 0; i < 8; i++)
        for (int h = 0; h < s->len[i]; h++) below[s->col[i][h]] = h ? s->col[i][h - 1] : BOTTOM;
    Key k = {{0}};
    for (int c = 0; c < 52; c++) {
        int bit = 6 * c, w = bit >> 6, o = bit & 63;
        k.w[w] |= (uint64_t)below[c] << o;
        if (o > 58) k.w[w + 1] |= (uint64_t)below[c] >> (64 - o);
    }
    return k;
}

static inline int below_in(const Key *k, int c) {
    int bit = 6 * c, w = bit >> 6, o = bit & 63;
    uint64_t v = k->w[w] >> o;
    if (o > 58) v |= k->w[w + 1] << (64 - o);
    return (int)(v & 63);
}

/* The state of a key: its cascades in the order of their bottom cards, its free cells
 * first. Equal keys, equal states up to the order of piles (which no rule reads). */
static void state_of(const Key *k, St *s) {
    uint8_t below[52], above[53];
    memset(s, 0, sizeof *s);
    memset(s->cell, NONE, sizeof s->cell);
    memset(above, NONE, sizeof above);
    int cells = 0, cols = 0;
    for (int c = 0; c < 52; c++) {
        below[c] = (uint8_t)below_in(k, c);
        if (below[c] < 52) above[below[c]] = (uint8_t)c;
        else if (below[c] == CELL) s->cell[cells++] = (uint8_t)c;
        else if (below[c] == HOME) s->home[suit_of(c)]++;
    }
    for (int c = 0; c < 52; c++) {
        if (below[c] != BOTTOM) continue;
        int i = cols++;
        for (int x = c; x != NONE; x = above[x]) s->col[i][s->len[i]++] = (uint8_t)x;
    }
}

static inline int key_eq(const Key *a, const Key *b) { return !memcmp(a->w, b->w, sizeof a->w); }

static inline uint64_t key_hash(const Key *k) {
    uint64_t h = mixa(k->w[0]);
    for (int i = 1; i < KEYWORDS; i++) h = mixa(h ^ mixb(k->w[i] + (uint64_t)i));
    return h;
}

#endif
