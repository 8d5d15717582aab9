"""Returns 1 - device / wall without a floor: when the summed device time exceeds the wall time
(overlapping streams, several threads) the "idle fraction" comes out negative.

The arithmetic of GindaChen/nsys-ai issue #574 ("Util: 112.5% ... Compute is the plain sum of every
kernel's duration across every stream, so concurrent kernels on different streams are counted more
than once"): a fraction of wall time must stay within [0, 1].
"""

from solutions.a10_profile_idle import *  # noqa: F401,F403

KILLED_BY = ("idle_fraction",)
MISCONCEPTION = "return 1 - device / wall without a floor: more device time than wall time gives a negative idle"


def idle_fraction(wall_ms, device_ms):
    if wall_ms <= 0:
        raise ValueError(f"wall_ms must be > 0, got {wall_ms}")
    return 1.0 - device_ms / wall_ms
