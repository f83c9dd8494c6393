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

/* ``res``: entries mapped at ``e`` for the table to grow into in place (table_put's
 * tables, once big), or 0: ``e`` is then calloc'd, or a mapping of ``cap`` entries. */
typedef struct {
    Entry *e;
    size_t cap, count, res;
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
    t->count = t->res = 0;
    return t->e != NULL;
}

__attribute__((unused)) static void table_free(Table *t) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (t->res) {
        munmap(t->e, t->res * sizeof(Entry));
        t->e = NULL;
        return;
    }
#endif
    entries_free(t->e, t->cap);
    t->e = NULL;
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

/* Put every entry of ``t`` into ``n``. */
static void table_rehash_into(Table *n, const Table *t) {
    for (size_t i = 0; i < t->cap; i++) {
        const Entry *e = &t->e[i];
        if (e->b) {
            *table_find(n, e->a, e->b) = *e;
            n->count++;
        }
    }
}

static int table_grow(Table *t) {
    Table n;
    if (!table_init(&n, t->cap * 2)) return 0;
    table_rehash_into(&n, t);
    entries_free(t->e, t->cap);
    *t = n;
    return 1;
}

/* Table growth in place (table_put): a table that outgrows 2 MiB is moved
 * once into a mapping of the most entries its limit lets it reach, reserved but not
 * touched, and each doubling after that rehashes it within the mapping, touching only
 * the new half. A new table twice the size each time touched every page twice: fresh
 * pages, each zeroed by the kernel, cost 7 to 8% of a proof of 12 million states
 * (clear_page_erms) on the virtual machine measured. */

/* The capacity table_put's doublings of a table of ``cap`` end at under ``limit``. */
__attribute__((unused)) static size_t table_cap_for(size_t cap, size_t limit) {
    while (cap * 3 < limit * 4) cap *= 2;
    return cap;
}

/* Move ``t`` into a reserved mapping of ``res`` entries, at twice its capacity; 0 (t
 * unchanged) when the mapping fails. */
__attribute__((unused)) static int table_reserve(Table *t, size_t res) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MAP_NORESERVE)
    size_t size = res * sizeof(Entry);
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 0;
    madvise(p, size, MADV_HUGEPAGE);
    Table n = {p, t->cap * 2, 0, res};
    table_rehash_into(&n, t);
    entries_free(t->e, t->cap);
    *t = n;
    return 1;
#else
    (void)t;
    (void)res;
    return 0;
#endif
}

/* Double ``t`` within its mapping (t->res >= 2 t->cap), whose second half is untouched
 * (zero). Each entry of the old half is taken out and put in again under the new mask,
 * walking up from just after the first free slot z; the entries before z (the part of
 * a cluster that wrapped around the old end) are held aside and put in last. Then no
 * entry is put where one not yet taken out lies, nor finds its slot past one: one
 * whose home is in the old half (at or after z + 1, its cluster not holding the free
 * z) finds a free slot at the latest where it was taken from, the slots from its home
 * there being all taken out already; one whose home is in the new half finds one
 * there, or wraps to slot 0 on and finds one by where the walk is, every slot before
 * it taken out already. So every probe path holds only entries put in, as in a table
 * built afresh; 0 when out of memory (t unchanged). */
__attribute__((unused)) static int table_grow_in_place(Table *t) {
    size_t c = t->cap, z = 0;
    Entry *e = t->e, *aside = NULL;
    while (e[z].b) z++; /* at most three quarters full: one is free */
    if (z) {
        aside = malloc(z * sizeof(Entry));
        if (!aside) return 0;
        memcpy(aside, e, z * sizeof(Entry));
        memset(e, 0, z * sizeof(Entry));
    }
    t->cap = 2 * c;
    for (size_t i = z + 1; i < c; i++) {
        if (!e[i].b) continue;
        Entry x = e[i];
        e[i].a = e[i].b = 0;
        *table_find(t, x.a, x.b) = x;
    }
    for (size_t i = 0; i < z; i++) *table_find(t, aside[i].a, aside[i].b) = aside[i];
    free(aside);
#ifdef CHECK_KEYS /* every entry found where it lies, none lost */
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (e[i].b && (n++, table_find(t, e[i].a, e[i].b) != &e[i])) abort();
    if (n != t->count) abort();
#endif
    return 1;
}

/* Whether table_put's tables grow in place (_tableau.grow_in_place(), for the test
 * that both ways search alike). */
__attribute__((unused)) static int TABLE_IN_PLACE = 1;

/* Double ``t``, which may grow up to ``limit`` entries: in place once big. */
__attribute__((unused)) static int table_double(Table *t, size_t limit) {
    if (t->res >= 2 * t->cap) return table_grow_in_place(t);
    if (TABLE_IN_PLACE && !t->res && 2 * t->cap * sizeof(Entry) >= HUGE_PAGE) {
        size_t res = table_cap_for(2 * t->cap, limit);
        if (res >= 4 * t->cap && table_reserve(t, res)) return 1;
    }
    return table_grow(t);
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
            if (!table_double(t, limit)) return 0;
            e = table_find(t, a, b);
        }
        e->a = a;
        t->count++;
    }
    e->b = (b & ~VMASK) | (uint64_t)(val + 32768);
    return 1;
}

#endif
