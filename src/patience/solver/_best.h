/* The best-first search (best.py, state for state): the state that looks closest to
 * a win is opened first, wherever it lies. A state is not kept: each one made keeps
 * the moves into it and the state it was made from, and the search goes to a state by
 * undoing the current line back to where the two lines part and replaying the rest
 * (with each state's safe moves, as when it was made).
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

typedef struct {
    uint32_t parent;       /* the state it was made from (UINT32_MAX: the root) */
    uint32_t prim, nprims; /* its child's moves in the arena of moves */
} BNode;

typedef struct {
    int32_t rate;
    uint32_t node;
} BItem;

typedef struct {
    BNode *nodes;
    size_t nnodes, capnodes;
    Prim *prims;
    size_t nprims, capprims;
    BItem *heap;
    size_t nheap, capheap;
    uint32_t *line, *path; /* the nodes applied now, and the way to the next one */
    size_t *marks;         /* S->ndone before each node of ``line`` was applied */
    size_t nline, capline, cappath, capmarks;
} Best;

static int heap_less(BItem x, BItem y) { return x.rate < y.rate || (x.rate == y.rate && x.node < y.node); }

static int heap_push(Best *B, BItem it) {
    if (!grow((void **)&B->heap, &B->capheap, B->nheap + 1, sizeof(BItem))) return 0;
    size_t k = B->nheap++;
    while (k) {
        size_t up = (k - 1) / 2;
        if (!heap_less(it, B->heap[up])) break;
        B->heap[k] = B->heap[up];
        k = up;
    }
    B->heap[k] = it;
    return 1;
}

static BItem heap_pop(Best *B) {
    BItem top = B->heap[0], last = B->heap[--B->nheap];
    size_t k = 0, n = B->nheap;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && heap_less(B->heap[c + 1], B->heap[c])) c++;
        if (!heap_less(B->heap[c], last)) break;
        B->heap[k] = B->heap[c];
        k = c;
    }
    if (n) B->heap[k] = last;
    return top;
}

/* Go from the state the search is in to node ``to``: undo back to where the two lines
 * part, then make the moves of the rest, each node's safe moves after its own. */
static int goto_node(Search *S, Best *B, uint32_t to) {
    size_t n = 0;
    for (uint32_t i = to; i != UINT32_MAX; i = B->nodes[i].parent) {
        if (!grow((void **)&B->path, &B->cappath, n + 1, sizeof(uint32_t))) return 0;
        B->path[n++] = i;
    }
    if (!grow((void **)&B->line, &B->capline, n, sizeof(uint32_t)) ||
        !grow((void **)&B->marks, &B->capmarks, n, sizeof(size_t)))
        return 0;
    size_t same = 0; /* path is from ``to`` back to the root */
    while (same < B->nline && same < n && B->line[same] == B->path[n - 1 - same]) same++;
    if (same < B->nline) undo_to(S, B->marks[same]);
    B->nline = same;
    for (size_t k = same; k < n; k++) {
        BNode *nd = &B->nodes[B->path[n - 1 - k]];
        B->marks[k] = S->ndone;
        B->line[k] = B->path[n - 1 - k];
        B->nline = k + 1;
        for (uint32_t j = 0; j < nd->nprims; j++)
            if (!apply(S, B->prims[nd->prim + j])) return 0;
        do_auto(S);
    }
    return 1;
}

/* best.py's make(): the state the search is in, just made from ``parent`` by ``ch``
 * (NULL: the root), after its safe moves. WON (S->done is the line), STOP, or LOST
 * (nothing to do: a new state is recorded, a known one dropped). */
static int make_node(Search *S, Best *B, uint32_t parent, const Child *ch, int which) {
    State *s = &S->st;
    do_auto(S);
    if (S->oom) return STOP;
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return WON;
    if (finish(S)) return WON;
    uint64_t a, b;
    key(S, &a, &b);
    a = mixa(a);
    b = mixb(b);
    if (covers(S, a, b, 0)) return LOST;
    size_t np = ch ? (size_t)ch->nprims : 0;
    if (!add_key(S, a, b, 0) ||
        !grow((void **)&B->nodes, &B->capnodes, B->nnodes + 1, sizeof(BNode)) ||
        !grow((void **)&B->prims, &B->capprims, B->nprims + np, sizeof(Prim))) {
        S->oom = 1;
        return STOP;
    }
    S->states++;
    BNode nd = {parent, (uint32_t)B->nprims, (uint32_t)np};
    for (size_t j = 0; j < np; j++) B->prims[B->nprims++] = ch->prims[j];
    B->nodes[B->nnodes] = nd;
    BItem it = {bd_estimate(S, which), (uint32_t)B->nnodes++};
    if (!heap_push(B, it)) {
        S->oom = 1;
        return STOP;
    }
    return LOST;
}

/* best.search from the state the search is in, with estimate ``which``: WON (the line
 * is S->done), LOST (every state reachable was opened) or STOP. */
static int best_first(Search *S, int which) {
    Best B;
    memset(&B, 0, sizeof B);
    int ret = make_node(S, &B, UINT32_MAX, NULL, which);
    size_t root = S->ndone; /* the root's safe moves stay made */
    while (ret == LOST && B.nheap) {
        uint32_t i = heap_pop(&B).node;
        if (!goto_node(S, &B, i)) { /* only memory can fail it */
            S->oom = 1;
            ret = STOP;
            break;
        }
        size_t base = S->nkids;
        bd_children(S);
        size_t end = S->nkids, mark = S->ndone;
        for (size_t k = base; k < end && ret == LOST; k++) {
            Child *ch = &S->kids[k];
            int ok = 1;
            for (int j = 0; j < ch->nprims && ok; j++) ok = apply(S, ch->prims[j]);
            ret = ok ? make_node(S, &B, i, ch, which) : STOP;
            if (ret == WON) break;
            undo_to(S, mark);
            if (ret == LOST && budget_out(S)) ret = STOP;
        }
        S->nkids = base;
        if (S->oom) ret = STOP;
    }
    if (ret != WON) undo_to(S, root);
    free(B.nodes);
    free(B.prims);
    free(B.heap);
    free(B.line);
    free(B.path);
    free(B.marks);
    return ret;
}
