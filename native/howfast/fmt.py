"""Numbers for prose and tables: three significant figures, sensible units, thin on
digits. Every number a reader sees goes through here. ``None`` is a figure this machine
could not measure (a case it could not run) and reads ``NA``; NaN or a wrong value is a
bug and raises."""

from __future__ import annotations

import math
import re

#: How a figure reads when this machine could not measure it.
NA = "n/a"


#: Large numbers read in words past a million: 41,400,000,000 -> '41.4 billion'.
SCALES = ((1e15, "quadrillion"), (1e12, "trillion"), (1e9, "billion"), (1e6, "million"))
#: Where the words stop: from here on a number reads as a power of ten ('2.5 × 10¹⁹').
WORDS_END = 1e18
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def num(x: float | None, digits: int = 3) -> str:
    """12345.6 -> '12,300'; 0.01234 -> '0.0123'; 41.4e9 -> '41.4 billion'; 3.2e15 -> '3.2 quadrillion';
    from ``WORDS_END`` on a power of ten: 2.5e19 -> '2.5 × 10¹⁹'; None -> 'n/a'."""
    if x is None:
        return NA
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"x must be a number, got {type(x).__name__}")
    if not math.isfinite(x):
        raise ValueError(f"cannot format {x!r} as a number")
    if x == 0:
        return "0"
    if abs(x) >= WORDS_END * (1 - 0.5 * 10**-digits):  # what would round up to a thousand quadrillion
        power = math.floor(math.log10(abs(x)))
        mantissa = num(x / 10**power, digits)
        if mantissa.lstrip("-") == "10":  # 9.9996 rounds up: one power more
            power, mantissa = power + 1, num(x / 10 ** (power + 1), digits)
        return f"{mantissa} × 10{str(power).translate(_SUPERSCRIPT)}"
    for scale, word in SCALES:
        if abs(x) >= scale * 0.9995:
            return f"{num(x / scale, digits)} {word}"
    magnitude = math.floor(math.log10(abs(x)))
    decimals = max(digits - 1 - magnitude, 0)
    rounded = round(x, -magnitude + digits - 1)
    text = f"{rounded:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def count(n: float | None, noun: str, plural: str | None = None) -> str:
    """A number of things, the noun agreeing: '1 machine', '21 machines', '1.5 machines';
    None -> 'n/a machines'."""
    many = plural or noun + "s"
    shown = exact(n) if isinstance(n, int) and not isinstance(n, bool) and abs(n) < 1e6 else num(n)
    return f"{shown} {noun if shown == '1' else many}"


def exact(n: int | None) -> str:
    """A count as it is, every digit: 2925 -> '2,925' (a measured figure goes through
    ``num``, which keeps three significant digits)."""
    if n is None:
        return NA
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be a whole number, got {type(n).__name__}")
    return f"{n:,}"


def duration_us(us: float | None) -> str:
    """A duration given in microseconds: '350 ns', '217 µs', '1.2 ms', '2.5 s'."""
    if us is None:
        return NA
    if not math.isfinite(us) or us < 0:
        raise ValueError(f"cannot format {us!r} as a duration")
    if us < 1:
        return f"{num(us * 1e3)} ns"
    if us < 1e3:
        return f"{num(us)} µs"
    if us < 1e6:
        return f"{num(us / 1e3)} ms"
    return f"{num(us / 1e6)} s"


def size(n: float) -> str:
    """Bytes with binary prefixes: 4096 -> '4 KiB'."""
    if n is None or n < 0:
        raise ValueError(f"cannot format {n!r} as a size")
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{num(n)} {unit}" if unit != "bytes" else f"{int(n)} bytes"
        n /= 1024
    raise AssertionError("unreachable")


def size_adjective(n: int) -> str:
    """A size before a noun: 16 -> '16-byte' ('a 16-byte key'), 65536 -> '64 KiB'."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n is a number of bytes, got {n!r}")
    return f"{n:,}-byte" if n < 1024 else size(n)


def bytes_per_s(x: float | None) -> str:
    """A data rate in decimal units, as drives are rated: 150000 -> '150 kB/s';
    48.6e9 -> '48.6 GB/s'; 50 -> '50 B/s'."""
    if x is None:
        return NA
    if x < 0:
        raise ValueError(f"cannot format {x!r} as a data rate")
    for unit in ("B/s", "kB/s", "MB/s", "GB/s"):
        if x < 999.5 or unit == "GB/s":  # 999.5 would round up to '1,000' in the smaller unit
            return f"{num(x)} {unit}"
        x /= 1000
    raise AssertionError("unreachable")


def share(x: float | None, digits: int = 3) -> str:
    """A fraction as a percentage: 0.0612 -> '6.12 %'."""
    return NA if x is None else f"{num(100 * x, digits)} %"


def ratio(x: float | None) -> str:
    """A factor: 3.2 -> '3.2×', 250 -> '250×'."""
    return NA if x is None else f"{num(x, 2)}×"


#: The lines a ratio's verdict turns on: 1, and the ends of the band a cross-check's
#: interval must lie within to agree (``claims.AGREES``).
FACTOR_LINES = (0.9, 1.0, 1.1)


def factor(x: float | None) -> str:
    """A ratio, or an end of a ratio's interval, without its '×': two significant digits,
    more where two would put it on, or across, a line a verdict turns on (0.9, 1 and 1.1,
    ``FACTOR_LINES``) while it is not exactly on it. 3.64 -> '3.6'; 1.077 -> '1.08' (not
    '1.1' beside a band that ends at 1.1); 0.999 -> '0.999' and 1.003 -> '1.003' (not '1');
    0.897 -> '0.897'; 1.0 -> '1' (and so is 1 within float noise); None -> 'n/a'."""
    if x is None:
        return NA
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"x must be a number (a ratio), got {type(x).__name__}")
    if not math.isfinite(x) or x < 0:
        raise ValueError(f"x is a ratio, a finite number of at least 0, got {x!r}")
    # within float noise of a line is on it (3 * 0.3 / 0.9 is 0.9999999999999999, not 'below 1')
    x = next((line for line in FACTOR_LINES if math.isclose(x, line, rel_tol=1e-9)), x)
    for digits in range(2, 18):
        shown = num(x, digits)
        if " " in shown:  # in words ('41.4 billion'): far from every line
            return shown
        value = float(shown.replace(",", ""))
        if all((value < line) == (x < line) and (value != line or x == line) for line in FACTOR_LINES):
            return shown
    return repr(float(x))  # pragma: no cover - 17 digits tell every float from the lines


def quotient(a: float | None, b: float | None) -> float | None:
    """a / b, or None when either was not measured (or b is zero)."""
    return None if a is None or b is None or b == 0 else a / b


def ratio_of(a: float | None, b: float | None) -> str:
    """'3.2×' for a / b; 'n/a' when either was not measured."""
    return ratio(quotient(a, b))


def compared(a: float | None, b: float | None, *, more: str, less: str, same: str, noise: float = 1.1) -> str:
    """How `a` compares with `b`, in words that read right for every outcome:
    '1.3× faster than' (a ≥ noise × b), '1.3× slower than' (b ≥ noise × a), `same` when
    they are within `noise` of each other (with the ratio), 'n/a: not measured here'
    when either is missing. `more` and `less` name the two directions ('faster',
    'slower'); the caller writes what follows ('… than the unpinned writer')."""
    if noise < 1:
        raise ValueError(f"noise is a factor of at least 1, got {noise}")
    if a is None or b is None or a <= 0 or b <= 0:
        return "not measured here, so not compared with"
    if a >= noise * b:
        return f"{ratio(a / b)} {more} than"
    if b >= noise * a:
        return f"{ratio(b / a)} {less} than"
    return f"{same} ({num(a / b, 3)}×, within {share(noise - 1, 2)})"


def span(lo: float | None, hi: float | None, digits: int = 3) -> str:
    """A range, both ends formatted as ``num``: '12,300–13,400'; 'n/a' if unmeasured."""
    if lo is None or hi is None:
        return NA
    return f"{num(lo, digits)}–{num(hi, digits)}"


def listed(items: list[str]) -> str:
    """Items as prose lists them: 'a', 'a and b', 'a, b and c'; 'a; b; and c' when an item
    holds a comma of its own outside parentheses (commas inside them are not ambiguous, nor
    are a number's thousands separators: '98,900 and 119,000'); '' for none."""
    if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
        raise TypeError(f"items must be a list of strings, not {items!r}")
    if len(items) <= 1:
        return "".join(items)
    if any("," in re.sub(r"\([^()]*\)|(?<=\d),(?=\d{3})", "", item) for item in items):
        return "; ".join(items[:-1]) + "; and " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]
