/* Hopscotch's fair labels policy (``fair/hopscotch.py``) at native speed, for its
 * playouts: the same state (foundation counts, labelled reserves), the same ``take``,
 * ``settle``, ``crowding``, option scores, rescue by relabelling and the same ties, so
 * a playout here makes the moves the Python ``playout`` makes on the same stock order
 * (tests/test_hopscotch_rollout.py checks it on random states and orders).
 *
 * An event (foundation k's i-th card) is the bit k * 13 + i of a 64-bit set; the
 * "comes first" relations are a foundation's events in order, and a reserve card before
 * the card under it. Reach sets (what must come after an event) are closed by bit
 * operations. Stock orders are drawn from the unseen ranks alone (a uniform shuffle by
 * splitmix64 from the caller's seed), so a playout never reads a hidden card. */

#define PNC 48 /* reserve cards at most */
#define PSEARCH 5000
static _Thread_local int p_search = PSEARCH; /* tries of a rescue in this thread */
static const int CROWD_COST[5] = {100, 30, 5, 1, 0};
#define PEMPTY 6
#define PFIT 2

static int PSEQ[4][13];      /* the rank of foundation k's i-th card */
static int PPOS[4][14];      /* where rank r comes on foundation k */
static uint64_t PSUF[52];    /* an event and the later ones of its foundation */
static uint64_t PRANK[14];   /* the events taking rank r (index >= 1) */

typedef struct {
    int cnt[4];
    int n[4];
    uint8_t r[4][PNC];
    uint8_t e[4][PNC]; /* k * 13 + i */
} PState;

static void policy_init(void) {
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 13; i++) {
            int r = ((k + 1) * (i + 1)) % 13;
            PSEQ[k][i] = r ? r : 13;
        }
        PPOS[k][0] = 0;
        for (int r = 1; r < 14; r++)
            for (int i = 0; i < 13; i++)
                if (PSEQ[k][i] == r) PPOS[k][r] = i;
        for (int i = 0; i < 13; i++) {
            uint64_t m = 0;
            for (int x = i; x < 13; x++) m |= 1ULL << (k * 13 + x);
            PSUF[k * 13 + i] = m;
        }
    }
    for (int r = 0; r < 14; r++) {
        PRANK[r] = 0;
        if (r)
            for (int k = 0; k < 4; k++) PRANK[r] |= 1ULL << (k * 13 + PPOS[k][r]);
    }
}

static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* below[x]: the events of the cards under a card labelled x. */
static void p_below(const PState *s, uint64_t below[52]) {
    memset(below, 0, 52 * sizeof(uint64_t));
    for (int j = 0; j < 4; j++)
        for (int h = 1; h < s->n[j]; h++) below[s->e[j][h]] |= 1ULL << s->e[j][h - 1];
}

/* The events ``src`` comes before, itself included. */
static uint64_t p_reach(const uint64_t below[52], int src) {
    uint64_t seen = 0, todo = 1ULL << src;
    while (todo) {
        int x = ctz64(todo);
        todo &= todo - 1;
        if (seen >> x & 1) continue;
        seen |= 1ULL << x;
        todo |= (PSUF[x] | below[x]) & ~seen;
    }
    return seen;
}

/* Whether ``src`` comes before ``dst`` (``p_reach(below, src) >> dst & 1``), stopping as
 * soon as it is found. */
static int p_reaches(const uint64_t below[52], int src, int dst) {
    uint64_t seen = 0, todo = 1ULL << src, goal = 1ULL << dst;
    while (todo) {
        if (todo & goal) return 1;
        int x = ctz64(todo);
        todo &= todo - 1;
        if (seen >> x & 1) continue;
        seen |= 1ULL << x;
        todo |= (PSUF[x] | below[x]) & ~seen;
    }
    return 0;
}

static uint64_t p_claimed(const PState *s) {
    uint64_t c = 0;
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < s->n[j]; h++) c |= 1ULL << s->e[j][h];
    return c;
}

/* The events of rank r not yet passed (not claimed is the caller's). */
static inline uint64_t p_ahead(const PState *s, int r) {
    uint64_t m = 0;
    for (int k = 0; k < 4; k++)
        if (PPOS[k][r] >= s->cnt[k]) m |= 1ULL << (k * 13 + PPOS[k][r]);
    return m;
}

static int p_acyclic(const PState *s) {
    uint64_t below[52];
    p_below(s, below);
    for (int j = 0; j < 4; j++)
        for (int h = 1; h < s->n[j]; h++)
            if (p_reaches(below, s->e[j][h - 1], s->e[j][h])) return 0;
    return 1;
}

static int p_current(const PState *s, int r) {
    for (int q = 0; q < 4; q++)
        if (s->cnt[q] < 13 && PSEQ[q][s->cnt[q]] == r) return 1;
    return 0;
}

/* ``State.take``: the foundation rank r (labelled ``mine``, -1: the waste card) goes to
 * now, relabelling a reserve card that held that event; -1: none. */
static int p_take(PState *s, int r, int mine) {
    if (mine >= 0) {
        int k = mine / 13, i = mine % 13;
        if (s->cnt[k] == i && PSEQ[k][i] == r) return k;
    }
    for (int q = 0; q < 4; q++) {
        if (s->cnt[q] >= 13 || PSEQ[q][s->cnt[q]] != r) continue;
        int e = q * 13 + s->cnt[q], hj = -1, hh = -1;
        for (int j = 0; j < 4 && hj < 0; j++)
            for (int h = 0; h < s->n[j]; h++)
                if (s->e[j][h] == e) {
                    hj = j;
                    hh = h;
                    break;
                }
        if (hj < 0) return q;
        uint8_t old = s->e[hj][hh];
        int others[4], no = 0;
        if (mine >= 0)
            others[no++] = mine;
        else {
            uint64_t claimed = p_claimed(s);
            for (int k = 0; k < 4; k++) {
                int ev = k * 13 + PPOS[k][r];
                if (PPOS[k][r] >= s->cnt[k] && !(claimed >> ev & 1)) others[no++] = ev;
            }
        }
        for (int a = 0; a < no; a++) {
            s->e[hj][hh] = (uint8_t)others[a];
            s->r[hj][hh] = (uint8_t)r;
            if (p_acyclic(s)) return q;
        }
        s->e[hj][hh] = old;
        s->r[hj][hh] = (uint8_t)r;
    }
    return -1;
}

static int p_pop(PState *s, int j) {
    if (!s->n[j]) return 0;
    int h = s->n[j] - 1;
    int q = p_take(s, s->r[j][h], s->e[j][h]);
    if (q < 0) return 0;
    s->n[j]--;
    s->cnt[q]++;
    return 1;
}

static void p_settle(PState *s) {
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int j = 0; j < 4; j++)
            while (p_pop(s, j)) moved = 1;
    }
}

static int p_settle_move(PState *s, int last) {
    for (int a = 0; a < 4; a++)
        if (p_pop(s, (last + a) % 4)) return 1;
    return 0;
}

static int p_crowding(const PState *s, const int left[14]) {
    uint64_t claimed = p_claimed(s), below[52], tops[4];
    int ntops = 0, empty = 0, total = 0;
    p_below(s, below);
    for (int j = 0; j < 4; j++) {
        if (s->n[j])
            tops[ntops++] = p_reach(below, s->e[j][s->n[j] - 1]);
        else
            empty++;
    }
    for (int r = 1; r < 14; r++) {
        if (!left[r] || p_current(s, r)) continue;
        uint64_t ev = p_ahead(s, r) & ~claimed;
        int n = empty;
        for (int t = 0; t < ntops; t++)
            if (ev & ~tops[t]) n++;
        total += left[r] * CROWD_COST[n < 4 ? n : 4];
    }
    return total;
}

static inline int p_wait(const PState *s, int e) { return e % 13 - s->cnt[e / 13]; }

/* ``_scored``: the cost of rank r labelled e on reserve j, and the state after (settled). */
static int p_scored(const PState *s, int r, int j, int e, const int left[14], PState *out) {
    int fit;
    if (s->n[j]) {
        int ty = p_wait(s, s->e[j][s->n[j] - 1]), tx = p_wait(s, e);
        fit = ty >= tx ? ty - tx : 5 + tx - ty;
    } else
        fit = PEMPTY;
    *out = *s;
    out->r[j][out->n[j]] = (uint8_t)r;
    out->e[j][out->n[j]] = (uint8_t)e;
    out->n[j]++;
    p_settle(out);
    return p_crowding(out, left) + PFIT * fit;
}

/* ``_labelling`` top down: distinct labels for every reserve card (ranks ``rk``, sizes
 * ``nn``) with no cycle, into ``lab``; 0 when none is found within PSEARCH tries. */
typedef struct {
    const int *cnt;
    const int *nn;
    uint8_t (*rk)[PNC];
    uint8_t (*lab)[PNC];
    int oj[4 * PNC], oh[4 * PNC], norder;
    uint64_t used, below[52];
    int tries;
} PLab;

static int p_go(PLab *L, int n) {
    if (n == L->norder) return 1;
    L->tries--;
    if (L->tries < 0) return 0;
    int j = L->oj[n], h = L->oh[n], r = L->rk[j][h];
    int near = h + 1 < L->nn[j] ? L->lab[j][h + 1] : -1;
    int ev[4], w[4], m = 0;
    for (int k = 0; k < 4; k++)
        if (PPOS[k][r] >= L->cnt[k]) {
            int e = k * 13 + PPOS[k][r], key = PPOS[k][r] - L->cnt[k], b = m - 1;
            while (b >= 0 && w[b] > key) { /* a stable insertion sort by wait */
                ev[b + 1] = ev[b];
                w[b + 1] = w[b];
                b--;
            }
            ev[b + 1] = e;
            w[b + 1] = key;
            m++;
        }
    for (int a = 0; a < m; a++) {
        int e = ev[a];
        if (L->used >> e & 1) continue;
        if (near >= 0 && p_reaches(L->below, e, near)) continue;
        L->lab[j][h] = (uint8_t)e;
        L->used |= 1ULL << e;
        if (near >= 0) L->below[near] |= 1ULL << e;
        if (p_go(L, n + 1)) return 1;
        if (near >= 0) L->below[near] &= ~(1ULL << e);
        L->used &= ~(1ULL << e);
    }
    return 0;
}

static int p_labelling(const int cnt[4], const int nn[4], uint8_t rk[4][PNC],
                       uint8_t lab[4][PNC]) {
    PLab L;
    L.cnt = cnt;
    L.nn = nn;
    L.rk = rk;
    L.lab = lab;
    L.norder = 0;
    int depth = 0;
    for (int j = 0; j < 4; j++)
        if (nn[j] > depth) depth = nn[j];
    for (int level = 0; level < depth; level++)
        for (int j = 0; j < 4; j++)
            if (level < nn[j]) {
                L.oj[L.norder] = j;
                L.oh[L.norder++] = nn[j] - 1 - level;
            }
    L.used = 0;
    memset(L.below, 0, sizeof L.below);
    L.tries = p_search;
    return p_go(&L, 0);
}

enum { P_HOME = 0, P_OPTION = 1, P_RESCUE = 2, P_LOST = 3 };

/* The policy's rescue on reserve j (not full): the card of rank r put there and every
 * reserve card labelled again (``p_labelling``), then settled; 0, ``s`` unchanged, when
 * no labelling is left but a cycle. */
static int p_relabel_onto(PState *s, int r, int j) {
    int nn[4];
    uint8_t rk[4][PNC], lab[4][PNC];
    for (int x = 0; x < 4; x++) {
        nn[x] = s->n[x];
        memcpy(rk[x], s->r[x], (size_t)s->n[x]);
    }
    rk[j][nn[j]++] = (uint8_t)r;
    if (!p_labelling(s->cnt, nn, rk, lab)) return 0;
    for (int x = 0; x < 4; x++) {
        s->n[x] = nn[x];
        memcpy(s->r[x], rk[x], (size_t)nn[x]);
        memcpy(s->e[x], lab[x], (size_t)nn[x]);
    }
    p_settle(s);
    return 1;
}

/* ``place``: where the card of rank r goes; ``s`` becomes the state after it. */
static int p_place(PState *s, int r, const int left[14]) {
    int q = p_take(s, r, -1);
    if (q >= 0) {
        s->cnt[q]++;
        p_settle(s);
        return P_HOME;
    }
    uint64_t claimed = p_claimed(s), below[52];
    p_below(s, below);
    uint64_t free_ = p_ahead(s, r) & ~claimed;
    int best = -1, empty_seen = 0;
    PState cand, keep;
    for (int j = 0; j < 4; j++) {
        if (!s->n[j]) {
            if (empty_seen) continue;
            empty_seen = 1;
        }
        uint64_t reach = s->n[j] ? p_reach(below, s->e[j][s->n[j] - 1]) : 0;
        for (int k = 0; k < 4; k++) {
            int e = k * 13 + PPOS[k][r];
            if (!(free_ >> e & 1) || (reach >> e & 1)) continue;
            int cost = p_scored(s, r, j, e, left, &cand);
            if (best < 0 || cost < best) {
                best = cost;
                keep = cand;
            }
        }
    }
    if (best >= 0) {
        *s = keep;
        return P_OPTION;
    }
    int idx[4] = {0, 1, 2, 3};
    for (int a = 1; a < 4; a++) { /* stable by pile size */
        int x = idx[a], b = a - 1;
        while (b >= 0 && s->n[idx[b]] > s->n[x]) {
            idx[b + 1] = idx[b];
            b--;
        }
        idx[b + 1] = x;
    }
    for (int a = 0; a < 4; a++) {
        int j = idx[a];
        if (s->n[j] < PNC && p_relabel_onto(s, r, j)) return P_RESCUE;
    }
    return P_LOST;
}

/* ``_label_on``: the card of rank r put on reserve j, labelled as the policy labels a
 * card put there (its best option there, else every reserve card labelled again), then
 * settled, with its option's cost (-1: relabelled); 0 when only a cycle is left. */
static int p_label_on(PState *s, int r, int j, const int left[14], int *cost_out) {
    *cost_out = -1;
    if (s->n[j] >= PNC) return 0;
    uint64_t claimed = p_claimed(s), below[52];
    p_below(s, below);
    uint64_t free_ = p_ahead(s, r) & ~claimed;
    uint64_t reach = s->n[j] ? p_reach(below, s->e[j][s->n[j] - 1]) : 0;
    int best = -1, be = -1;
    PState cand;
    for (int k = 0; k < 4; k++) {
        int e = k * 13 + PPOS[k][r];
        if (!(free_ >> e & 1) || (reach >> e & 1)) continue;
        int cost = p_scored(s, r, j, e, left, &cand);
        if (best < 0 || cost < best) {
            best = cost;
            be = e;
        }
    }
    if (be >= 0) {
        *cost_out = best;
        s->r[j][s->n[j]] = (uint8_t)r;
        s->e[j][s->n[j]++] = (uint8_t)be;
        p_settle(s);
        return 1;
    }
    return p_relabel_onto(s, r, j);
}

/* One playout from ``s0`` (copied): the reserve tops home first from ``last`` on, the
 * waste card (0: none), then the ranks of ``stock`` from its end. */
static int p_playout(const PState *s0, int last, int waste, const uint8_t *stock, int nstock,
                     const int left0[14]) {
    PState s = *s0;
    int left[14];
    memcpy(left, left0, sizeof left);
    while (p_settle_move(&s, last)) {
    }
    int r = waste, t = nstock;
    while (r || t > 0) {
        if (!r) {
            r = stock[--t];
            left[r]--;
        }
        if (p_place(&s, r, left) == P_LOST) return 0;
        r = 0;
    }
    return s.cnt[0] + s.cnt[1] + s.cnt[2] + s.cnt[3] == 52;
}

/* The i-th stock order of a seed: the unseen ranks, shuffled (Fisher-Yates). */
static int p_order(uint64_t seed, int i, const int left[14], uint8_t *out) {
    int n = 0;
    for (int r = 1; r < 14; r++)
        for (int c = 0; c < left[r]; c++) out[n++] = (uint8_t)r;
    uint64_t st = seed * 0x9E3779B97F4A7C15ULL + (uint64_t)i * 0xD1B54A32D192ED03ULL + 1;
    for (int a = n - 1; a > 0; a--) {
        int b = (int)(splitmix(&st) % (uint64_t)(a + 1));
        uint8_t x = out[a];
        out[a] = out[b];
        out[b] = x;
    }
    return n;
}
