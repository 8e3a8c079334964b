"""The order of the suite's tests under ``pytest -n 2`` (a plugin of ``tests/conftest.py``).

xdist hands each worker the next unit of tests when it is nearly idle, in the order collected
here (pyproject.toml's ``addopts`` keep that order: ``--no-loadscope-reorder``). Two rules
keep the wall time short:

- the slowest tests (:data:`SLOWEST_FIRST`, measured with ``--durations``) start first, so
  that the run ends with short tests the two workers share evenly, instead of one long test
  that one worker plays while the other has finished;
- the tests that share an expensive module-scoped fixture (:data:`SHARED`: a played
  tournament, a Ray cluster...) are one unit that one worker runs, so that the fixture is
  made once per run, not once per worker. (xdist's own ``xdist_group`` mark does nothing
  with pytest 9: it renames the tests through an attribute pytest no longer reads.)

Without xdist (``pytest`` alone) the order is the same and the units change nothing.
"""

from __future__ import annotations

import pytest
from xdist.scheduler import LoadScopeScheduling

SLOWEST_FIRST: tuple[str, ...] = (
    # Node-id prefixes (a module, or a test with or without its parameters), slowest first.
    "tests/rating/test_figures_oracle.py",
    "tests/tournament/test_cluster.py",
    "tests/cli/test_every_kind.py",
    "tests/tournament/test_resume.py::test_random_kill_9_loop_then_resume_equals_a_clean_run",
    "tests/service/test_loop_stall.py",
    "tests/service/test_server.py::test_authors_submit_the_server_plays_survives_kill_9",
    "tests/players/test_submissions.py::test_a_submitted_version_plays_from_its_stored_folder",
    "tests/match/test_conformance.py::test_random_games_pass_every_check",
    "tests/service/test_squatting.py::test_authors_cannot_squat_names",
    "tests/storage/test_disk.py",
    "tests/players/test_limits.py::test_tournament_limits_are_applied_saved_and_reused",
    "tests/web/test_feed_caps.py",
    "tests/storage/test_postgres.py::test_a_tournament_on_postgres_survives_kill_9",
    "tests/web/test_replay_views_browser.py::test_a_live_match_ends_in_its_result",
    "tests/players/test_submissions.py::test_requirements_are_installed_once",
    "tests/match/test_conformance.py::test_hidden_information",
    "tests/web/test_secrecy.py",
    "tests/net/test_remote.py",
    "tests/players/test_builds.py::test_a_deps_folder_replaced_by_a_link_is_never_shown",
    "tests/web/test_browser.py",
    "tests/cli/test_demo.py",
    "tests/tournament/test_chaos.py::test_chaos_tournament_runs_to_the_end",
    "tests/tournament/test_fair_deals.py",
    "tests/games/test_kings_corner.py::test_invariants_over_random_games",
    "tests/cli/test_json.py",
    "tests/players/test_builds_served.py",
)

SHARED: tuple[str, ...] = (
    # Node-id prefixes of the tests that share a module-scoped fixture, each one unit.
    "tests/rating/test_figures_oracle.py",  # played: tournaments of every format
    "tests/tournament/test_cluster.py",  # head and worker: a Ray cluster
    "tests/cli/test_every_kind.py",  # field: a tournament of every kind
    "tests/service/test_loop_stall.py",  # a served arena with a played history
    "tests/cli/test_json.py",  # played: a tournament and the commands' documents
    "tests/players/test_builds_served.py",  # world: a served arena and a package index
    "tests/cli/test_cli.py::test_resuming_with",  # played: a finished tournament
)


def _rank(item: pytest.Item) -> int:
    """The place of the first entry of :data:`SLOWEST_FIRST` the test matches (after them
    all if none does)."""
    return next((place for place, prefix in enumerate(SLOWEST_FIRST)
                 if item.nodeid.startswith(prefix)), len(SLOWEST_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the rest keep pytest's order


class SharedFixturesFirst(LoadScopeScheduling):  # type: ignore[misc]  # xdist has no types
    """xdist's load balancing test by test, except that the tests of an entry of
    :data:`SHARED` go to one worker together."""

    def _split_scope(self, nodeid: str) -> str:
        return next((prefix for prefix in SHARED if nodeid.startswith(prefix)), nodeid)


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> SharedFixturesFirst | None:
    """The scheduler of ``-n`` (``--dist load``); another ``--dist`` keeps xdist's own."""
    if config.getoption("dist") != "load":
        return None
    return SharedFixturesFirst(config, log)
