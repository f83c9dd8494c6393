/* The search itself: each game's Rules, the finish shortcut, the
 * transposition table's use (with the line's states kept apart), the budget, and
 * the depth-first search with its discrepancy limit.
 * Part of the _tableau module: included once, in order, by _tableau.c (one
 * translation unit, so the compiler inlines across these files). */

/* Klondike's moves home made at once (KlondikeAdapter.auto): the safe ones, and with
 * the cuts on every top card that would come straight back, and with one card a deal
 * the waste's top card, or with unlimited redeals every card of the stock and waste
 * (dealt up first), when every card two ranks below it is home. */
static int kl_auto(Search *S) {
    State *s = &S->st;
    int made = 0, progress = 1, pool = S->prune && S->draw == 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < 7; i++) {
            if (!s->len[i]) continue;
            int c = s->tab[i][s->len[i] - 1], r = s->rel[c];
            if (s->h[SUIT[c]] != r - 1) continue;
            if (!is_safe(c, r, s->h) && !(S->prune && comes_back(s, i))) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return made;
            made++;
            progress = 1;
        }
        /* The stock cycle's cards that may go home: with unlimited redeals all, dealt
         * up first; with a limit the waste's top alone. */
        int first = S->limit < 0 || !s->ptr ? 0 : s->ptr - 1;
        int end = !pool ? 0 : S->limit < 0 ? s->nseq : s->ptr;
        for (int k = first; k < end; k++) {
            int c = s->seq[k], r = s->rel[c];
            if (s->h[SUIT[c]] != r - 1 || !below_home(r, s->h)) continue;
            int deals = k + 1 - s->ptr, redeals = s->redeals;
            if (k < s->ptr - 1) { /* deal to the end, turn the waste over, deal up to it */
                deals = s->nseq - s->ptr + k + 2;
                redeals++;
            }
            Prim p = {P_WF, (uint8_t)k, 0, 1, (uint8_t)deals, (uint8_t)redeals};
            if (!apply(S, p)) return made;
            made++;
            progress = 1;
            break;
        }
    }
    return made;
}

/* ------------------------------------------------------ the games */

static void bd_children_any(Search *S, int tag) {
    (void)tag; /* Baker's Dozen has no obligations */
    bd_children(S);
}

/* Each game's Rules (_tableau_state.h), one of which a search is given when it is made
 * (_tableau.c): Klondike by the cards a deal, which its relaxed games deal as they come. */
static const Rules KLONDIKE1 = {
    .autoplay = kl_auto, .children = children, .waste_stacked = kl_waste_stacked,
    .played_out = kl1_played_out, .reserves_key = no_reserves_key,
    .builds_from_outside = kl_builds_from_outside, .build_score = 6};
static const Rules KLONDIKE3 = {
    .autoplay = kl_auto, .children = children, .waste_stacked = kl_waste_stacked,
    .played_out = kl3_played_out, .reserves_key = no_reserves_key,
    .builds_from_outside = kl_builds_from_outside, .build_score = 6};
static const Rules LADY_JANE = {
    .autoplay = lj_auto, .children = lj_children, .waste_stacked = lj_waste_stacked,
    .played_out = lj_game_played_out, .reserves_key = stacks_hash,
    .builds_from_outside = lj_builds_from_outside, .build_score = 60};
/* No relaxed games, no returns: only its safe moves, children and key. */
static const Rules BAKERS_DOZEN = {
    .autoplay = bd_auto, .children = bd_children_any, .reserves_key = no_reserves_key};

/* The game's safe moves home (its ``auto``): how many were made. */
static int do_auto(Search *S) { return S->rules->autoplay(S); }

/* With no stock, no waste and no face-down card: play home until stuck (finish). */
static int finish(Search *S) {
    State *s = &S->st;
    if (s->nseq || s->nstock) return 0;
    for (int i = 0; i < 8; i++)
        if (s->nres[i]) return 0;
    for (int i = 0; i < s->npiles; i++)
        if (s->down[i]) return 0;
    size_t mark = S->ndone;
    int progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < s->npiles; i++) {
            if (!s->len[i]) continue;
            int c = s->tab[i][s->len[i] - 1];
            if (s->h[SUIT[c]] != s->rel[c] - 1) continue;
            Prim p = {P_TF, (uint8_t)i, 0, 1, 0, 0};
            if (!apply(S, p)) return 0;
            progress = 1;
        }
    }
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return 1;
    undo_to(S, mark);
    return 0;
}

/* ------------------------------------------------------ the table */

/* Start loading where key ``a`` lies in both tables: the lookups then wait for memory
 * together rather than one after the other. Always inlined: GCC 12 found the function
 * free of effects and dropped every call to it (the module had no prefetch of the
 * table until key_children). */
__attribute__((always_inline)) static inline void prefetch(Search *S, uint64_t a) {
    __builtin_prefetch(&S->tnew.e[(size_t)a & (S->tnew.cap - 1)]);
    __builtin_prefetch(&S->told.e[(size_t)a & (S->told.cap - 1)]);
}

/* Whether the search prunes a draw-3 state that another state it searched dominates
 * (node_key; _tableau.dominance() sets it, for the test that the cut changes no
 * verdict). */
static int DOMINANCE = 1;

/* Klondike and Lady Jane with the cuts (alternating.arrangement): the key of the
 * state's arrangement, as if each face-up card that lies on one of its two parents
 * while the other is a pile's top lay, with the cards above it, on the lower-numbered
 * parent. The piles so moved are copied and hashed in place of the state's own, their
 * sums moved with the runs (a run's terms, not both piles' walks). */
static void canon_key(Search *S, uint64_t *a, uint64_t *b) {
    State *s = &S->st;
    key(S, a, b); /* also brings State.twin up to date */
    uint8_t t[7][MAXPILE];
    const uint8_t *pile[7];
    int len[7];
    unsigned moved = 0;
    uint64_t tops = 0, want[7], xs[7], ys[7]; /* each pile's sums (State.sa, sb) */
    for (int i = 0; i < 7; i++) {
        xs[i] = s->sa[i];
        ys[i] = s->sb[i];
        pile[i] = s->tab[i];
        len[i] = s->len[i];
        want[i] = s->twin[i];
        if (len[i]) tops |= 1ULL << pile[i][len[i] - 1];
    }
    for (int i = 0; i < 7; i++) {
        if (!(want[i] & tops)) continue;
        int k = s->down[i] + 1, o = 0;
        uint64_t below = 0, run = 0; /* the twin bits of the cards below k, and above */
        for (;; k++) { /* the first card whose twin parent is a pile's top */
            o = twin_of(s, pile[i][k], pile[i][k - 1]);
            if (o < 0) continue;
            if (tops >> o & 1) break;
            below |= 1ULL << o;
        }
        int j = 0;
        while (!len[j] || pile[j][len[j] - 1] != o) j++;
        for (int u = 0; u < 2; u++) {
            int x = u ? j : i;
            if (!(moved >> x & 1)) memcpy(t[x], s->tab[x], (size_t)len[x]);
            pile[x] = t[x];
            moved |= 1u << x;
        }
        int p = t[i][k - 1];
        /* The run's terms from its place to its new one. */
        for (int q = k; q < len[i]; q++) {
            int c = t[i][q], to = len[j] + q - k;
            xs[i] -= RA[q][c];
            ys[i] -= RB[q][c];
            xs[j] += RA[to][c];
            ys[j] += RB[to][c];
            int u = q > k ? twin_of(s, c, t[i][q - 1]) : -1;
            if (u >= 0) run |= 1ULL << u;
        }
        memcpy(&t[j][len[j]], &t[i][k], (size_t)(len[i] - k));
        len[j] += len[i] - k;
        len[i] = k;
        tops = (tops & ~(1ULL << o)) | 1ULL << p;
        /* The run's first card lies on its lower parent now: no bit; the rest keep
         * theirs (twins_wanted of both piles, without their walks). */
        want[i] = below;
        want[j] |= run;
#ifdef CHECK_KEYS
        if (want[i] != twins_wanted(s, t[i], len[i], s->down[i]) ||
            want[j] != twins_wanted(s, t[j], len[j], s->down[j]))
            abort();
#endif
        i = -1; /* from the first pile again */
    }
    unsigned walked = 0;
    if (RUN_SWAPS && (S->rules == &KLONDIKE1 || S->rules == &KLONDIKE3))
        walked = swap_runs(s, t, pile, len, want, &moved);
    for (int i = 0; i < 7; i++) {
        if (!(moved >> i & 1)) continue;
        uint64_t x = 0, y = 0;
        if (walked >> i & 1) /* a swap changed it: its part afresh */
            add_cards(t[i], len[i], s->down[i], &x, &y);
        else
            pile_part(xs[i], ys[i], len[i], s->down[i], &x, &y);
#ifdef CHECK_KEYS
        uint64_t cx = 0, cy = 0;
        add_cards(t[i], len[i], s->down[i], &cx, &cy);
        if (cx != x || cy != y) abort();
#endif
        *a += x - s->pha[i];
        *b += y - s->phb[i];
    }
}

static int covers(Search *S, uint64_t a, uint64_t b, int32_t cost) {
    Entry *e = table_find(&S->tnew, a, b);
    if (!e->b) e = table_find(&S->told, a, b);
    return e->b && entry_val(e) <= cost;
}

static int add_key(Search *S, uint64_t a, uint64_t b, int32_t cost) {
    if (!table_put(&S->tnew, a, b, cost, S->half)) return 0;
    if (S->tnew.count >= S->half) {
        Table t = S->told;
        S->told = S->tnew;
        S->tnew = t;
        table_clear(&S->tnew);
        for (size_t k = 0; k < S->npath; k++)
            if (!table_put(&S->tnew, S->path[k].a, S->path[k].b, S->path[k].cost, S->half))
                return 0;
    }
    return 1;
}

static int push_path(Search *S, uint64_t a, uint64_t b, int32_t c) {
    if (!grow((void **)&S->path, &S->cappath, S->npath + 1, sizeof(PathKey))) return 0;
    S->path[S->npath++] = (PathKey){a, b, c};
    return 1;
}

/* Whether the search must stop: its states or time are spent, the caller's cancel
 * event is set, or Ctrl-C was pressed (in the main thread: run then raises
 * KeyboardInterrupt, as the Python search would). The interpreter is taken back to
 * look at the event and the signals only every 20 ms: a thread that holds it (the
 * web server's) makes each look wait. */
static int budget_out(Search *S) {
    if (S->max_states >= 0 && S->states > S->max_states) return 1;
    if ((S->states & 1023) == 0) {
        double t = now();
        if (t > S->deadline) return 1;
        if (t >= S->next_poll) {
            S->next_poll = t + 0.02;
            if (caller_stops(S->cancel, &S->ts, &S->interrupted)) return 1;
        }
    }
    return 0;
}

enum { OPEN = 5 }; /* open_node: the node has children to search */

/* Whether an obligation is that of a move of a run to its parent's twin (children()). */
static inline int twin_tag(int tag) { return tag >= SWITCH && tag < SWITCH + 52; }

/* The node after a run moved from its parent to the parent's twin (obligation: the
 * card it left free, ``card``), as dfs.py's enter() opens it. Its state has its
 * parent's key (canon_key), and only its parent's search makes it: a move to a twin
 * is the one tableau move that leaves that card free without turning a card, so no
 * other line reaches this state under this obligation, and it is not tabled. Of its
 * children, the one by a move to a twin is the run moved back (a run that fits on the
 * card freed lay on neither of its two parents: the card was covered by this run, its
 * twin was a pile's top), whose children are the parent's own: it is left out. A cycle
 * through this node runs through its children, which are tabled. */
static int open_twin(Search *S, int card, size_t *base) {
    S->tabled = 0;
    S->states++;
    if (budget_out(S)) return STOP;
    *base = S->nkids;
    S->rules->children(S, card);
    size_t kept = *base;
    for (size_t k = *base; k < S->nkids; k++)
        if (!twin_tag(S->kids[k].tag)) S->kids[kept++] = S->kids[k];
    S->nkids = kept;
    return S->oom ? STOP : OPEN;
}

/* dfs.py's enter(), its first part: the safe moves home, then whether the node is won:
 * WON, STOP (out of memory), or OPEN to go on (``*tag`` is NOTAG if a move home was
 * made: the obligation is met). */
static int settle_node(Search *S, int *tag) {
    State *s = &S->st;
    if (do_auto(S)) *tag = NOTAG;
    if (S->oom) return STOP;
    if (s->h[0] + s->h[1] + s->h[2] + s->h[3] == 52) return WON;
    if (finish(S)) return WON;
    return OPEN;
}

/* The key and cost of the node the state is in (reached under ``tag``, ``left``
 * discrepancies left), its places in both tables fetched. */
static void node_key(Search *S, int tag, int left, NodeKey *k) {
    uint64_t a, b;
    if (S->canon)
        canon_key(S, &a, &b);
    else
        key(S, &a, &b);
    if (S->lds) {
        int c = stock_cost(S);
        if (c) {
            a = mixa(a + 0x51ED270B27A3ULL * (uint64_t)(c + 1));
            b = mixb(b ^ 0x2545F4914F6CDD1DULL * (uint64_t)(c + 3));
        }
        k->cost = -left;
    } else {
        k->cost = stock_cost(S);
    }
    k->dominated = 0;
    if (DOMINANCE && S->prune && S->rules == &KLONDIKE3 && S->limit < 0 && !S->lds && !k->cost) {
        /* The pointer is a multiple of 3 or the cycle's end: the same state with the
         * pointer at any other place dominates it (pointer_dominance). Its key differs
         * in the tail alone (key()). */
        uint64_t h = heights_code(&S->st);
        for (int t = 1; t <= 2; t++) {
            k->da[t - 1] = mixa(a - mixa(h ^ 1ULL << 16) + mixa(h ^ (uint64_t)(t + 1) << 16));
            k->db[t - 1] = mixb(b - mixb(h + (7ULL << 32)) + mixb(h + ((uint64_t)(t + 7) << 32)));
        }
        k->dominated = 1;
    }
    a = mixa(a);
    b = mixb(b);
    prefetch(S, a);
    k->tagged = tag != NOTAG;
    k->a0 = a;
    k->b0 = b;
    if (k->tagged) {
        a = mixa(a ^ (0xA0761D6478BD642FULL * (uint64_t)(tag + 1)));
        b = mixb(b + 0xE7037ED1A0B428DBULL * (uint64_t)(tag + 1));
        prefetch(S, a);
    }
    k->a = a;
    k->b = b;
}

/* Whether the table holds the node at no greater cost: under an obligation, first
 * without it (a state searched without an obligation covers it under any). */
static inline int known(Search *S, const NodeKey *k) {
    return (k->tagged && covers(S, k->a0, k->b0, k->cost)) || covers(S, k->a, k->b, k->cost) ||
           (k->dominated && (covers(S, k->da[0], k->db[0], INT16_MAX) ||
                             covers(S, k->da[1], k->db[1], INT16_MAX)));
}

/* dfs.py's enter(), the rest, for a node the table does not hold: table it, count it,
 * make its children (appended to S->kids from ``*base``). */
static int enter_node(Search *S, int tag, const NodeKey *k, size_t *base) {
    S->tabled = 1;
    if (!add_key(S, k->a, k->b, k->cost) || !push_path(S, k->a, k->b, k->cost)) {
        S->oom = 1;
        return STOP;
    }
    S->states++;
    if (budget_out(S)) return STOP;
    *base = S->nkids;
    S->rules->children(S, tag);
    return S->oom ? STOP : OPEN;
}

/* dfs.py's enter(): open the node the state is in now, its children appended to
 * S->kids from ``*base``. OPEN: there are children to search; otherwise the node
 * is closed (LOST: a loss or a state already searched), won, or the budget ran out. */
static int open_node(Search *S, int tag, int left, size_t *base) {
    int r = settle_node(S, &tag);
    if (r != OPEN) return r;
    if (twin_tag(tag)) return open_twin(S, tag - SWITCH, base);
    NodeKey k;
    node_key(S, tag, left, &k);
    if (known(S, &k)) return LOST;
    return enter_node(S, tag, &k, base);
}

/* The table's size from which children are keyed ahead (key_children): below it the
 * table stays in the processor's caches and a lookup does not wait for memory
 * (draw-3 deal 60001, lost in 67,212 states with a table of 2^16 entries: 7% slower
 * keyed ahead). _tableau.key_ahead() sets it, for the test that both ways search alike. */
static size_t KEY_AHEAD = (size_t)1 << 18;

/* The keys of the children S->kids[from, end) of a node just opened, those its
 * discrepancy limit lets the search reach (``left``), each made, settled, keyed and
 * undone, and their places in the table fetched, in S->kkeys. Most children are
 * states searched before (the proof of draw-3 deal 10513: 15.3 million of 23.7
 * million lookups), and each lookup in a table of hundreds of megabytes waited for
 * memory, about 700 cycles on this machine; keyed ahead, the search looks each child
 * up when its turn comes without making it (visit), the memory already on its way.
 * The same keys, looked up in the same order, so the same search. A child that wins at
 * once or moves a run to a twin (untabled) is left unkeyed and opened as before.
 * 0 when out of memory. */
static int key_children(Search *S, size_t from, size_t end, int left) {
    if (!grow((void **)&S->kkeys, &S->capkkeys, end, sizeof(KidKey))) return 0;
    for (size_t n = from; n < end; n++) {
        KidKey *kk = &S->kkeys[n];
        const Child *ch = &S->kids[n];
        size_t i = n - from, mark = S->ndone;
        kk->keyed = 0;
        if (S->tnew.cap < KEY_AHEAD || (S->lds && i && (size_t)left < i)) continue;
        int ok = 1, tag = ch->tag;
        for (int k = 0; k < ch->nprims && ok; k++) ok = apply(S, ch->prims[k]);
        if (ok && settle_node(S, &tag) == OPEN && !twin_tag(tag)) {
            node_key(S, tag, S->lds && i ? left - (int)i : left, &kk->key);
            kk->keyed = 1;
            kk->tag = (uint8_t)tag;
        }
        undo_to(S, mark);
        if (!ok || S->oom) return 0;
    }
    return 1;
}

/* Open child ``n`` of S->kids (its moves not yet made) as open_node would; keyed
 * (key_children), the table is asked first and a child it holds is not made. */
static int visit(Search *S, size_t n, int left, size_t *base) {
    const Child *ch = &S->kids[n];
    KidKey kk = S->kkeys[n];
    if (n + 1 < S->nkids && S->kkeys[n + 1].keyed) { /* fetched again: if this child is */
        const NodeKey *k = &S->kkeys[n + 1].key; /* known, its sibling's turn is next */
        prefetch(S, k->a);
        if (k->tagged) prefetch(S, k->a0);
    }
    if (kk.keyed && known(S, &kk.key)) return LOST;
    int ok = 1;
    for (int k = 0; k < ch->nprims && ok; k++) ok = apply(S, ch->prims[k]);
    if (!ok) return STOP;
    if (!kk.keyed) return open_node(S, ch->tag, left, base);
    int tag = ch->tag;
    if (settle_node(S, &tag) != OPEN) return STOP; /* it did not win when keyed */
    return enter_node(S, kk.tag, &kk.key, base);
}

typedef struct {
    size_t undo; /* the line's length before the moves into this node */
    size_t base, next, end; /* its children in S->kids, the next to search */
    int left;               /* discrepancies left */
    int unasked;            /* its children made without asking lost() (ask_lost) */
    int tabled;             /* its key is on S->path (open_twin: not) */
} Frame;

/* The depth-first search from the state the search is in (an explicit stack: a line
 * can be far longer than a C stack allows): WON (the line is S->done), LOST, or STOP. */
static int dfs(Search *S, int left) {
    Frame *stack = NULL;
    size_t depth = 0, cap = 0;
    int ret = LOST;
    size_t base = 0, undo = 0;
    int r = open_node(S, NOTAG, left, &base);
    for (;;) {
        if (r == WON || r == STOP) {
            ret = r;
            break;
        }
        if (r == OPEN) {
            if (!grow((void **)&stack, &cap, depth + 1, sizeof(Frame))) {
                S->oom = 1;
                ret = STOP;
                break;
            }
            Frame f = {undo, base, base, S->nkids, left, S->unasked, S->tabled};
            stack[depth++] = f;
            if (!key_children(S, base, S->nkids, left)) {
                S->oom = 1;
                ret = STOP;
                break;
            }
        } else {
            undo_to(S, undo);
        }
        /* The next child of the deepest open node, closing the nodes that have none. */
        Frame *f = NULL;
        while (depth) {
            f = &stack[depth - 1];
            size_t i = f->next - f->base;
            if (f->next < f->end && !(S->lds && i && (size_t)f->left < i)) break;
            if (f->next < f->end) S->cut = 1;
            S->nkids = f->base;
            S->npath -= (size_t)f->tabled;
            undo_to(S, f->undo);
            depth--;
            f = NULL;
        }
        if (!f) break;
        size_t i = f->next - f->base;
        left = S->lds && i ? f->left - (int)i : f->left;
        undo = S->ndone;
        S->parent_unasked = f->unasked;
        r = visit(S, f->next++, left, &base);
    }
    free(stack);
    return ret;
}
