/* Baker's Dozen: its safe moves, dead positions and children.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* ------------------------------------------------------ Baker's Dozen
 * BakersDozenAdapter's auto, dead and children (the proofs are in bakers_dozen.py). */

/* Whether card c goes home at once (BakersDozenAdapter.auto): it is the next card of
 * its suit, and every card of the rank below is home. */
static inline int bd_safe(const int *h, int c) {
    int low = h[0], r = RANK[c];
    for (int su = 1; su < 4; su++)
        if (h[su] < low) low = h[su];
    return h[SUIT[c]] == r - 1 && (low >= r - 1 || r == 1);
}

static int bd_auto(Search *S) {
    State *s = &S->st;
    int made = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            if (!s->len[i] || !bd_safe(s->h, s->tab[i][s->len[i] - 1])) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return made;
            made++;
            progress = 1;
        }
    }
    return made;
}

/* A card's parents: rank + 1, any suit or (other_suit) another suit. */
static inline int bd_parent_of(int other_suit, int c, int q) {
    return RANK[q] == RANK[c] + 1 && !(other_suit && SUIT[q] == SUIT[c]);
}

/* BakersDozenAdapter.dead on these piles and cards home: whether the relaxation R
 * cannot empty the piles. */
static int bd_dead_piles(const uint8_t (*tab)[MAXPILE], const int *len, const int *home,
                         int other_suit, int kings_move) {
    int avail[52], gone[52], top[13], hh[4];
    memset(avail, 0, sizeof avail);
    memset(gone, 0, sizeof gone);
    int king_room = 0;
    for (int i = 0; i < 13; i++) {
        top[i] = len[i];
        if (top[i])
            avail[tab[i][top[i] - 1]] = 1;
        else
            king_room = kings_move;
    }
    for (int su = 0; su < 4; su++) {
        hh[su] = home[su];
        for (int r = 0; r < home[su]; r++) gone[su * 13 + r] = 1;
    }
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 13; i++) {
            int n = top[i];
            if (!n) continue;
            while (n) {
                int c = tab[i][n - 1], su = SUIT[c];
                if (hh[su] == c % 13) {
                    gone[c] = 1;
                    int k = hh[su] + 1;
                    while (k < 13 && gone[su * 13 + k]) k++;
                    hh[su] = k;
                } else {
                    int ok = 0;
                    if (RANK[c] < 13)
                        for (int t = 0; t < 4 && !ok; t++) {
                            int q = t * 13 + RANK[c];
                            if (bd_parent_of(other_suit, c, q) && avail[q]) ok = 1;
                        }
                    if (!ok && !(king_room && RANK[c] == 13)) break;
                    gone[c] = 1;
                }
                n--;
                if (n) avail[tab[i][n - 1]] = 1;
            }
            if (n != top[i]) {
                top[i] = n;
                progress = 1;
                if (!n) king_room = kings_move;
            }
        }
    }
    for (int i = 0; i < 13; i++)
        if (top[i]) return 1;
    return 0;
}

static int bd_dead(const Search *S) {
    const State *s = &S->st;
    return bd_dead_piles(s->tab, s->len, s->h, S->other_suit, S->kings_move);
}

/* BakersDozenAdapter.estimate: how far the state looks from a win (lower: closer). */
static int bd_estimate_piles(const uint8_t (*tab)[MAXPILE], const int *len, const int *h,
                             int which) {
    int away = 52 - (h[0] + h[1] + h[2] + h[3]), block = 0, need = 0;
    for (int i = 0; i < 13; i++) {
        int lowest[4] = {99, 99, 99, 99}, n = len[i];
        for (int k = 0; k < n; k++) {
            int c = tab[i][k], su = SUIT[c], r = RANK[c];
            if (r > lowest[su])
                block++;
            else
                lowest[su] = r;
            if (r == h[su] + 1) need += n - 1 - k;
        }
    }
    switch (which) {
    case 0: return away + 2 * block;
    case 1: return away + block + need;
    case 2: return away + need;
    case 3: return away + 4 * block + need;
    default: return 2 * away + block + need;
    }
}

static int bd_estimate(const Search *S, int which) {
    return bd_estimate_piles(S->st.tab, S->st.len, S->st.h, which);
}

static void bd_children(Search *S) {
    State *s = &S->st;
    size_t base0 = S->nkids;
    if (S->prune && bd_dead(S)) return;
    int urgency[13], under[13], empties[13], nempty = 0, loose_kings = 0;
    int by_rank[15][13], nby[15];
    memset(nby, 0, sizeof nby);
    for (int i = 0; i < 13; i++) {
        int n = s->len[i];
        urgency[i] = 99;
        under[i] = 0;
        if (!n) {
            empties[nempty++] = i;
            continue;
        }
        for (int k = 0; k < n; k++) {
            int c = s->tab[i][k], d = RANK[c] - s->h[SUIT[c]];
            if (d < urgency[i]) urgency[i] = d;
            if (k < n - 1 && (k == 0 || d < under[i])) under[i] = d;
            if (k > 0 && S->kings_move && RANK[c] == 13) loose_kings++;
        }
        int r = RANK[s->tab[i][n - 1]];
        by_rank[r][nby[r]++] = i;
    }
    int may_empty = !S->prune || (S->kings_move && nempty < loose_kings);
    for (int i = 0; i < 13; i++) {
        int n = s->len[i];
        if (!n) continue;
        int c = s->tab[i][n - 1], r = RANK[c], su = SUIT[c];
        if (s->h[su] == r - 1) {
            Prim m = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            add_plain(S, m, 0, 0, NOTAG);
        }
        if (n == 1 && !may_empty) continue;
        if (r == 13) {
            if (S->kings_move && nempty && n > 1) {
                Prim m = {P_TT, (uint8_t)i, (uint8_t)empties[0], 1, 0, 0};
                add_plain(S, m, 1 + 4 * under[i], 0, NOTAG);
            }
            continue;
        }
        int base = 1 + 4 * under[i];
        if (n > 1) {
            int u = s->tab[i][n - 2];
            if (s->h[SUIT[u]] == RANK[u] - 1) base = 1;
        }
        for (int k = 0; k < nby[r + 1]; k++) {
            int j = by_rank[r + 1][k], dest = s->tab[j][s->len[j] - 1];
            if (S->other_suit && SUIT[dest] == su) continue;
            int score = base + (14 - urgency[j] > 0 ? 14 - urgency[j] : 0);
            if (S->jitter) score += (int)(splitmix(&S->jitter) % 8);
            if (SUIT[dest] == su) score = score - 3 > 1 ? score - 3 : 1;
            if (S->shuffle) score = 1 + (int)(splitmix(&S->jitter) % 64);
            Prim m = {P_TT, (uint8_t)i, (uint8_t)j, 1, 0, 0};
            add_plain(S, m, score, 0, NOTAG);
        }
    }
    sort_kids(S, base0);
}
