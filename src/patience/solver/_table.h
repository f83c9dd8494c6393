/* The one hashed transposition table of the native searches: open addressing over
 * 16-byte entries (a 112-bit hash of the state and a 16-bit value), on huge pages
 * when big, growing up to a cap. Included by both modules, _tableau.c and
 * _hopscotch.c (each one translation unit, so the compiler inlines it); each keeps
 * a newer and an older table and says when to forget. */
#ifndef PATIENCE_TABLE_H
#define PATIENCE_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* An entry is 16 bytes: lane a whole, lane b with its low 16 bits holding the value
 * (plus 32768, so a used entry is never 0). A state is then known by 64 + 48 = 112
 * bits: two states are confused with a probability of about n^2 / 2^113, below
 * 1e-16 for a billion states. The tables fill to three quarters before they grow. */
typedef struct {
    uint64_t a, b;
} Entry;

#define VMASK 0xFFFFULL

static inline int32_t entry_val(const Entry *e) { return (int32_t)(e->b & VMASK) - 32768; }

typedef struct {
    Entry *e;
    size_t cap, count;
} Table;

#define HUGE_PAGE ((size_t)2 << 20)

/* Zeroed memory for ``cap`` entries. A big table goes on huge pages where the system
 * allows them: its lookups (the search's largest cost, measured with perf) land
 * anywhere in hundreds of megabytes, which small pages' address cache cannot cover. */
static Entry *entries_alloc(size_t cap) {
    size_t size = cap * sizeof(Entry);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE) {
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, size, MADV_HUGEPAGE);
        return p;
    }
#endif
    return calloc(cap, sizeof(Entry));
}

static void entries_free(Entry *e, size_t cap) {
    if (!e) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (cap * sizeof(Entry) >= HUGE_PAGE) {
        munmap(e, cap * sizeof(Entry));
        return;
    }
#endif
    (void)cap;
    free(e);
}

static int table_init(Table *t, size_t cap) {
    t->e = entries_alloc(cap);
    t->cap = cap;
    t->count = 0;
    return t->e != NULL;
}

static Entry *table_find(Table *t, uint64_t a, uint64_t b) {
    size_t mask = t->cap - 1, i = (size_t)a & mask;
    b &= ~VMASK;
    for (;;) {
        Entry *e = &t->e[i];
        if (e->b == 0 || (e->a == a && (e->b & ~VMASK) == b)) return e;
        i = (i + 1) & mask;
    }
}

static int table_grow(Table *t) {
    Table n;
    if (!table_init(&n, t->cap * 2)) return 0;
    for (size_t i = 0; i < t->cap; i++) {
        Entry *e = &t->e[i];
        if (e->b) {
            *table_find(&n, e->a, e->b) = *e;
            n.count++;
        }
    }
    entries_free(t->e, t->cap);
    *t = n;
    return 1;
}

static void table_clear(Table *t) {
    memset(t->e, 0, t->cap * sizeof(Entry));
    t->count = 0;
}

/* Put (a, b) -> val (|val| < 32768), in a table that holds up to ``limit`` entries;
 * 0 when out of memory. */
__attribute__((unused)) static int table_put(Table *t, uint64_t a, uint64_t b, int32_t val,
                                             size_t limit) {
    Entry *e = table_find(t, a, b);
    if (!e->b) {
        if ((t->count + 1) * 4 > t->cap * 3 && t->cap * 3 < limit * 4) {
            if (!table_grow(t)) return 0;
            e = table_find(t, a, b);
        }
        e->a = a;
        t->count++;
    }
    e->b = (b & ~VMASK) | (uint64_t)(val + 32768);
    return 1;
}

#endif
