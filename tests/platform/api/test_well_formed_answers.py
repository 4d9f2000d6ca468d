"""Whatever text an answer carries, it is sent: a lone surrogate in a page or a JSON answer is U+FFFD,
and the referee's JSON encodes it as its escape (``arena.well_formed``, ``referee.protocol.encode``)."""

from __future__ import annotations

import json

from flask import Flask

from arena.api.json_provider import OrjsonProvider
from arena.api.well_formed_answers import WellFormedResponse
from arena.well_formed import well_formed_json
from referee.protocol import decode, encode


def app_showing(text: str) -> Flask:
    app = Flask("shows")
    app.json = OrjsonProvider(app)
    app.response_class = WellFormedResponse

    @app.get("/page")
    def page() -> str:
        return f"<p>{text}</p>"

    @app.get("/json")
    def answer() -> dict[str, object]:
        return {"name": text, text: [text], "big": 2**70}

    return app


def test_a_page_and_a_json_answer_with_a_lone_surrogate_are_sent_with_u_fffd() -> None:
    client = app_showing("x\ud800 \ud83c\udf0b").test_client()
    page = client.get("/page")
    assert page.status_code == 200 and page.data.decode("utf-8") == "<p>x\ufffd \U0001f30b</p>"
    answer = client.get("/json")
    assert answer.status_code == 200
    shown = "x\ufffd \U0001f30b"
    assert json.loads(answer.data.decode("utf-8")) == {"name": shown, shown: [shown], "big": 2**70}


def test_well_formed_json_leaves_everything_else_as_it_is() -> None:
    value = {"a": [1, 2.5, None, True, ("t", "\udfff")], "\ud800": {"k": "v"}}
    assert well_formed_json(value) == {"a": [1, 2.5, None, True, ["t", "\ufffd"]], "\ufffd": {"k": "v"}}


def test_the_referee_encodes_a_lone_surrogate_as_its_escape_and_reads_it_back() -> None:
    message = {"names": ["x\ud800", "caf\u00e9"], "n": 1}
    body = encode(message)
    assert b"\\ud800" in body and decode(body) == message
    assert encode({"names": ["caf\u00e9"]}) == '{"names":["caf\u00e9"]}'.encode()
