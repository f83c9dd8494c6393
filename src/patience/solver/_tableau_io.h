/* The native Klondike-family module's conversions to and from Python (_tableau.c's,
 * included by it after the search's headers): a pile read from bytes, a winning line
 * written as the engine's move strings. */
#ifndef PATIENCE_TABLEAU_IO_H
#define PATIENCE_TABLEAU_IO_H

static int fill_pile(PyObject *obj, uint8_t *out, int *n, int cap) {
    Py_buffer v;
    if (PyObject_GetBuffer(obj, &v, PyBUF_SIMPLE) < 0) return 0;
    if (v.len > cap) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "pile too long");
        return 0;
    }
    memcpy(out, v.buf, (size_t)v.len);
    *n = (int)v.len;
    PyBuffer_Release(&v);
    for (int k = 0; k < *n; k++)
        if (out[k] > 51) {
            PyErr_SetString(PyExc_ValueError, "card out of range");
            return 0;
        }
    return 1;
}

static PyObject *line_of(Search *S) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    char buf[32];
    for (size_t k = 0; k < S->ndone; k++) {
        Done *d = &S->done[k];
        Prim p = d->p;
        if (p.kind == P_WT || p.kind == P_WF)
            for (int n = 0; n < p.deals; n++) {
                PyObject *u = PyUnicode_FromString("deal");
                if (!u || PyList_Append(out, u) < 0) {
                    Py_XDECREF(u);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(u);
            }
        switch (p.kind) {
        case P_TT:
            if (p.c > 1)
                snprintf(buf, sizeof buf, "t%d>t%d/%d", p.a + 1, p.b + 1, p.c);
            else
                snprintf(buf, sizeof buf, "t%d>t%d", p.a + 1, p.b + 1);
            break;
        case P_TF: snprintf(buf, sizeof buf, "t%d>f%d", p.a + 1, d->f + 1); break;
        case P_WT: snprintf(buf, sizeof buf, "w>t%d", p.b + 1); break;
        case P_WF: snprintf(buf, sizeof buf, "w>f%d", d->f + 1); break;
        case P_FT: snprintf(buf, sizeof buf, "f%d>t%d", d->f + 1, p.b + 1); break;
        case P_DEAL: snprintf(buf, sizeof buf, "deal"); break;
        default: {
            char src[8];
            if (p.a < 7)
                snprintf(src, sizeof src, "r%d", p.a + 1);
            else
                snprintf(src, sizeof src, "%s", p.a == 7 ? "w" : "s");
            if (p.kind == P_XT)
                snprintf(buf, sizeof buf, "%s>t%d", src, p.b + 1);
            else
                snprintf(buf, sizeof buf, "%s>f%d", src, d->f + 1);
        }
        }
        PyObject *u = PyUnicode_FromString(buf);
        if (!u || PyList_Append(out, u) < 0) {
            Py_XDECREF(u);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(u);
    }
    return out;
}

#endif
