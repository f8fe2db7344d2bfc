#!/usr/bin/python3
"""Closed-form reference for corpus/good/halfwave_rectifier.mo and
corpus/good/fullwave_rectifier.mo, computed independently of modeaudit with
mpmath at 30 digits.

A sine source V*sin(w*t), w = 2*pi*f, feeds ideal diodes (one for the
half wave, a bridge of four for the full wave) into a capacitor C parallel
to a load resistor R; the capacitor starts at 0 V with the source rising.

  conducting: the capacitor voltage is the rectified source,
              v = V*sin(w*t) (half wave) or V*|sin(w*t)| (full wave); the
              diode current C*dv/dt + v/R falls to 0 at the phase
              pi - atan(R*C*w) of each (half) period: closed form.
  blocking:   v = v_off*exp(-(t - t_off)/(R*C)); conduction starts again
              where the rectified source rises to v, a root of
              V*sin(w*t - k*pi) - v(t) on the rising quarter of the next
              (half) period, where it is unique (mpmath.findroot, bisection
              on that bracket, then polished).

Writes rectifier_reference.txt next to this script: per model the switch
times (off and on in turn) and v at the stop time, with 20 significant
digits. The models write pi as 3.14159265358979323846; the difference to
pi (2.6e-21) is far below the tests' tolerances.
"""
import os

import mpmath as mp

mp.mp.dps = 30

V = mp.mpf(10)
F = mp.mpf(50)
C = mp.mpf("1e-4")
R = mp.mpf(100)
STOP = mp.mpf("0.1")


def rectifier(full_wave):
    w = 2 * mp.pi * F
    tau = R * C
    half = mp.pi / w if full_wave else 2 * mp.pi / w  # the rectified source's period

    def source(t, k):
        # The rectified source on its k-th period: V*sin(w*t - k*pi) for the
        # full wave (the bridge turns every half period positive).
        return V * mp.sin(w * t - (k * mp.pi if full_wave else 2 * k * mp.pi))

    switches = []  # (time, "off" | "on")
    k = 0
    t_on = mp.mpf(0)
    while True:
        # Conducting from t_on: the diode current vanishes at phase pi - atan(R*C*w).
        t_off = (mp.pi - mp.atan(R * C * w)) / w + k * half
        if t_off >= STOP:
            return switches, source(STOP, k)
        switches.append((t_off, "off"))
        v_off = source(t_off, k)

        def v(t):
            return v_off * mp.exp(-(t - t_off) / tau)

        k += 1
        lo, hi = k * half, k * half + (mp.pi / 2) / w  # the rising quarter
        g = lambda t: source(t, k) - v(t)
        assert g(lo) < 0 < g(hi)
        if lo >= STOP:
            return switches, v(STOP)
        t_on = mp.findroot(g, (lo, hi), solver="bisect", tol=mp.mpf(10) ** -28, maxsteps=200)
        t_on = mp.findroot(g, t_on)  # Newton polish
        if t_on >= STOP:
            return switches, v(STOP)
        switches.append((t_on, "on"))


def main():
    out = []
    out.append("# rectifier_reference.py: V = 10, f = 50, C = 1e-4, R = 100, v(0) = 0, stop time 0.1")
    for name, full in (("halfwave", False), ("fullwave", True)):
        switches, v_end = rectifier(full)
        for t, kind in switches:
            out.append(f"{name} {kind} {mp.nstr(t, 20)}")
        out.append(f"{name} v_end {mp.nstr(v_end, 20)}")
    text = "\n".join(out) + "\n"
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rectifier_reference.txt")
    with open(path, "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
