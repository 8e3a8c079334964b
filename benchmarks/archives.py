"""Refusing a zip that lists far too many entries, before :mod:`zipfile` reads it whole.

A 16.6 MiB zip can list 370,000 one-letter entries (a central directory record each, all
of them pointing at one empty file). :mod:`zipfile` makes an object of every record
before anything can count them: seconds and over a hundred MiB per upload, which is what
checking a submission cost before its count was read from the zip's end record. The
figure is the time to refuse such a zip (:func:`arena.players.submissions.read_archive`,
the server's path), in two forms: the count stated honestly (zip64's end record says
370,000) and a count that lies (the end record says 1; zipfile reads the records by the
directory's size anyway). The reference is zipfile reading the same zip's central
directory, in the same run; the peak of memory allocated (``tracemalloc``) is in the
notes. The zip is built in memory for each measure and dropped right after.
"""

from __future__ import annotations

import gc
import io
import struct
import time
import tracemalloc
import zipfile
from collections.abc import Callable

from arena.players import submissions
from benchmarks.common import Row

ENTRIES = 370_000
SECTION = "archives"


def many_entries_zip(count: int = ENTRIES, listed: int | None = None) -> bytes:
    """A zip whose central directory holds ``count`` records named ``a``, all pointing at
    one empty file. Its end record states ``listed`` entries (default: ``count``, through a
    zip64 end record where it does not fit in 16 bits)."""
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0x21, 0, 0, 0, 1, 0) + b"a"
    record = struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0x21, 0, 0, 0, 1, 0,
                         0, 0, 0, 0, 0) + b"a"
    directory = record * count
    stated = count if listed is None else listed
    end = b""
    if stated > 0xFFFF:  # zip64: its end record and locator, then the classic one, saturated
        at = len(local) + len(directory)
        end = (struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, stated, stated,
                           len(directory), len(local))
               + struct.pack("<4sLQL", b"PK\x06\x07", 0, at, 1))
        stated = 0xFFFF
    end += struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, stated, stated, len(directory),
                       len(local), 0)
    return local + directory + end


def _refusal(data: bytes) -> str:
    try:
        submissions.read_archive(data, ["kill"])
    except submissions.SubmissionError as err:
        return str(err)
    raise AssertionError("a zip of 370,000 entries was accepted")


def _zipfile_reads(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return f"zipfile made {len(archive.infolist()):,} entries"


def _measure(build: Callable[[], bytes], work: Callable[[bytes], str],
             rounds: int) -> tuple[float, int, str]:
    """The best wall time of ``rounds``, then the peak memory ``work`` allocated (a round of
    its own, traced), and what it said."""
    best, said = float("inf"), ""
    for _ in range(rounds):
        data = build()
        gc.collect()
        began = time.perf_counter()
        said = work(data)
        best = min(best, time.perf_counter() - began)
        del data
    data = build()
    gc.collect()
    tracemalloc.start()
    try:
        work(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del data
    gc.collect()
    return best, peak, said


def run(quick: bool) -> list[Row]:
    rounds = 1 if quick else 3
    mib = 2**20
    size = len(many_entries_zip()) / mib
    whole, whole_peak, made = _measure(many_entries_zip, _zipfile_reads, rounds)
    rows = []
    for form, build in (("its count stated (zip64)", many_entries_zip),
                        ("its count a lie (1)", lambda: many_entries_zip(listed=1))):
        took, peak, said = _measure(build, _refusal, rounds)
        rows.append(Row(SECTION, f"refuse a {size:.1f} MiB zip of {ENTRIES:,} entries, {form}",
                        took * 1000, "ms", "zipfile reading its directory", whole * 1000,
                        took / whole, "< 1 s", took < 1.0,
                        note=f"refused: {said!r}; peak allocated {peak / mib:.2f} MiB; "
                             f"{whole / took:,.0f} times as fast as zipfile alone ({whole:.2f} s, "
                             f"{whole_peak / mib:.0f} MiB; {made})"))
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
