"""The SIMD level of this machine's CPU, from the flags of /proc/cpuinfo.

A benchmark's figures depend on the vector width the compiled kernels may
use (numba compiles for the host CPU): the same code is about twice as fast
per core with AVX-512 as with AVX2.  The benchmarks print the level in
their header, so that figures from different machines are read with it.
"""

#: AVX-512 subsets worth naming (the flag after "avx512" or "avx512_"), in
#: the order of the ISA's generations
AVX512_SUBSETS = ("f", "cd", "bw", "dq", "vl", "ifma", "vbmi", "vbmi2",
                  "vnni", "bitalg", "vpopcntdq", "bf16", "fp16")


def cpu_flags(path="/proc/cpuinfo"):
    """The feature flags of the first processor in `path` (empty where the
    file is missing: not Linux)."""
    try:
        with open(path, encoding="utf-8") as info:
            for line in info:
                if line.startswith(("flags", "Features")):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def simd_level(flags=None):
    """One line: the widest SIMD level and, for AVX-512, its subsets, e.g.
    ``AVX-512 (F, CD, BW, DQ, VL, VNNI)``; ``AVX2 + FMA``; ``SSE4.2``;
    ``unknown`` without flags."""
    flags = cpu_flags() if flags is None else set(flags)
    subsets = [s.upper() for s in AVX512_SUBSETS
               if {"avx512" + s, "avx512_" + s} & flags]
    if subsets:
        return f"AVX-512 ({', '.join(subsets)})"
    if "avx2" in flags:
        return "AVX2 + FMA" if "fma" in flags else "AVX2"
    for flag, name in (("avx", "AVX"), ("sse4_2", "SSE4.2"),
                       ("asimd", "NEON (ASIMD)")):
        if flag in flags:
            return name
    return "unknown"
