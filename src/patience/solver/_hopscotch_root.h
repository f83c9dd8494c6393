/* The Hopscotch search's root and passes: the labellings of the reserve cards
 * already dealt, one pass over them, the pass schedule (``schedule.Schedule``'s
 * data, given by the caller) and the winning line as move codes.
 * Part of the _hopscotch module: included once, in order, by _hopscotch.c (one
 * translation unit, so the compiler inlines across these files). */

/* --------------------------------------------------------------- the root */

/* The nearest labelled card under height ``h`` of reserve ``j`` (-1: none). */
static int below(const Search *S, int j, int h) {
    for (int x = h - 1; x >= 0; x--)
        if (S->lab[j][x] >= 0) return S->lab[j][x];
    return -1;
}

/* Whether labelling (j, h) with ``e`` closes a cycle (the labelling so far has none):
 * hopscotch_labels.py's closes_cycle. */
static int closes_cycle(const Search *S, int e, int j, int h) {
    int k = e >> 4, i = e & 15;
    uint64_t before = 0, seen = 0;
    int todo[1024], nt = 0;
    for (int x = h + 1; x < S->nres0[j]; x++)
        if (S->lab[j][x] >= 0) before |= 1ULL << S->lab[j][x];
    for (int i2 = 1; i2 < 13; i2++) {
        int x = k * 16 + i2;
        if (S->lj[x] < 0) continue;
        if (i2 < i)
            before |= 1ULL << x;
        else if (i2 > i)
            todo[nt++] = x;
    }
    int down = below(S, j, h);
    if (down >= 0) todo[nt++] = down;
    while (nt) {
        int y = todo[--nt];
        if (before >> y & 1) return 1;
        if (seen >> y & 1) continue;
        seen |= 1ULL << y;
        int z = below(S, S->lj[y], S->lh[y]);
        if (z >= 0 && nt < 1024) todo[nt++] = z;
        int ky = y >> 4;
        for (int i2 = (y & 15) + 1; i2 < 13 && nt < 1024; i2++) {
            int x = ky * 16 + i2;
            if (S->lj[x] >= 0 && !(seen >> x & 1)) todo[nt++] = x;
        }
    }
    return 0;
}

/* Every acyclic labelling of the reserve cards, likeliest first (hopscotch_labels.py's
 * labellings), one at a time: the enumeration is resumable, so it runs once for the
 * whole search, not once per pass (on a position with many reserve cards it can cost
 * far more than the passes' searches), and the first labellings are kept for the
 * discrepancy passes, which use only the first few. The order is the Python's.
 *
 * Labels the next labelling in ``lab``: 1, or 0 when there is none left, or STOP (-1)
 * when the time ran out (the enumeration resumes where it stood). */
static void unlabel(Search *S, int d) {
    int j = S->spot_j[d], h = S->spot_h[d], e = S->lab[j][h];
    S->lj[e] = S->lh[e] = -1;
    S->lab[j][h] = -1;
}

static int next_labelling(Search *S) {
    int d = S->edepth;
    if (S->efound) { /* go on from the last labelling */
        S->efound = 0;
        if (d == 0) {
            S->edone = 1;
            return 0;
        }
        d--;
        unlabel(S, d);
        S->eq[d]++;
    }
    for (;;) {
        if (d == S->nspots) {
            S->edepth = d;
            S->efound = 1;
            return 1;
        }
        if (S->eq[d] >= S->nopt[d]) {
            if (d == 0) {
                S->edepth = 0;
                S->edone = 1;
                return 0;
            }
            d--;
            unlabel(S, d);
            S->eq[d]++;
            continue;
        }
        int e = S->opt[d][S->eq[d]], j = S->spot_j[d], h = S->spot_h[d];
        if (S->lj[e] >= 0) {
            S->eq[d]++;
            continue;
        }
        S->work++;
        if ((S->work & 63) == 0 && tick(S)) {
            S->edepth = d;
            return -1;
        }
        if (closes_cycle(S, e, j, h)) {
            S->eq[d]++;
            continue;
        }
        S->lab[j][h] = e;
        S->lj[e] = j;
        S->lh[e] = h;
        d++;
        S->eq[d] = 0;
    }
}

static void restart_labellings(Search *S) {
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < NCARDS; h++) S->lab[j][h] = -1;
    for (int e = 0; e < 64; e++) S->lj[e] = S->lh[e] = -1;
    S->edepth = S->efound = S->edone = 0;
    S->eq[0] = 0;
    S->nmade = 0;
}

/* Labelling ``i`` (asked for in order from 0 in each pass) into ``out``: 1, 0 when
 * there are only ``i``, or -1 (STOP). */
static int labelling(Search *S, long long i, uint8_t out[4][NCARDS]) {
    if (i < S->ncache) {
        memcpy(out, S->cache[i], sizeof S->cache[i]);
        return 1;
    }
    if (i < S->nmade) restart_labellings(S); /* past the cache: only a last pass gets here */
    while (S->nmade <= i) {
        if (S->edone) return 0;
        int r = next_labelling(S);
        if (r <= 0) return r;
        if (S->nmade == S->ncache && S->ncache < CACHE) {
            for (int j = 0; j < 4; j++)
                for (int h = 0; h < S->nres0[j]; h++) S->cache[S->ncache][j][h] = (uint8_t)S->lab[j][h];
            S->ncache++;
        }
        S->nmade++;
    }
    for (int j = 0; j < 4; j++)
        for (int h = 0; h < S->nres0[j]; h++) out[j][h] = (uint8_t)S->lab[j][h];
    return 1;
}

/* One pass (limit < 0: exhaustive): WON, LOST (proven), or UNKNOWN (cut short by its
 * discrepancy limit or its time), or STOP (the whole search must stop). hopscotch_labels.py's
 * pass_: labelling i is searched with i discrepancies fewer, and the pass is cut when
 * a labelling beyond its limit exists. */
static int pass(Search *S, int limit, double deadline) {
    memo_reset(S);
    if (S->oom) return STOP;
    S->cut = 0;
    S->limited = limit >= 0;
    S->pass_deadline = deadline;
    int left = limit >= 0 ? limit : BIG;
    uint8_t root[4][NCARDS];
    for (long long i = 0;; i++) {
        int got = labelling(S, i, root);
        if (got < 0) return stopped(S) ? STOP : UNKNOWN;
        if (got == 0) break;
        if (i > left) {
            S->cut = 1;
            break;
        }
        for (int k = 0; k < 4; k++) S->ptr[k] = S->ptr0[k];
        for (int j = 0; j < 4; j++) S->len[j] = S->nres0[j];
        memcpy(S->res, root, sizeof root);
        int r = dfs(S, 0, S->limited ? left - (int)i : left);
        if (r == WON) {
            memcpy(S->win_res, root, sizeof root);
            return WON;
        }
        if (r == STOP) return stopped(S) ? STOP : UNKNOWN;
    }
    return S->cut ? UNKNOWN : LOST;
}

/* schedule.run, as the caller's Schedule gives it: plain passes, probes, the exhaustive
 * pass. */
static int run(Search *S, double seconds) {
    double start = now();
    S->deadline = start + seconds;
    double lds_end = start + seconds * S->lds_share;
    S->next_poll = start;
    int r;
    for (int limit = 0; limit < S->plain; limit++) {
        if (now() >= lds_end) break;
        r = pass(S, limit, lds_end < S->deadline ? lds_end : S->deadline);
        if (r == WON || r == LOST) return r;
        if (r == STOP) return UNKNOWN;
    }
    S->noisy = 1;
    S->rng = 0;
    for (;;) {
        double t = now();
        if (t >= lds_end) break;
        r = pass(S, S->probe, lds_end < t + S->slice ? lds_end : t + S->slice);
        if (r == WON || r == LOST) return r;
        if (r == STOP) return UNKNOWN;
    }
    S->noisy = 0;
    r = pass(S, -1, S->deadline);
    return r == STOP ? UNKNOWN : r;
}

/* The winning line as move codes (hopscotch_labels.py's moves). */
static int emit(Search *S, uint8_t *out) {
    uint8_t piles[NCARDS], ev[NCARDS];
    int n = 0;
    for (int k = 0; k < 4; k++) S->ptr[k] = S->ptr0[k];
    for (int j = 0; j < 4; j++) S->len[j] = S->nres0[j];
    memcpy(S->res, S->win_res, sizeof S->res);
    int m = settle(S, piles, ev);
    for (int q = 0; q < m; q++) out[n++] = (uint8_t)(R_TO_F + 4 * piles[q] + (ev[q] >> 4));
    for (int s = 0; s < S->n; s++) {
        if (s || !S->waste_first) out[n++] = DEAL;
        int j = S->path_j[s], e = S->path_e[s];
        if (j < 0) {
            S->ptr[e >> 4]++;
            out[n++] = (uint8_t)(W_TO_F + (e >> 4));
        } else {
            S->res[j][S->len[j]++] = (uint8_t)e;
            out[n++] = (uint8_t)(W_TO_R + j);
        }
        m = settle(S, piles, ev);
        for (int q = 0; q < m; q++) out[n++] = (uint8_t)(R_TO_F + 4 * piles[q] + (ev[q] >> 4));
    }
    return n;
}
