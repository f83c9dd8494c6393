/* What a solve's searches keep from one to the next, and a search's release: the
 * relaxed verdicts' memo (memo()), in a capsule that owns it and frees it.
 * Part of the _tableau module: included once by _tableau.c, after _tableau_io.h. */

static void release(Search *S) {
    free(S->done);
    free(S->kids);
    free(S->kkeys);
    table_free(&S->tnew);
    table_free(&S->told);
    if (S->kept) {
        if (S->memo.e) *S->kept = S->memo; /* handed on to the solve's next search */
    } else
        table_free(&S->memo);
    free(S->path);
}

/* The relaxed verdicts' memo kept from one search of a solve to the next (memo()): a
 * relaxed verdict is a fact about a position under the search's rules, not about the
 * pass that asked. A capsule owns it and frees it. */
#define KEPT_MEMO "patience.solver._tableau.memo"

static void kept_free(PyObject *capsule) {
    Table *t = PyCapsule_GetPointer(capsule, KEPT_MEMO);
    if (!t) return;
    table_free(t);
    free(t);
}

static PyObject *py_memo(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    Table *t = calloc(1, sizeof(Table));
    if (!t || !table_init(t, 1 << 12)) {
        free(t);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(t, KEPT_MEMO, kept_free);
    if (!capsule) {
        table_free(t);
        free(t);
    }
    return capsule;
}
