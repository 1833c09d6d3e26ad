"""cel-go ``common/debug`` rendering of our ASTs, to compare with upstream test expectations.

Test support only: ``ToAdornedDebugString`` with the ``kindAndIDAdorner`` of
cel-go ``parser/parser_test.go`` and the ``semanticAdorner`` of
``checker/checker_test.go``.
"""

from __future__ import annotations

import math
import struct
from typing import Any, Callable

from crdtool.core.celgo import ast as A

_KIND = {
    A.IDENT: "*expr.Expr_IdentExpr", A.SELECT: "*expr.Expr_SelectExpr", A.CALL: "*expr.Expr_CallExpr",
    A.LIST: "*expr.Expr_ListExpr", A.MAP: "*expr.Expr_StructExpr", A.STRUCT: "*expr.Expr_StructExpr",
    A.COMPREHENSION: "*expr.Expr_ComprehensionExpr",
}
_LIT_KIND = {
    A.LIT_BOOL: "*expr.Constant_BoolValue", A.LIT_BYTES: "*expr.Constant_BytesValue",
    A.LIT_DOUBLE: "*expr.Constant_DoubleValue", A.LIT_INT: "*expr.Constant_Int64Value",
    A.LIT_NULL: "*expr.Constant_NullValue", A.LIT_STRING: "*expr.Constant_StringValue",
    A.LIT_UINT: "*expr.Constant_Uint64Value",
}


def go_quote(s: str | bytes) -> str:
    """Go ``strconv.Quote``."""
    if isinstance(s, bytes):
        text = s.decode("utf-8", errors="surrogateescape")
    else:
        text = s
    out = ['"']
    for ch in text:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte
            out.append(f"\\x{o - 0xDC00:02x}")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\a":
            out.append("\\a")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\v":
            out.append("\\v")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        elif o < 0x10000:
            out.append(f"\\u{o:04x}")
        else:
            out.append(f"\\U{o:08x}")
    out.append('"')
    return "".join(out)


def go_float(f: float) -> str:
    """Go ``fmt.Sprintf("%v", float64)`` (``strconv.FormatFloat(f, 'g', -1, 64)`` with %v's exponent rules)."""
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if math.isnan(f):
        return "NaN"
    r = repr(f)
    if "e" in r or "E" in r:
        mant, exp = r.split("e")
        e = int(exp)
    else:
        mant, e = r, 0
    # shortest digits and decimal exponent
    digits = mant.replace("-", "").replace(".", "").lstrip("0") or "0"
    sign = "-" if f < 0 or (f == 0 and struct.pack(">d", f)[0] & 0x80) else ""
    if f == 0:
        return sign + "0"
    # decimal exponent of the first digit
    m = mant.replace("-", "")
    if "." in m:
        ip, fp = m.split(".")
    else:
        ip, fp = m, ""
    if ip.strip("0"):
        exp10 = len(ip.lstrip("0")) - 1 + e
    else:
        exp10 = -(len(fp) - len(fp.lstrip("0"))) - 1 + e
    digits = (ip + fp).lstrip("0").rstrip("0") or "0"
    if exp10 < -4 or exp10 >= 21:
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'+' if exp10 >= 0 else '-'}{abs(exp10):02d}"
    if exp10 >= len(digits) - 1:
        return sign + digits + "0" * (exp10 - len(digits) + 1)
    if exp10 >= 0:
        return sign + digits[: exp10 + 1] + "." + digits[exp10 + 1 :]
    return sign + "0." + "0" * (-exp10 - 1) + digits


def _literal(e: A.Expr) -> str:
    v = e.value
    if e.lit == A.LIT_BOOL:
        return "true" if v else "false"
    if e.lit == A.LIT_BYTES:
        return "b" + go_quote(v)
    if e.lit == A.LIT_DOUBLE:
        return go_float(v)
    if e.lit == A.LIT_INT:
        return str(v)
    if e.lit == A.LIT_STRING:
        return go_quote(v)
    if e.lit == A.LIT_UINT:
        return f"{v}u"
    return "null"


def debug_string(e: A.Expr, adorn: Callable[[A.Expr | A.Entry], str]) -> str:
    """``debug.ToAdornedDebugString``."""
    buf: list[str] = []
    state = {"indent": 0, "line_start": True}

    def append(s: str) -> None:
        if state["line_start"]:
            state["line_start"] = False
            buf.append("  " * state["indent"])
        buf.append(s)

    def line() -> None:
        buf.append("\n")
        state["line_start"] = True

    def visit(x: A.Expr | None) -> None:
        if x is None:
            return
        k = x.kind
        if k == A.LITERAL:
            append(_literal(x))
        elif k == A.IDENT:
            append(x.name)
        elif k == A.SELECT:
            visit(x.operand)
            append(".")
            append(x.name)
            if x.test_only:
                append("~test-only~")
        elif k == A.CALL:
            if x.target is not None:
                visit(x.target)
                append(".")
            append(x.name)
            append("(")
            if x.args:
                state["indent"] += 1
                line()
                for i, a in enumerate(x.args):
                    if i:
                        append(",")
                        line()
                    visit(a)
                state["indent"] -= 1
                line()
            append(")")
        elif k == A.LIST:
            append("[")
            if x.args:
                line()
                state["indent"] += 1
                for i, a in enumerate(x.args):
                    if i:
                        append(",")
                        line()
                    visit(a)
                state["indent"] -= 1
                line()
            append("]")
        elif k in (A.MAP, A.STRUCT):
            if k == A.STRUCT:
                append(x.name)
            append("{")
            if x.entries:
                line()
                state["indent"] += 1
                for i, en in enumerate(x.entries):
                    if i:
                        append(",")
                        line()
                    if en.optional:
                        append("?")
                    if k == A.STRUCT:
                        append(en.field)
                        append(":")
                    else:
                        visit(en.key)
                        append(":")
                    visit(en.value)
                    append(adorn(en))
                state["indent"] -= 1
                line()
            append("}")
        elif k == A.COMPREHENSION:
            append("__comprehension__(")
            state["indent"] += 1
            line()
            for label, value in (("// Variable", None),):
                append(label)
                line()
            append(x.iter_var)
            append(",")
            line()
            if x.iter_var2:
                append(x.iter_var2)
                append(",")
                line()
            for label, sub in (("// Target", x.iter_range),):
                append(label)
                line()
                visit(sub)
                append(",")
                line()
            append("// Accumulator")
            line()
            append(x.accu_var)
            append(",")
            line()
            for label, sub in (("// Init", x.accu_init), ("// LoopCondition", x.loop_condition),
                               ("// LoopStep", x.loop_step)):
                append(label)
                line()
                visit(sub)
                append(",")
                line()
            append("// Result")
            line()
            visit(x.result)
            append(")")
            state["indent"] -= 1
        append(adorn(x))

    visit(e)
    return "".join(buf)


def kind_and_id(e: A.Expr | A.Entry) -> str:
    """cel-go parser tests' ``kindAndIDAdorner`` (no source info: no macro labels)."""
    if isinstance(e, A.Entry):
        return f"^#{e.id}:*expr.Expr_CreateStruct_Entry#"
    if e.kind == A.LITERAL:
        return f"^#{e.id}:{_LIT_KIND[e.lit]}#"
    return f"^#{e.id}:{_KIND.get(e.kind, '')}#"


def semantic(checked: Any) -> Callable[[A.Expr | A.Entry], str]:
    """cel-go checker/printer.go ``semanticAdorner``: ``~type`` and ``^reference``."""
    from crdtool.core.celgo.types import format_cel_type

    def adorn(e: A.Expr | A.Entry) -> str:
        if isinstance(e, A.Entry):
            return ""
        out = ""
        t = checked.type_map.get(e.id)
        if t is not None:
            out += "~" + format_cel_type(t)
        if e.kind in (A.IDENT, A.CALL, A.LIST, A.STRUCT, A.SELECT):
            ref = checked.reference_map.get(e.id)
            if ref is not None:
                if not ref.overload_ids:
                    out += "^" + ref.name
                else:
                    out += "^" + "|".join(sorted(ref.overload_ids))
        return out

    return adorn
