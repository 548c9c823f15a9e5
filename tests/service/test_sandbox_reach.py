"""A submission cannot reach the service from the sandbox: not the API, Redis, PostgreSQL, nor the SQLite file.

The same code run outside the sandbox reaches all four (the control), so a
quiet result inside means the sandbox stopped it, not that nothing listened.
With Landlock and seccomp switched off, the network and mount namespaces
alone must still stop it.
"""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy", reason="the service extra is not installed: pip install -e '.[service]'")
pytest.importorskip("uvicorn")
import uvicorn  # noqa: E402

from servers import free_port, wait_for_port  # noqa: E402

from judge.sandbox.isolation import DISABLE_ENV  # noqa: E402
from judge.service.accounts import add_user  # noqa: E402
from judge.service.api import create_app  # noqa: E402
from judge.service.config import ServiceConfig  # noqa: E402
from judge.service.queue import LocalPool  # noqa: E402
from judge.service.storage import Store  # noqa: E402
from judge.service.worker import new_processor  # noqa: E402
from judge.judging.session import Judge  # noqa: E402

ATTACK = Path(__file__).parent / "attacks" / "service_reach.py"


@pytest.fixture
def service(tmp_path, repo, redis, postgres_url):
    """An API listening on 127.0.0.1 over a SQLite file, beside live Redis and PostgreSQL servers."""
    database = tmp_path / "service" / "service.sqlite3"
    database.parent.mkdir()
    config = ServiceConfig(database_url=f"sqlite:///{database}", problems_dir=str(repo))
    store = Store(config.database_url)
    port = free_port()
    with Judge(repo, record=False) as api_judge:
        pool = LocalPool(lambda _id: None, threads=1)
        server = uvicorn.Server(uvicorn.Config(create_app(config, store, pool, api_judge), host="127.0.0.1",
                                               port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        wait_for_port(port)
        pg_port = int(postgres_url.rsplit(":", 1)[1].split("/")[0])
        source = ATTACK.read_text()
        for key, value in (("@API_PORT@", port), ("@REDIS_PORT@", redis.port), ("@PG_PORT@", pg_port),
                           ("@DB_FILE@", database)):
            source = source.replace(key, str(value))
        yield config, store, source
        server.should_exit = True
        thread.join(timeout=10)
        pool.close()
    store.close()


def test_outside_the_sandbox_the_attack_reaches_all_four(service):
    _, _, source = service
    namespace: dict = {}
    exec(compile(source, "service_reach.py", "exec"), namespace)  # the control: this test's own process
    with pytest.raises(RuntimeError) as info:
        namespace["patchify"](None)
    message = str(info.value)
    assert message.startswith("PWNED")
    for target in ("api: b'HTTP/1.1 200", "redis: ", "postgresql: ", "database file: b'SQLite format 3"):
        assert target in message


@pytest.mark.parametrize("disabled", ["", "landlock,seccomp"])
def test_inside_the_sandbox_it_reaches_nothing(service, monkeypatch, disabled):
    config, store, source = service
    if disabled:
        monkeypatch.setenv(DISABLE_ENV, disabled)
    else:
        monkeypatch.delenv(DISABLE_ENV, raising=False)
    processor = new_processor(config)  # the workers' own path: their judge hides the SQLite directory
    try:
        user = add_user(store, f"mallory{len(disabled)}").user
        [sid] = store.create(user, [("patchify", source)])
        assert processor.process(sid) == "judged"
    finally:
        processor.close()
    report = store.get(sid)[0].report
    assert "PWNED" not in json.dumps(report)
    # The function ran to its end, reaching nothing, and returned its input: a wrong answer.
    assert report["verdict"] == "wrong_answer", report["tests"][0]
    assert report["tests"][0]["message"].startswith("the returned value is a torch.Tensor")
