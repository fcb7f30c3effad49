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


def gelu_q(a_max, n_coeffs, n_nodes=120):
    """The f32 gelu's one-formula erfc: erfc(a)/2 = e^{-a^2} * t * Q(z) with z = K1*t + K0 and
    t = 2/(2 + a), mapping t in [2/(2 + a_max), 1] onto about [-1, 1] (K1, K0 rounded to f32,
    and the fit made in terms of the rounded map). Returns (K1, K0, Q highest power first):
    Chebyshev interpolation of erfc(a)*e^{a^2}/(2t) in z, sampled in 110-digit arithmetic
    (dividing by t keeps Q within a factor of 2 over the range, so its absolute error is a
    relative one everywhere)."""
    ld = np.longdouble
    t0 = 2 / (2 + a_max)
    k1, k0 = float(np.float32(2 / (1 - t0))), float(np.float32(-(1 + t0) / (1 - t0)))
    zlo, zhi = ld(k1) * ld(t0) + ld(k0), ld(k1) + ld(k0)

    def q(zs):
        ts = (zs - ld(k0)) / ld(k1)
        return np.array(
            [ld(str(erfcx(np.format_float_positional(2 / t - 2)))) / (2 * t) for t in ts], dtype=ld
        )

    c = cheb_fit(q, zlo, zhi, n_nodes, n_coeffs)
    return k1, k0, to_powers(c, zlo, zhi)


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
    if t == "f32":
        # Past 15/sqrt(2) the f32 gelu is -0 (GELU_LO); a little margin for the rounding of a.
        k1, k0, q = gelu_q(15 / math.sqrt(2) + 0.05, 11)
        parts += [
            arr("GELU_MAP", t, [k1, k0], "z = K1*t + K0 maps t = 2/(2 + a) onto about [-1, 1]."),
            arr("GELU_Q", t, q,
                "Q(z), highest first: erfc(a)/2 = e^{-a^2}*t*Q(z) for 0 <= a <= 15/sqrt(2) (Chebyshev fit)."),
        ]
    (OUT / f"coeffs_{t}.rs").write_text(HEADER + "".join(parts))
