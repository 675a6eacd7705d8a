"""The door matrix's kernel door (tests/driver/test_door_matrix.py has the cases, the other doors and the
rule each is held to), in a file of its own so that the test workers share the matrix out (``--dist
loadfile`` gives a file to one worker, and a kernel cell is the slowest door)."""

from __future__ import annotations

import pytest

from test_door_matrix import check, door_kernel, home, matrix  # noqa: F401  (home: a fixture)


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    pytest.importorskip("ipykernel", reason="the kernel door needs ipykernel")
    pytest.importorskip("jupyter_client", reason="the kernel door needs jupyter_client")
    from kernel_client import started
    tmp = tmp_path_factory.mktemp("kernel")
    with started(tmp) as (km, kc):
        yield km, kc, tmp


@pytest.mark.parametrize("door, case, dialect, engine", matrix(["kernel"]))
def test_kernel_door(door, case, dialect, engine, home, kernel):
    seen = door_kernel(case, dialect, engine, home, kernel=kernel)
    check(door, case, dialect, engine, seen, home)
