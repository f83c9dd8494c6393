/* FreeCell's native search (_freecell.c): best-first over canonical states, every state
 * kept whole (its exact key, 40 bytes, and the state it was made from), so that the
 * search is a proof: it meets each state once, and when no state is left to open,
 * every state reachable from the root was opened and none is won, the position is
 * lost. No hash of a key stands for the key (two states are never confused). */
#ifndef PATIENCE_FREECELL_SEARCH_H
#define PATIENCE_FREECELL_SEARCH_H

#include <stdlib.h>

enum { WON = 0, LOST = 1, UNKNOWN = 2 };

typedef struct {
    Key *key;         /* each state's key, in the order met */
    uint32_t *parent; /* the state it was made from (the root: itself) */
    uint32_t n, cap, max;
    uint32_t *slot; /* open addressing: a state's number + 1, 0 empty */
    size_t scap;
    uint64_t *heap; /* (estimate << 32) | ~number: the least estimate, then the newest */
    size_t hn, hcap;
    int w[5];       /* the estimate's weights (freecell.WEIGHTS) */
    double deadline, next_look;
    long long max_states;
    PyObject *cancel;
    PyThreadState *ts;
    int interrupted, oom, goal;
} Search;

static void search_free(Search *S) {
    free(S->key);
    free(S->parent);
    free(S->slot);
    free(S->heap);
}

static int slots_grow(Search *S) {
    size_t cap = S->scap ? S->scap * 2 : 1 << 16;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return 0;
    for (uint32_t i = 0; i < S->n; i++) {
        size_t h = (size_t)key_hash(&S->key[i]) & (cap - 1);
        while (slot[h]) h = (h + 1) & (cap - 1);
        slot[h] = i + 1;
    }
    free(S->slot);
    S->slot = slot;
    S->scap = cap;
    return 1;
}

static int nodes_grow(Search *S) {
    uint32_t cap = S->cap ? S->cap * 2 : 1 << 14;
    if (cap > S->max) cap = S->max;
    Key *key = realloc(S->key, (size_t)cap * sizeof *key);
    if (!key) return 0;
    S->key = key;
    uint32_t *parent = realloc(S->parent, (size_t)cap * sizeof *parent);
    if (!parent) return 0;
    S->parent = parent;
    S->cap = cap;
    return 1;
}

/* The number of a new state of key k made from ``parent``; -1 if it was met before, -2
 * when the states may not grow (the cap, or memory: S->oom). */
static int64_t remember(Search *S, const Key *k, uint32_t parent) {
    if ((S->n + 1) * 4 > S->scap * 3 && !slots_grow(S)) return S->oom = 1, -2;
    size_t h = (size_t)key_hash(k) & (S->scap - 1);
    while (S->slot[h]) {
        if (key_eq(&S->key[S->slot[h] - 1], k)) return -1;
        h = (h + 1) & (S->scap - 1);
    }
    if (S->n == S->cap) {
        if (S->cap >= S->max) return -2;
        if (!nodes_grow(S)) return S->oom = 1, -2;
    }
    S->key[S->n] = *k;
    S->parent[S->n] = parent;
    S->slot[h] = S->n + 1;
    return S->n++;
}

static int heap_push(Search *S, uint64_t v) {
    if (S->hn == S->hcap) {
        size_t cap = S->hcap ? S->hcap * 2 : 1 << 14;
        uint64_t *heap = realloc(S->heap, cap * sizeof *heap);
        if (!heap) return S->oom = 1, 0;
        S->heap = heap;
        S->hcap = cap;
    }
    size_t i = S->hn++;
    while (i) {
        size_t up = (i - 1) / 2;
        if (S->heap[up] <= v) break;
        S->heap[i] = S->heap[up];
        i = up;
    }
    S->heap[i] = v;
    return 1;
}

static uint64_t heap_pop(Search *S) {
    uint64_t top = S->heap[0], v = S->heap[--S->hn];
    size_t i = 0, n = S->hn;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && S->heap[c + 1] < S->heap[c]) c++;
        if (S->heap[c] >= v) break;
        S->heap[i] = S->heap[c];
        i = c;
    }
    if (n) S->heap[i] = v;
    return top;
}

/* How far s looks from a win (freecell.py's ``estimate``): the cards not home, the cards
 * lying on the next card of a suit to go home, the cards out of sequence, the free cells
 * in use, and (taken off) the empty cascades, weighed by S->w. */
static int estimate(const Search *S, const St *s) {
    int away = 52 - (s->home[0] + s->home[1] + s->home[2] + s->home[3]);
    int need = 0, unsorted = 0, cells = 0, empty = 0;
    for (int i = 0; i < 8; i++) {
        int n = s->len[i];
        if (!n) empty++;
        for (int k = 0; k < n; k++) {
            int c = s->col[i][k];
            if (rank_of(c) == s->home[suit_of(c)] + 1) need += n - 1 - k;
            if (k && !fits(c, s->col[i][k - 1])) unsorted++;
        }
    }
    for (int k = 0; k < 4; k++) cells += s->cell[k] != NONE;
    const int *w = S->w;
    return w[0] * away + w[1] * need + w[2] * unsorted + w[3] * cells - w[4] * empty;
}

static inline uint64_t heap_entry(int est, uint32_t number) {
    return ((uint64_t)(uint32_t)(est + (1 << 20)) << 32) | (uint32_t)~number;
}

/* Whether the searches must stop now, ``met`` states met in all: out of states or
 * time, or the caller said so (looked at every 20 ms). */
static int must_stop(Search *S, long long met) {
    if (S->max_states >= 0 && met >= S->max_states) return 1;
    double t = now();
    if (t >= S->deadline) return 1;
    if (t >= S->next_look) {
        S->next_look = t + 0.02;
        if (caller_stops(S->cancel, &S->ts, &S->interrupted)) return 1;
    }
    return 0;
}

/* The children of state number ``at``: each new one kept and queued; WON when one is
 * won (S->goal), UNKNOWN when the states may not grow, else LOST (nothing won here). */
static int expand(Search *S, uint32_t at) {
    St s, t;
    Mv moves[MAXMOVES];
    state_of(&S->key[at], &s);
    int n = gen_moves(&s, moves);
    for (int i = 0; i < n; i++) {
        t = s;
        apply(&t, moves[i]);
        autos(&t, NULL);
        Key k = key_of(&t);
        int64_t got = remember(S, &k, at);
        if (got == -1) continue;
        if (got == -2) return UNKNOWN;
        if (won(&t)) {
            S->goal = (int)got;
            return WON;
        }
        if (!heap_push(S, heap_entry(estimate(S, &t), (uint32_t)got))) return UNKNOWN;
    }
    return LOST;
}

/* The root (its safe moves made) as state 0 of S; WON if it is won already, UNKNOWN if
 * memory ran out, else LOST (go on). */
static int start(Search *S, const St *root) {
    St r = *root;
    autos(&r, NULL);
    Key k = key_of(&r);
    if (remember(S, &k, 0) < 0) return UNKNOWN;
    if (won(&r)) return S->goal = 0, WON;
    if (!heap_push(S, heap_entry(estimate(S, &r), 0))) return UNKNOWN;
    return LOST;
}

/* Open at most ``count`` states of S, best first: WON (S->goal the won state), LOST when
 * every state reachable from the root was opened (no state left), UNKNOWN when out of
 * states or memory, else -1 (go on). */
static int steps(Search *S, long count) {
    while (count-- > 0) {
        if (!S->hn) return LOST;
        uint32_t at = ~(uint32_t)heap_pop(S);
        int v = expand(S, at);
        if (v != LOST) return v;
    }
    return S->hn ? -1 : LOST;
}

/* The states the searches met, in all. */
static long long stored(Search **S, int n) {
    long long total = 0;
    for (int i = 0; i < n; i++) total += S[i]->n;
    return total;
}

#define SLICE 256 /* states each search opens in its turn */

/* The searches S[0..n-1], one per estimate, from the same root: the first alone for its
 * first ``first`` states (it wins most deals by then), then all in turns of SLICE states.
 * The first to win or to prove the loss answers (each is a whole search by itself);
 * UNKNOWN when each ran out of states or memory, or the time or the caller stopped it.
 * *which is the search that answered. */
static int portfolio(Search **S, int n, const St *root, long first, int *which) {
    for (int i = 0; i < n; i++) {
        int v = start(S[i], root);
        if (v != LOST) return *which = i, v;
    }
    int alive = n, done[MAXSEARCH] = {0};
    long opened = 0;
    for (int turn = 0; alive; turn++) {
        int i = opened < first && !done[0] ? 0 : turn % n;
        if (done[i]) continue;
        if (turn % n == 0 && must_stop(S[0], stored(S, n))) return UNKNOWN;
        int v = steps(S[i], SLICE);
        opened += SLICE;
        if (v == WON || v == LOST) return *which = i, v;
        if (v == UNKNOWN) done[i] = 1, alive--;
        if (S[i]->oom) return UNKNOWN;
    }
    return UNKNOWN;
}

/* Write move m, made on the real state r, for the engine: (src, dst, count), a move home
 * named by its foundation's slot, an Ace going to the first empty one (as the engine's
 * first move home). */
static int emit_move(St *r, int8_t *slot, Mv m, uint8_t *out, int n) {
    int dst = m.dst;
    if (dst >= HOMEPILE) {
        int s = suit_of(moved_card(r, m));
        if (slot[s] < 0) {
            int used[4] = {0}, f = 0;
            for (int q = 0; q < 4; q++)
                if (slot[q] >= 0) used[slot[q]] = 1;
            while (used[f]) f++;
            slot[s] = (int8_t)f;
        }
        dst = HOMEPILE + slot[s];
    }
    out[3 * n] = m.src;
    out[3 * n + 1] = (uint8_t)dst;
    out[3 * n + 2] = m.n;
    apply(r, m);
    return n + 1;
}

static int emit_autos(St *r, int8_t *slot, uint8_t *out, int n) {
    Mv rec[52];
    St t = *r;
    int k = autos(&t, rec);
    for (int i = 0; i < k; i++) n = emit_move(r, slot, rec[i], out, n);
    return n;
}

/* The move from r whose child has key ``want``, then its safe moves; -1 if none has. */
static int emit_step(St *r, int8_t *slot, const Key *want, uint8_t *out, int n) {
    Mv moves[MAXMOVES];
    int m = gen_moves(r, moves);
    for (int i = 0; i < m; i++) {
        St t = *r;
        apply(&t, moves[i]);
        autos(&t, NULL);
        Key k = key_of(&t);
        if (!key_eq(&k, want)) continue;
        n = emit_move(r, slot, moves[i], out, n);
        return emit_autos(r, slot, out, n);
    }
    return -1;
}

/* The line to S->goal for the engine, into *line (malloc'd): from the real root (its
 * piles in their real places), at each state of the path the move whose child (its safe
 * moves made) has the path's next key, then those safe moves. The count of moves, or -1
 * if the path cannot be followed (a bug: the caller says so) or memory ran out. */
static int write_line(Search *S, const St *root, const int8_t *slot0, uint8_t **line) {
    int depth = 0;
    for (uint32_t x = (uint32_t)S->goal; x; x = S->parent[x]) depth++;
    uint32_t *path = malloc(((size_t)depth + 1) * sizeof *path);
    uint8_t *out = malloc(3 * ((size_t)depth + 53));
    *line = out;
    if (!path || !out) {
        free(path);
        return S->oom = 1, -1;
    }
    int d = depth;
    for (uint32_t x = (uint32_t)S->goal; d > 0; x = S->parent[x]) path[--d] = x;
    int8_t slot[4];
    memcpy(slot, slot0, sizeof slot);
    St r = *root;
    int n = emit_autos(&r, slot, out, 0);
    for (int step = 0; step < depth && n >= 0; step++)
        n = emit_step(&r, slot, &S->key[path[step]], out, n);
    free(path);
    return n;
}

#endif
