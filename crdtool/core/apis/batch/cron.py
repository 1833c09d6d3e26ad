"""Cron schedules as ``github.com/robfig/cron/v3`` ``ParseStandard`` reads them (the parser the apiserver's
CronJob validation calls through ``pkg/util/parsers.ParseCronScheduleWithPanicRecovery``), with its error texts.

Mirrors robfig/cron v3.0.1 ``parser.go`` (vendored unchanged by Kubernetes 1.30 … 1.36): five fields
(minute, hour, day of month, month, day of week), descriptors (``@hourly`` … ``@every <duration>``), and a
``TZ=``/``CRON_TZ=`` prefix.
"""

from __future__ import annotations

from crdtool.core.gotime import go_parse_duration

_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
_DOW = {"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}
# (min, max, names) of minute, hour, dom, month, dow
_BOUNDS = ((0, 59, None), (0, 23, None), (1, 31, None), (1, 12, _MONTHS), (0, 6, _DOW))


class CronError(ValueError):
    """A schedule robfig/cron refuses; ``str()`` is its error text."""


def _atoi(expr: str) -> int:
    """``mustParseInt``: ``strconv.Atoi`` and the negative check."""
    body = expr[1:] if expr[:1] in "+-" else expr
    if not body or not body.isascii() or not body.isdigit():
        raise CronError(f'failed to parse int from {expr}: strconv.Atoi: parsing "{expr}": invalid syntax')
    num = int(expr)
    if not -(1 << 63) <= num < 1 << 63:
        raise CronError(f'failed to parse int from {expr}: strconv.Atoi: parsing "{expr}": value out of range')
    if num < 0:
        raise CronError(f"negative number ({num}) not allowed: {expr}")
    return num


def _int_or_name(expr: str, names: dict[str, int] | None) -> int:
    if names is not None and expr.lower() in names:
        return names[expr.lower()]
    return _atoi(expr)


def _get_range(expr: str, lo: int, hi: int, names: dict[str, int] | None) -> None:
    """``getRange``: raises :class:`CronError` as upstream returns its error."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    single = len(low_and_high) == 1
    if low_and_high[0] in ("*", "?"):
        start, end = lo, hi
    else:
        start = _int_or_name(low_and_high[0], names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _int_or_name(low_and_high[1], names)
        else:
            raise CronError(f"too many hyphens: {expr}")
    if len(range_and_step) == 1:
        step = 1
    elif len(range_and_step) == 2:
        step = _atoi(range_and_step[1])
        if single:
            end = hi
    else:
        raise CronError(f"too many slashes: {expr}")
    if start < lo:
        raise CronError(f"beginning of range ({start}) below minimum ({lo}): {expr}")
    if end > hi:
        raise CronError(f"end of range ({end}) above maximum ({hi}): {expr}")
    if start > end:
        raise CronError(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise CronError(f"step of range should be a positive number: {expr}")


def _go_fields(spec: str) -> list[str]:
    """``strings.Fields`` (ASCII and Unicode white space)."""
    return spec.split()


def parse_cron_schedule(schedule: str, load_location: "object | None" = None) -> str | None:
    """``ParseCronScheduleWithPanicRecovery(schedule)``'s error text, or None when the schedule parses.

    ``load_location``: a callable ``name -> error text or None`` standing for Go's ``time.LoadLocation``
    (None: every name loads).
    """
    try:
        _parse_standard(schedule, load_location)
    except CronError as err:
        return str(err)
    return None


def _parse_standard(spec: str, load_location: "object | None") -> None:
    if not spec:
        raise CronError("empty spec string")
    if spec.startswith(("TZ=", "CRON_TZ=")):
        i = spec.find(" ")
        eq = spec.find("=")
        if i < 0:
            # spec[eq+1 : -1] panics; ParseCronScheduleWithPanicRecovery reports the panic
            raise CronError(f"invalid schedule format: runtime error: slice bounds out of range [{eq + 1}:{i}]")
        if i < eq + 1:
            raise CronError(f"invalid schedule format: runtime error: slice bounds out of range [{eq + 1}:{i}]")
        name = spec[eq + 1:i]
        if callable(load_location):
            err = load_location(name)
            if err is not None:
                raise CronError(f"provided bad location {name}: {err}")
        spec = spec[i:].strip()
    if spec.startswith("@"):
        _parse_descriptor(spec)
        return
    fields = _go_fields(spec)
    if len(fields) != 5:
        raise CronError(f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]")
    for text, (lo, hi, names) in zip(fields, _BOUNDS):
        for expr in (e for e in text.split(",") if e):
            _get_range(expr, lo, hi, names)


def _parse_descriptor(descriptor: str) -> None:
    if descriptor in ("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"):
        return
    every = "@every "
    if descriptor.startswith(every):
        text = descriptor[len(every):]
        if not go_parse_duration(text):
            raise CronError(f'failed to parse duration {descriptor}: time: invalid duration "{text}"')
        return
    raise CronError(f"unrecognized descriptor: {descriptor}")
