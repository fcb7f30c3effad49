#!/usr/bin/env python3
"""Regenerates crates/clika-rt/src/backend/cpu/vmath/coeffs_{f32,f64}.rs.

Series coefficients are exact rationals rounded to the lane type; the Chebyshev
coefficients of g(x) = erfc(x)*exp(x^2) on [0.875, B] come from g sampled at Chebyshev
nodes, each sample computed in 110-digit decimal arithmetic, summed in extended precision;
atan's polynomial is a Chebyshev interpolant computed in extended precision.
Needs numpy (the dev venv has it): .venv/bin/python scripts/vmath_coeffs.py
"""
import math
import pathlib
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/clika-rt/src/backend/cpu/vmath"


PI = Decimal(
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803"
)


def erfcx(x):
    """erfc(x)*exp(x^2) in 110-digit decimal arithmetic (Taylor series of erf)."""
    getcontext().prec = 110
    z = Decimal(str(x))
    s, term, n = Decimal(0), z, 0
    while True:
        t = term / (2 * n + 1)
        s += t
        if n > 10 and abs(t) < Decimal(10) ** -100:
            break
        n += 1
        term = -term * z * z / n
    return (1 - 2 / PI.sqrt() * s) * (z * z).exp()


def cheb_fit(f, lo, hi, n_nodes, n_coeffs):
    """Chebyshev coefficients (c0 first) of f on [lo, hi] by the discrete cosine sums over
    n_nodes Chebyshev nodes, in x87 extended precision (np.longdouble) so their rounding
    noise stays far below f64's; f maps the array of nodes to the array of values."""
    ld = np.longdouble
    pi = ld(str(PI))
    th = pi * (np.arange(n_nodes, dtype=ld) + ld("0.5")) / n_nodes
    xs = (ld(lo) + ld(hi)) / 2 + (ld(hi) - ld(lo)) / 2 * np.cos(th)
    fx = f(xs)
    c = [ld(2) / n_nodes * np.sum(fx * np.cos(j * th)) for j in range(n_coeffs)]
    c[0] /= 2
    return c


def cheb(a, b, n_nodes, n_coeffs):
    """Chebyshev coefficients of erfc(x)*exp(x^2) on [a, b]."""
    ld = np.longdouble

    def g(xs):
        return np.array([ld(str(erfcx(np.format_float_positional(x)))) for x in xs], dtype=ld)

    return [float(v) for v in cheb_fit(g, a, b, n_nodes, n_coeffs)]


def atan_fit(n_coeffs):
    """P(s), highest power first, with atan(u) = u + u*s*P(s) (s = u^2) on |u| <= tan(pi/8):
    Chebyshev interpolation of (atan(u)/u - 1)/s at 200 nodes in x87 extended precision,
    converted to powers of s (near-minimax; the measured error is in the module docs)."""
    ld = np.longdouble
    b = np.tan(ld(str(PI)) / 8) ** 2

    def p(xs):
        u = np.sqrt(xs)
        return (np.arctan(u) / u - 1) / xs

    return to_powers(cheb_fit(p, 0, b, 200, n_coeffs), 0, b)


def to_powers(c, lo, hi):
    """Chebyshev coefficients `c` on [lo, hi] as power-series coefficients in the variable
    itself, highest power first (in x87 extended precision)."""
    ld = np.longdouble
    n = len(c)
    cheb_t = [[ld(1)], [ld(0), ld(1)]]
    for j in range(2, n):
        nxt = [ld(0)] + [2 * v for v in cheb_t[-1]]
        for i, v in enumerate(cheb_t[-2]):
            nxt[i] -= v
        cheb_t.append(nxt)
    in_u = [ld(0)] * n
    for j in range(n):
        for i, v in enumerate(cheb_t[j]):
            in_u[i] += c[j] * v
    m, h = (ld(lo) + ld(hi)) / 2, (ld(hi) - ld(lo)) / 2
    out = [ld(0)] * n
    for k in range(n):
        for i in range(k + 1):
            out[i] += in_u[k] * math.comb(k, i) * (1 / h) ** i * (-m / h) ** (k - i)
    return [float(v) for v in reversed(out)]


def gelu_tables(n_nodes=40, degree=7):
    """The f32 gelu's piecewise fit of m(y) = e^{y^2/2}*Phi(-y) = erfcx(y/sqrt2)/2 on the eight
    intervals that the bits of y + 1 pick (1 + y in [1, 1.5), [1.5, 2), [2, 3), ... [12, 16)):
    per interval a Chebyshev interpolant (sampled in 110-digit arithmetic) as powers of
    u = y - start, highest first. Returns the coefficients by power, each a row over the
    intervals."""
    ld = np.longdouble
    starts = [0, 0.5, 1, 2, 3, 5, 7, 11]
    ends = starts[1:] + [15]
    sqrt2 = Decimal(2).sqrt()
    getcontext().prec = 110

    rows = [[0.0] * 8 for _ in range(degree + 1)]
    for j, (lo, hi) in enumerate(zip(starts, ends)):
        def m(us, lo=lo):
            out = []
            for u in us:
                y = Decimal(str(lo)) + Decimal(np.format_float_positional(u))
                out.append(ld(str(erfcx(str(y / sqrt2)) / 2)))
            return np.array(out, dtype=ld)

        c = cheb_fit(m, 0, hi - lo, n_nodes, degree + 1)
        for k, v in enumerate(to_powers(c, 0, hi - lo)):
            rows[k][j] = v
    return rows


def lit(v, t):
    if t == "f32":
        s = np.format_float_positional(np.float32(float(v)), unique=True)
        if abs(float(v)) < 1e-4 and float(v) != 0:
            s = np.format_float_scientific(np.float32(float(v)), unique=True)
    else:
        s = repr(float(v))
    if s.endswith("."):
        s += "0"
    if "." not in s and "e" not in s:
        s += ".0"
    return s


def arr(name, t, vals, doc):
    body = "".join(f"    {lit(v, t)},\n" for v in vals)
    return f"/// {doc}\nconst {name}: [{t}; {len(vals)}] = [\n{body}];\n"


def dfact(n):
    r = 1
    for i in range(1, 2 * n, 2):
        r *= i
    return r


F = math.factorial
HEADER = (
    "// Generated by scripts/vmath_coeffs.py from exact series terms and Chebyshev fits of\n"
    "// erfc(x)*exp(x^2) and atan (see the module documentation); rounded to nearest in the\n"
    "// lane type.\n\n"
)
for t, exp_deg, log_k, sin_deg, cos_deg, erf_n, cheb_n, b, asym_n, atan_n in (
    ("f32", 7, 4, 9, 10, 10, 18, 6.0, 9, 5),
    ("f64", 13, 10, 17, 18, 18, 36, 8.0, 19, 11),
):
    two_sqrtpi = 2 / math.sqrt(math.pi)
    parts = [
        arr("EXP", t, [Fraction(1, F(k)) for k in range(exp_deg, -1, -1)],
            "1/k!, highest power first (Taylor series of exp)."),
        arr("LOG", t, [Fraction(2, 2 * k + 1) for k in range(log_k, 0, -1)],
            "2/(2k+1), highest first: atanh series of log1p in s = f/(2+f)."),
        arr("SIN", t, [Fraction((-1) ** k, F(2 * k + 1)) for k in range(sin_deg // 2, 0, -1)],
            "(-1)^k/(2k+1)!, highest first, k >= 1."),
        arr("COS", t, [Fraction((-1) ** k, F(2 * k)) for k in range(cos_deg // 2, 1, -1)],
            "(-1)^k/(2k)!, highest first, k >= 2."),
        arr("ERF", t, [((-1) ** n / (F(n) * (2 * n + 1))) * two_sqrtpi for n in range(erf_n - 1, -1, -1)],
            "2/sqrt(pi) (-1)^n/(n!(2n+1)), highest first: erf(x)/x in x^2."),
        arr("ERFCX_CHEB", t, cheb(0.875, b, max(2 * cheb_n, 60), cheb_n),
            f"Chebyshev coefficients of erfc(x)*exp(x^2) on [0.875, {b}] (c0 first)."),
        arr("ERFCX_ASYM", t, [Fraction((-1) ** n * dfact(n), 2**n) for n in range(asym_n - 1, -1, -1)],
            "(-1)^n (2n-1)!!/2^n, highest first: erfc(x)*exp(x^2)*x*sqrt(pi) in 1/x^2 (asymptotic)."),
        arr("ATAN", t, atan_fit(atan_n),
            "P(s), highest first: atan(u) = u + u*s*P(s), s = u^2, |u| <= tan(pi/8) (Chebyshev fit)."),
    ]
    (OUT / f"coeffs_{t}.rs").write_text(HEADER + "".join(parts))

# The f32 gelu's tables (gelu.rs): the piecewise fit, 2^(j/8), and ln2/4 (twice the
# reduction's ln2/8: the reduction works on -2·(y^2/2)) in two parts, the first with 12
# significant bits so n*hi is exact for every |n| < 2^12.
ln2_4 = Decimal(2).ln() / 4
hi_bits = int(np.float32(float(ln2_4)).view(np.uint32)) & 0xFFFF_F000
ln2_4_hi = float(np.array([hi_bits], dtype=np.uint32).view(np.float32)[0])
gelu_parts = [
    "/// m(y) = e^{y^2/2}*Phi(-y) by interval (see `gelu_tables` in the script): row k holds\n"
    "/// the coefficient of u^(7-k), u = y - start, for each of the eight intervals.\n"
    "const GELU_M: [[f32; 8]; 8] = [\n"
    + "".join("    [" + ", ".join(lit(v, "f32") for v in row) + "],\n" for row in gelu_tables())
    + "];\n",
    arr("EXP2_8", "f32", [Decimal(2) ** (Decimal(j) / 8) for j in range(8)], "2^(j/8)."),
    arr("EXP_HALF", "f32", [Fraction(1, F(k) * 2**k) for k in range(4, 0, -1)],
        "1/(k! 2^k), highest first, k >= 1: e^{r/2} - 1 = r*(1/2 + r/8 + r^2/48 + r^3/384)."),
    arr("LN2_4", "f32", [ln2_4_hi, ln2_4 - Decimal(ln2_4_hi)],
        "ln2/4 as hi + lo, hi with 12 significant bits."),
]
(OUT / "coeffs_gelu.rs").write_text(HEADER + "\n".join(gelu_parts))
