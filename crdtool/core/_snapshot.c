/*
 * crdtool.core._snapshot: the C half of crdtool/core/snapshot.py (read that module first).
 *
 * unchanged(value, items) tells whether the JSON-like value still holds exactly what it held when
 * snapshot.flatten(value) returned items: the same dicts and lists, the same lengths, the same keys in the
 * same order, and the very same leaf objects (str, int, float, bool, None; compared by identity, which
 * implies the same type and value). It reads the caller's containers through borrowed references, calls
 * no Python code, allocates nothing and holds the GIL throughout, so the value cannot change under it.
 * items must come from flatten(): the addresses it records are followed (see below).
 *
 * The flat layout, in pre-order: a dict is `dict, len, version, address, key1, <value1>, key2, <value2>,
 * ...`; a list is `list, len, address, <item1>, ...`; a leaf is itself. The tags are the type objects dict
 * and list, which flatten() never accepts as leaves, so a container never matches a leaf's position or the
 * reverse. `address` is the container's id(); `version` is dict_version(d) (0: none).
 *
 * The dict version (CPython 3.11, PEP 509): every creation and every change of a dict gives it a new value
 * of one global counter, so a dict whose version is the one recorded holds the same keys and values, in the
 * same order, as when it was recorded. The walk then skips reading its entries: only its dict and list
 * values need looking at (they may have changed inside), and those it finds at the addresses recorded,
 * which are still the dict's values (it holds references to them). PEP 509's field is deprecated from 3.12
 * on, so other versions walk every entry.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* flatten() refuses deeper values (snapshot.MAX_DEPTH); a value mutated to be deeper is "changed". */
#define MAX_DEPTH 1000

#define DICT_TAG ((PyObject *)&PyDict_Type)
#define LIST_TAG ((PyObject *)&PyList_Type)
#define DICT_HEAD 4 /* dict, len, version, address */
#define LIST_HEAD 3 /* list, len, address */

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define HAVE_DICT_VERSION 1
#else
#define HAVE_DICT_VERSION 0
#endif

/* The dict's version, or 0 when the walk must read its entries (another Python; a split-table dict). */
static unsigned long long
version_of(PyObject *dict)
{
#if HAVE_DICT_VERSION
    if (((PyDictObject *)dict)->ma_values == NULL)
        return (unsigned long long)((PyDictObject *)dict)->ma_version_tag;
#endif
    return 0;
}

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

/* The entries of a dict whose version is the recorded one (items[i..] holds its `len` entries): skip the
 * keys and leaves, walk the containers found at their recorded addresses. */
static Py_ssize_t
walk_unchanged_entries(PyObject *const *items, Py_ssize_t n, Py_ssize_t i, Py_ssize_t len, int depth)
{
    for (Py_ssize_t e = 0; e < len; e++) {
        if (i + 1 >= n)
            return -1;
        PyObject *tag = items[i + 1]; /* after the key */
        if (tag != DICT_TAG && tag != LIST_TAG) {
            i += 2;
            continue;
        }
        Py_ssize_t at = i + 1 + (tag == DICT_TAG ? DICT_HEAD : LIST_HEAD) - 1;
        if (at >= n)
            return -1;
        PyObject *child = (PyObject *)PyLong_AsVoidPtr(items[at]);
        if (child == NULL || (i = walk_container(child, items, n, i + 1, depth + 1)) < 0)
            return -1;
    }
    return i;
}

/* walk() of a dict or list, whose tag is at items[i]: the same exact type and length, then its entries. */
static Py_ssize_t
walk_container(PyObject *value, PyObject *const *items, Py_ssize_t n, Py_ssize_t i, int depth)
{
    int is_dict = items[i] == DICT_TAG;
    Py_ssize_t head = is_dict ? DICT_HEAD : LIST_HEAD;
    if (depth >= MAX_DEPTH || i + head > n || !(is_dict ? PyDict_CheckExact(value) : PyList_CheckExact(value)))
        return -1;
    Py_ssize_t len = is_dict ? PyDict_GET_SIZE(value) : PyList_GET_SIZE(value);
    if (!PyLong_CheckExact(items[i + 1]) || PyLong_AsSsize_t(items[i + 1]) != len)
        return -1;
    if (is_dict) {
        unsigned long long version = version_of(value);
        if (version != 0 && PyLong_CheckExact(items[i + 2])
            && PyLong_AsUnsignedLongLong(items[i + 2]) == version)
            return walk_unchanged_entries(items, n, i + head, len, depth);
        PyErr_Clear(); /* a recorded 0 or a bad value: walk the entries */
        i += head;
        Py_ssize_t pos = 0;
        PyObject *key, *item;
        while (PyDict_Next(value, &pos, &key, &item)) {
            if (i >= n || items[i] != key || (i = walk(item, items, n, i + 1, depth + 1)) < 0)
                return -1;
        }
        return i;
    }
    i += head;
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

static PyObject *
dict_version(PyObject *module, PyObject *arg)
{
    if (!PyDict_CheckExact(arg)) {
        PyErr_SetString(PyExc_TypeError, "dict_version(d): d must be a dict");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(version_of(arg));
}

static PyMethodDef methods[] = {
    {"unchanged", (PyCFunction)(void (*)(void))unchanged, METH_FASTCALL,
     "unchanged(value, items) -> bool: value still holds exactly what snapshot.flatten(value) recorded in items."},
    {"dict_version", dict_version, METH_O,
     "dict_version(d) -> int: the dict's PEP 509 version on CPython 3.11 (changes with every change), else 0."},
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
