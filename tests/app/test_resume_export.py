"""The use cases a server answers for ``tournament resume|export`` (``ResumeTournament``,
``ExportTournament``) on real SQLite stores: which tournaments a resume queues for the
server's scheduler, and the export's text, whichever front end asks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from arena.app import documents, tournaments
from arena.app.documents import ExportFormatError
from arena.app.tournaments import NothingToResume
from arena.storage.store import NotFoundError, Store, TournamentStatus
from tests.helpers import migrated_store, result_for, round_robin, three_bots

GAME = "face-card-kill-card"


def _tournament(store: Store, finished: int) -> int:
    """A tournament of three matches of three bots (the first time: new ones), the first
    ``finished`` of them played."""
    bots = [b.id for b in store.list_bots()] or three_bots(store)
    schedule = round_robin(bots, 2)
    tid = store.create_tournament(GAME, 2, {}, 1, 1, {}, bots, schedule)
    for match, planned in list(zip(store.claim_unfinished(tid), schedule, strict=True))[:finished]:
        store.mark_running(match.id)
        store.finish_match(match.id, result_for(planned.seat_bot_ids, planned.seed))
    return tid


def test_a_resume_on_a_server_queues_what_is_left_and_nothing_that_is_closed(
        tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    interrupted = _tournament(store, finished=1)
    assert store.get_tournament(interrupted).status is TournamentStatus.INTERRUPTED
    assert tournaments.requeue(store, interrupted).status is TournamentStatus.QUEUED
    assert [t.id for t in store.tournaments_to_serve()] == [interrupted]

    done = _tournament(store, finished=3)
    store.set_tournament_status(done, TournamentStatus.FINISHED)
    assert tournaments.requeue(store, done).status is TournamentStatus.FINISHED

    cancelled = _tournament(store, finished=1)
    store.cancel_tournament(cancelled)
    with pytest.raises(NothingToResume, match=f"tournament {cancelled} was cancelled: it has "
                       "nothing left to play"):
        tournaments.requeue(store, cancelled)
    assert store.get_tournament(cancelled).status is TournamentStatus.CANCELLED
    with pytest.raises(NotFoundError):
        tournaments.requeue(store, 999)


def test_the_export_is_one_json_document_or_a_csv_row_per_seat(tmp_path: Path) -> None:
    store = migrated_store(tmp_path / "arena.db")
    tid = _tournament(store, finished=2)
    as_json = documents.export_text(store, tid, "json")
    document = json.loads(as_json.text)
    assert as_json.matches == 3 == len(document["matches"])
    assert as_json.text.endswith("}\n") and document["tournament"]["id"] == tid
    assert [m["status"] for m in document["matches"]] == ["finished", "finished", "pending"]
    as_csv = documents.export_text(store, tid, "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    assert as_csv.matches == 3 and len(rows) == 3 * 2
    assert tuple(rows[0]) == documents.CSV_FIELDS
    with pytest.raises(ExportFormatError, match="--format must be json or csv, not 'xml'"):
        documents.export_text(store, tid, "xml")
