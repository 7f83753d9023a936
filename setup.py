"""The solver's compiled core, with compile flags chosen at build time.

A wheel may run on another machine than the one that built it, so the core is built for a portable
baseline (``x86-64-v2``: SSE4.2 and POPCNT, every x86-64 server of the last decade) unless
``PYRAMID_MARCH`` says otherwise: ``PYRAMID_MARCH=native`` for a build that only ever runs where it was
built (the benchmarks compare both), or any other ``-march`` value. Other processors (ARM) get no
``-march`` at all. Without a C compiler the build still succeeds and the solver uses its plain-Python search.

``PYRAMID_TEST_HOOKS`` is never defined here: the core's test hooks (an allocation made to fail, its allocation
counts, its successors) exist only in the builds tests/solver makes for itself.
"""

import os
import platform

from setuptools import Extension, setup

march = os.environ.get("PYRAMID_MARCH") or ("x86-64-v2" if platform.machine() in ("x86_64", "AMD64") else "")
flags = ["-O3", "-std=c11", "-D_POSIX_C_SOURCE=199309L"] + ([f"-march={march}"] if march else [])

setup(
    ext_modules=[
        Extension("engine.solver._core", sources=["engine/solver/_core.c"], extra_compile_args=flags, optional=True)
    ]
)
