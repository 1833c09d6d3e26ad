/*
 * crdtool.core._snapshot: the C half of crdtool/core/snapshot.py (read that module first).
 *
 * unchanged(value, items) tells whether the JSON-like value still holds exactly what it held when
 * snapshot.flatten(value) returned items: the same dicts and lists, the same lengths, the same keys in the
 * same order, and the very same leaf objects (str, int, float, bool, None; compared by identity, which
 * implies the same type and value). It reads the caller's containers through borrowed references, calls
 * no Python code, allocates nothing and holds the GIL throughout, so the value cannot change under it.
 *
 * The flat layout, in pre-order: a dict is `dict, len, key1, <value1>, key2, <value2>, ...`; a list is
 * `list, len, <item1>, ...`; a leaf is itself. The tags are the type objects dict and list, which
 * flatten() never accepts as leaves, so a container never matches a leaf's position or the reverse.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* flatten() refuses deeper values (snapshot.MAX_DEPTH); a value mutated to be deeper is "changed". */
#define MAX_DEPTH 1000

#define DICT_TAG ((PyObject *)&PyDict_Type)
#define LIST_TAG ((PyObject *)&PyList_Type)

static Py_ssize_t walk_container(PyObject *value, PyObject *const *items, Py_ssize_t n, Py_ssize_t i, int depth);

/* The index just past value's part of items[i..n), or -1 when value differs from it.
 * The snapshot says what comes at i: a container's tag, or a leaf, which is compared by pointer without
 * reading the caller's object (most of a CRD's nodes are leaves; not touching them halves the memory read).
 * Inlined into the loops below, so a leaf costs no call. */
static inline Py_ssize_t
walk(PyObject *value, PyObject *const *items, Py_ssize_t n, Py_ssize_t i, int depth)
{
    if (i >= n)
        return -1;
    PyObject *tag = items[i];
    if (tag != DICT_TAG && tag != LIST_TAG)
        return tag == value ? i + 1 : -1;
    return walk_container(value, items, n, i, depth);
}

/* walk() of a dict or list, whose tag is at items[i]: the same exact type and length, then its entries. */
static Py_ssize_t
walk_container(PyObject *value, PyObject *const *items, Py_ssize_t n, Py_ssize_t i, int depth)
{
    int is_dict = items[i] == DICT_TAG;
    if (depth >= MAX_DEPTH || i + 1 >= n || !(is_dict ? PyDict_CheckExact(value) : PyList_CheckExact(value)))
        return -1;
    Py_ssize_t len = is_dict ? PyDict_GET_SIZE(value) : PyList_GET_SIZE(value);
    if (!PyLong_CheckExact(items[i + 1]) || PyLong_AsSsize_t(items[i + 1]) != len)
        return -1;
    i += 2;
    if (is_dict) {
        Py_ssize_t pos = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &pos, &key, &item)) {
            if (i >= n || items[i] != key || (i = walk(item, items, n, i + 1, depth + 1)) < 0)
                return -1;
        }
        return i;
    }
    for (Py_ssize_t j = 0; j < len; j++) {
        if ((i = walk(PyList_GET_ITEM(value, j), items, n, i, depth + 1)) < 0)
            return -1;
    }
    return i;
}

static PyObject *
unchanged(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "unchanged(value, items) takes exactly 2 arguments");
        return NULL;
    }
    if (!PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "unchanged(value, items): items must be a list");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    Py_ssize_t end = walk(args[0], ((PyListObject *)args[1])->ob_item, n, 0, 0);
    if (PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(end == n);
}

static PyMethodDef methods[] = {
    {"unchanged", (PyCFunction)(void (*)(void))unchanged, METH_FASTCALL,
     "unchanged(value, items) -> bool: value still holds exactly what snapshot.flatten(value) recorded in items."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "crdtool.core._snapshot",
    "The C half of crdtool.core.snapshot: an identity walk over a JSON-like value.", 0, methods,
};

PyMODINIT_FUNC
PyInit__snapshot(void)
{
    return PyModuleDef_Init(&module);
}
