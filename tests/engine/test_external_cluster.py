"""An external Dask cluster (``dask scheduler`` and ``dask worker`` as separate processes on 127.0.0.1, with the
nanny): every experiment that takes ``--cluster`` gives the results of a serial run (and of a run resumed from
its ``--resume`` file), also with a dictionary given by a relative path (the workers run elsewhere), the workers'
allocator and housekeeping are tuned, and a worker with another sleuth version is refused, whether it was there
when the client connected or joined later."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="the 'cluster' extra (dask.distributed) is not installed")

import sleuth  # noqa: E402
from sleuth.cluster import SAMPLING, sleuth_version, tune_allocator, version_mismatch  # noqa: E402

from sleuth.executor import Executor  # noqa: E402
from sleuth.models.egghead.hands import Setup  # noqa: E402

from tests.conftest import run_cli  # noqa: E402
from tests.external_cluster import external_cluster, fake_version_env, joining_worker  # noqa: E402
from tests.helpers.cluster import D7L, FAST, RUNS, result  # noqa: E402

FAKE = "0.0.0+other"


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with external_cluster(2) as addr:
        yield addr


@pytest.fixture(scope="module")
def other_version(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A cluster whose one worker reports sleuth ``FAKE``."""
    with external_cluster(1, env=fake_version_env(str(tmp_path_factory.mktemp("shim")), FAKE)) as addr:
        yield addr


@pytest.mark.parametrize("name", FAST)
def test_external_cluster_equals_serial_and_resume(name: str, address: str, tmp_path: Path) -> None:
    argv, how = RUNS[name]
    resume = tmp_path / f"{name}.results"
    serial: Any = result(argv, how, "--resume", str(resume))
    assert serial and resume.stat().st_size > 0
    assert result(argv, how, "--cluster", address) == serial
    assert result(argv, how, "--resume", str(resume)) == serial  # every task read back from the file


def test_the_workers_run_this_sleuth_tuned(address: str, tmp_path: Path) -> None:
    """Connecting registers sleuth's plugins: in every worker the allocator tuned, and in every worker and nanny
    Dask's housekeeping woken up less (as in sleuth's local clusters), also in a worker that joins later, given
    back when they are unregistered."""
    from distributed import Client

    from sleuth.executor import Executor

    def _housekeeping(dask_worker: Any) -> tuple[bool, float]:  # nested: sent by value (no 'tests' on workers)
        """Whether a worker samples its tasks' stacks, and how often (ms) it checks its event loop."""
        callbacks = dask_worker.periodic_callbacks
        return any(callbacks[n].is_running() for n in SAMPLING if n in callbacks), callbacks["tick"].callback_time

    def _nanny_housekeeping(dask_worker: Any) -> tuple[float, float]:  # run in a nanny (nanny=True)
        """How often (ms) a nanny checks its event loop and its worker's memory."""
        callbacks = dask_worker.periodic_callbacks
        return callbacks["tick"].callback_time, callbacks["memory_monitor"].callback_time

    def plugins(client: Client) -> tuple[list[str], list[str]]:
        return client.run_on_scheduler(lambda dask_scheduler: (list(dask_scheduler.worker_plugins),
                                                               list(dask_scheduler.nanny_plugins)))

    with Client(address) as client:  # the earlier tests of this cluster registered them: Dask's settings first
        for names, nanny in zip(plugins(client), (False, True), strict=True):
            if "sleuth-tuning" in names:
                client.unregister_worker_plugin("sleuth-tuning", nanny=nanny)
        default = client.run(_housekeeping)
        nannies = client.run(_nanny_housekeeping, nanny=True)
    assert {v[0] for v in default.values()} == {True} and all(v[1] < 1000 for v in default.values())
    assert all(v[0] < 1000 and v[1] < 1000 for v in nannies.values()) and len(nannies) == 2
    with Executor(cluster=address) as ex:
        assert ex.stats.workers == 2
        assert set(ex.client.run(sleuth_version).values()) == {sleuth.__version__}
        tuned = ex.client.run(lambda dask_worker: getattr(dask_worker, "sleuth_allocator_tuned", None))
        assert set(ex.client.run(_housekeeping).values()) == {(False, 1000.0)}
        assert set(ex.client.run(_nanny_housekeeping, nanny=True).values()) == {(1000.0, 1000.0)}
    assert set(tuned.values()) == {tune_allocator()}  # True where glibc is the allocator
    with Client(address) as client, joining_worker(address, str(tmp_path)):
        # a worker that joins later (as a restarted one) gets them as it starts, its samplers not started again
        client.wait_for_workers(3, timeout=120)
        joined = sorted(set(client.scheduler_info()["workers"]) - set(default))
        assert client.run(_housekeeping, workers=joined) == {joined[0]: (False, 1000.0)}
        assert all("sleuth-tuning" in names for names in plugins(client))  # they stay on the scheduler
        client.unregister_worker_plugin("sleuth-tuning")
        client.unregister_worker_plugin("sleuth-tuning", nanny=True)
        again = client.run(_housekeeping)
        assert {a: again[a] for a in default} == default  # the workers there before: as Dask set them
        assert again[joined[0]] in default.values()  # the one that joined too: its samplers running again
        assert {a: v for a, v in client.run(_nanny_housekeeping, nanny=True).items() if a in nannies} == nannies


def test_the_workers_warm_up_as_the_client_connects(address: str, tmp_path: Path) -> None:
    """Egghead's shared set-up (its kernels, world space and compiled questions) is built on every worker when
    the client connects, before any task is sent; the client, which computes no task, builds none of it; the
    warm-up plugin stays registered once the client closes, so that a worker joining later (as a restarted one)
    builds the set-up as it joins, before any task; the next experiment without one removes it."""
    from distributed import Client

    from sleuth.models.egghead import experiment as egghead

    def _forget() -> None:  # nested: sent by value
        from sleuth.models.egghead import experiment as e

        for cached in (e.kernels_ready, e._space, e._questions):
            cached.cache_clear()

    def _built() -> tuple[int, int, int]:
        from sleuth import cluster
        from sleuth.models.egghead import experiment as e

        cluster.wait_warm()
        return tuple(f.cache_info().currsize for f in (e.kernels_ready, e._space, e._questions))  # type: ignore

    def warm_plugins(client: Client) -> list[str]:
        return client.run_on_scheduler(lambda dask_scheduler: [n for n in dask_scheduler.worker_plugins
                                                               if n == "sleuth-warm"])

    with Client(address) as client:
        client.run(_forget)
        assert set(client.run(_built).values()) == {(0, 0, 0)}
    _forget()
    argv = ["egghead", "--players", "3", "--values", "3", "--hand-size", "2", "--ba", "1,3", "--rounds", "5", "--json"]
    with Executor(cluster=address, warm=partial(egghead.warm, Setup(3, 3, 2), ("sum", "missing"))) as ex:
        assert set(ex.client.run(_built).values()) == {(1, 1, 1)}  # no task was sent
        assert warm_plugins(ex.client) == ["sleuth-warm"]
    with Client(address) as client:
        assert warm_plugins(client) == ["sleuth-warm"]
        before = set(client.scheduler_info()["workers"])
        with joining_worker(address, str(tmp_path)):
            client.wait_for_workers(len(before) + 1, timeout=120)
            joined = sorted(set(client.scheduler_info()["workers"]) - before)
            assert client.run(_built, workers=joined) == {joined[0]: (1, 1, 1)}  # no task was sent to it
    assert result(argv, "json", "--cluster", address) == result(argv, "json")
    _forget()
    r = run_cli(["experiment", *argv, "--cluster", address])
    assert r.code == 0, r.err
    assert [f.cache_info().misses for f in (egghead.kernels_ready, egghead._space)] == [0, 0]  # not here
    assert run_cli(["experiment", "cardguess", "--deck", "2,2", "--cluster", address]).code == 0
    with Client(address) as client:
        assert warm_plugins(client) == []


def test_a_worker_with_another_sleuth_version_is_refused(other_version: str) -> None:
    r = run_cli(["experiment", "cardguess", "--deck", "2,2", "--cluster", other_version])
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert f"sleuth {FAKE}" in r.err and f"sleuth {sleuth.__version__}" in r.err and "--cluster" in r.err


def test_a_worker_joining_later_with_another_sleuth_version_is_refused(tmp_path: Path) -> None:
    """The client checks the workers there are when it connects; one that joins later (here the only one left
    to run the tasks) is refused by its first result."""
    from distributed import Client

    from sleuth.errors import PuzzleError
    from sleuth.executor import Executor

    with external_cluster(1) as addr, Executor(cluster=addr) as ex:
        first = set(ex.client.scheduler_info()["workers"])
        with joining_worker(addr, str(tmp_path), fake_version_env(str(tmp_path), FAKE)):
            ex.client.wait_for_workers(2, timeout=120)
            with Client(addr) as other:
                other.retire_workers(list(first))
            with pytest.raises(PuzzleError) as refused:
                ex.map_tasks(str, [1, 2, 3])
    line = str(refused.value)
    assert "\n" not in line and f"sleuth {FAKE}" in line and f"sleuth {sleuth.__version__}" in line, line


def test_a_relative_dictionary_path_works_on_workers_running_elsewhere(address: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers' working folder is the cluster's (another one): the tasks carry the cell's words."""
    (tmp_path / "words.txt").write_bytes(Path(D7L).read_bytes())
    monkeypatch.chdir(tmp_path)
    argv = ["motus", "--dictionary", "words.txt", "--lengths", "7", "--json"]
    serial = result(argv, "json")
    assert serial["words"] > 0
    assert result(argv, "json", "--cluster", address) == serial
    assert result([*argv[:-1], "--optimal", "--node-limit", "2000", "--json"], "json", "--cluster", address) \
        == result([*argv[:-1], "--optimal", "--node-limit", "2000", "--json"], "json")


def test_version_comparison() -> None:
    assert version_mismatch("1.0", {"a": "1.0", "b": "1.0"}) is None
    line = version_mismatch("1.0", {"a": "1.0", "b": "0.9", "c": "0.9"})
    assert line is not None and "sleuth 0.9 (2 of 3 workers, e.g. b)" in line and "sleuth 1.0" in line
    line = version_mismatch("1.0", {"a": ModuleNotFoundError("No module named 'sleuth'")})
    assert line is not None and "cannot run sleuth" in line and "No module named" in line and "\n" not in line


def test_a_scheduler_that_is_gone_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from sleuth.executor import Executor

    with external_cluster(1) as addr:
        pass  # stopped: nothing listens there any more
    monkeypatch.setattr(Executor, "connect_timeout", 2.0)
    r = run_cli(["experiment", "cardguess", "--deck", "2,2", "--cluster", addr])
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert "--cluster: cannot reach the Dask scheduler" in r.err


def test_a_task_s_own_error_is_raised_as_in_a_serial_run(address: str) -> None:
    from fractions import Fraction

    from sleuth.executor import Executor

    for where in ({}, {"cluster": address}):
        with pytest.raises(ZeroDivisionError), Executor(**where) as ex:  # type: ignore[arg-type]
            ex.map_tasks(Fraction, ["1/2", "1/0"])


def test_a_failing_cluster_is_one_line_with_exit_2_or_3() -> None:
    from sleuth.errors import SleuthError
    from sleuth.executor import Executor
    from sleuth.limits import LimitReached

    ex = Executor(workers=2)
    assert isinstance(ex._failure(RuntimeError("can't start new thread"), "lost"), LimitReached)
    assert isinstance(ex._failure(MemoryError(), "lost"), LimitReached)
    err = ex._failure(OSError("Connection\nrefused"), "lost")
    assert isinstance(err, SleuthError) and str(err) == "--workers 2: lost (Connection refused)"


def test_quiet_changes_only_what_it_restores() -> None:
    """:func:`quiet` stops the stack sampling and takes it out of the server's periodic callbacks (Dask starting
    them all, as a joining worker does after its plugins' set-up, does not start it again), slows the checks,
    never speeds up one already slower, skips what a server does not have, and :func:`restore` puts back exactly
    what was there (a stopped sampler stays off); a server quieted before it started its callbacks gets its
    samplers running when restored, as Dask would have started them."""
    from tornado.ioloop import PeriodicCallback

    from sleuth.cluster import quiet, restore

    class Server:
        def __init__(self, started: bool) -> None:
            self.periodic_callbacks = {"profile": PeriodicCallback(lambda: None, 10),
                                       "profile-cycle": PeriodicCallback(lambda: None, 1000),
                                       "tick": PeriodicCallback(lambda: None, 20),
                                       "memory_monitor": PeriodicCallback(lambda: None, 5000),
                                       "heartbeat": PeriodicCallback(lambda: None, 500)}
            if started:
                self.periodic_callbacks["profile"].start()  # profile-cycle left stopped
                self.periodic_callbacks["tick"].start()

        def start_periodic_callbacks(self) -> None:  # as Dask's Server does
            for pc in self.periodic_callbacks.values():
                if not pc.is_running():
                    pc.start()

    def state(server: Server) -> dict[str, tuple[bool, float]]:
        return {n: (pc.is_running(), pc.callback_time) for n, pc in server.periodic_callbacks.items()}

    server = Server(started=True)
    before = state(server)
    changed = quiet(server)
    server.start_periodic_callbacks()
    after = state(server)
    assert "profile" not in after and "profile-cycle" not in after
    assert after["tick"][1] == 1000 and after["memory_monitor"][1] == 5000 and after["heartbeat"][1] == 500
    server.periodic_callbacks["memory_monitor"].stop()
    server.periodic_callbacks["heartbeat"].stop()
    restore(server, changed)
    assert state(server) == before
    del server.periodic_callbacks["memory_monitor"]
    assert "memory_monitor" not in quiet(server)
    joining = Server(started=False)
    restore(joining, quiet(joining))
    assert state(joining)["profile"][0] is True and state(joining)["profile-cycle"][0] is True
    for pc in [*server.periodic_callbacks.values(), *joining.periodic_callbacks.values()]:
        pc.stop()
