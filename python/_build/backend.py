"""The package's build backend: maturin's, except that a build without a
Rust toolchain fails with maturin's message instead of downloading one.

maturin's backend installs Rust into a temporary directory (through the
`puccinialin` package, about 1.2 GB) when `cargo` is not on PATH, unless
`MATURIN_NO_INSTALL_RUST` is set; this sets it. To let maturin download a
toolchain anyway, set `MATURIN_NO_INSTALL_RUST=` (empty) in the environment.
"""

import os

os.environ.setdefault("MATURIN_NO_INSTALL_RUST", "1")

from maturin import (  # noqa: E402  (after the variable: maturin reads it per call)
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]
