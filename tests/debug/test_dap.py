"""``tinyc dap`` (issue 27 item 4): a small Debug Adapter Protocol client drives whole sessions of the
server over a pipe, with Content-Length framing: a conditional breakpoint, a step into a call, the stack,
the variables, an evaluate, the events; and bad messages get error responses, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "debugger"
FACT = (HERE / "fact.tc").resolve()


class Client:
    """A DAP client over a ``tinyc dap`` subprocess: ``request`` sends one and returns its response,
    keeping the events that came before it in ``events``."""

    def __init__(self, *options: str, cwd: Path | None = None):
        self.proc = subprocess.Popen([sys.executable, "-P", "-m", "tinyc", "dap", *options], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        self.seq = 0
        self.events: list[dict] = []

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def receive(self) -> dict:
        out = self.proc.stdout
        assert out is not None
        length = None
        while True:
            line = out.readline()
            assert line, "the server closed its output"
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        assert length is not None
        return json.loads(out.read(length))

    def response(self) -> dict:
        while True:
            message = self.receive()
            if message["type"] == "response":
                return message
            self.events.append(message)

    def request(self, command: str, **arguments) -> dict:
        self.seq += 1
        self.send({"seq": self.seq, "type": "request", "command": command, "arguments": arguments})
        reply = self.response()
        assert reply["request_seq"] == self.seq and reply["command"] == command
        return reply

    def event(self, name: str) -> dict:
        """The next event called ``name`` (kept ones first)."""
        while True:
            for k, e in enumerate(self.events):
                if e.get("event") == name:
                    return self.events.pop(k)
            self.events.append(self.receive())

    def output(self) -> str:
        return "".join(e["body"]["output"] for e in self.events if e.get("event") == "output"
                       and e["body"]["category"] == "stdout")

    def close(self) -> tuple[int, bytes]:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        return code, self.proc.stderr.read()


def test_a_whole_session() -> None:
    c = Client()
    init = c.request("initialize", adapterID="tinyc", linesStartAt1=True)
    assert init["success"] and init["body"]["supportsConditionalBreakpoints"]
    assert c.request("launch", program=str(FACT))["success"]
    c.event("initialized")
    bps = c.request("setBreakpoints", source={"path": str(FACT)},
                    breakpoints=[{"line": 13, "condition": "k==3"}, {"line": 3}])["body"]["breakpoints"]
    assert bps[0]["verified"] and bps[0]["line"] == 13
    assert not bps[1]["verified"] and "no statement" in bps[1]["message"]
    assert c.request("configurationDone")["success"]
    stop = c.event("stopped")["body"]
    assert stop["reason"] == "breakpoint" and stop["threadId"] == 1
    assert c.request("threads")["body"]["threads"] == [{"id": 1, "name": "main"}]
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert [(f["name"], f["line"]) for f in frames] == [("main", 13), ("(entry)", 0)]
    assert frames[0]["source"]["path"] == str(FACT)
    assert c.request("evaluate", expression="k", frameId=frames[0]["id"])["body"]["result"] == "3"
    # step into fact(k): its body's [, then its first statement
    assert c.request("stepIn", threadId=1)["success"]
    assert c.event("stopped")["body"]["reason"] == "step"
    c.request("stepIn", threadId=1)
    c.event("stopped")
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert [(f["name"], f["line"]) for f in frames] == [("fact", 5), ("main", 13), ("(entry)", 0)]
    scopes = c.request("scopes", frameId=frames[0]["id"])["body"]["scopes"]
    assert [s["name"] for s in scopes] == ["Locals", "Globals"]
    local = c.request("variables", variablesReference=scopes[0]["variablesReference"])["body"]["variables"]
    assert [(v["name"], v["value"], v["type"]) for v in local] == [("n", "3", "int")]
    glob = c.request("variables", variablesReference=scopes[1]["variablesReference"])["body"]["variables"]
    assert [(v["name"], v["value"]) for v in glob] == [("total", "3")]
    caller = c.request("scopes", frameId=frames[1]["id"])["body"]["scopes"][0]["variablesReference"]
    assert c.request("variables", variablesReference=caller)["body"]["variables"][0]["value"] == "3"
    assert c.request("evaluate", expression="n*10+total", frameId=frames[0]["id"])["body"]["result"] == "33"
    assert c.request("evaluate", expression="nothere", frameId=frames[0]["id"])["message"] == "no such symbol"
    assert c.request("evaluate", expression="(", frameId=frames[0]["id"])["message"] == "'(' is not a tiny-c expression"
    assert not c.request("scopes", frameId=99)["success"]
    # out of fact, then over the next statement, then to the end
    c.request("stepOut", threadId=1)
    c.event("stopped")
    assert c.request("stackTrace", threadId=1)["body"]["stackFrames"][0]["name"] == "main"
    c.request("next", threadId=1)
    c.event("stopped")
    assert c.request("continue", threadId=1)["success"]
    assert c.event("exited")["body"]["exitCode"] == 0
    c.event("terminated")
    assert c.output() == " 33"
    assert c.request("disconnect")["success"]
    code, err = c.close()
    assert code == 0 and b"Traceback" not in err


def test_an_error_stops_with_the_report_and_input_is_the_launch_input(tmp_path) -> None:
    program = tmp_path / "ask.tc"
    program.write_text("/*\nask [\n  int k\n  k = gn\n  pn k/0\n]\n")
    c = Client()
    c.request("initialize")
    c.request("launch", program=str(program), entry="ask", input="7\n")
    c.request("configurationDone")
    stop = c.event("stopped")["body"]
    assert stop["reason"] == "exception" and "tiny-c error" in stop["text"]
    report = [e["body"]["output"] for e in c.events if e.get("event") == "output" and e["body"]["category"] == "stderr"]
    assert report and "--- err" in report[0]
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert frames[0]["name"] == "ask" and frames[0]["line"] == 5
    assert c.request("evaluate", expression="k", frameId=frames[0]["id"])["body"]["result"] == "7"
    c.request("continue", threadId=1)
    assert c.event("exited")["body"]["exitCode"] == 1
    c.request("disconnect")
    assert c.close()[0] == 0


def test_gibson_dialect_session() -> None:
    path = (HERE / "fact_gibson.tc").resolve()
    c = Client()
    c.request("initialize")
    c.request("launch", program=str(path), dialect="gibson")
    c.request("setBreakpoints", source={"path": str(path)}, breakpoints=[{"line": 6, "condition": "n==2"}])
    c.request("configurationDone")
    assert c.event("stopped")["body"]["reason"] == "breakpoint"
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert [(f["name"], f["line"]) for f in frames[:2]] == [("fact", 6), ("main", 14)]
    assert c.request("evaluate", expression="n", frameId=frames[0]["id"])["body"]["result"] == "2"
    c.request("disconnect")
    code, err = c.close()
    assert code == 0 and b"Traceback" not in err


def test_malformed_and_unknown_requests_get_error_responses() -> None:
    c = Client()
    c.send_raw(b"Content-Length: 5\r\n\r\n{bad}")
    assert c.response()["success"] is False
    c.send_raw(b"Content-Length: 2\r\n\r\n[]")
    assert "JSON object" in c.response()["message"]
    c.send_raw(b"Nonsense\r\n\r\n")
    assert "bad header" in c.response()["message"]
    reply = c.request("flyToTheMoon")
    assert not reply["success"] and "unknown request" in reply["message"]
    assert not c.request("stackTrace", threadId=1)["success"]  # nothing runs
    assert not c.request("launch")["success"]  # no program
    assert "no such program" in c.request("launch", program="/no/such.tc")["message"]
    assert not c.request("configurationDone")["success"]
    c.seq += 1
    c.send({"seq": c.seq, "type": "request", "command": "evaluate", "arguments": "x"})
    assert c.response()["message"] == "arguments must be an object"
    assert c.request("initialize")["success"]  # the session goes on
    code, err = c.close()  # the end of the input ends it
    assert code == 0 and b"Traceback" not in err


def test_pause_stops_the_running_program_and_breakpoints_set_then_take_effect() -> None:
    loop = (HERE / "loop.tc").resolve()
    c = Client()
    c.request("initialize")
    c.request("launch", program=str(loop))
    c.event("initialized")
    c.request("configurationDone")  # loop.tc runs until it is stopped
    time.sleep(0.5)
    assert c.request("pause", threadId=1)["success"]
    assert c.event("stopped")["body"]["reason"] == "pause"
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert [f["name"] for f in frames] == ["tick", "main", "(entry)"]  # main runs compiled: tick was called from it
    assert int(c.request("evaluate", expression="n", frameId=frames[0]["id"])["body"]["result"]) > 0
    assert not c.request("pause", threadId=1)["success"]  # stopped already
    # a breakpoint in tock, which the compiled main calls: it stops there
    assert c.request("setBreakpoints", source={"path": str(loop)}, breakpoints=[{"line": 7}])["body"]["breakpoints"][0]["verified"]
    c.request("continue", threadId=1)
    assert c.event("stopped")["body"]["reason"] == "breakpoint"
    frames = c.request("stackTrace", threadId=1)["body"]["stackFrames"]
    assert (frames[0]["name"], frames[0]["line"]) == ("tock", 7)
    n = int(c.request("evaluate", expression="n", frameId=frames[0]["id"])["body"]["result"])
    assert n % 1000 == 0
    assert c.request("disconnect")["success"]
    code, err = c.close()
    assert code == 0 and b"Traceback" not in err


def test_a_launched_program_keeps_the_servers_sandbox(tmp_path) -> None:
    # issue 35: the debugger's launch is a door too.  The server's --allow-... options widen the sandbox;
    # a launch request (the project's launch.json: someone else's file) cannot.
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("SECRET\n")
    (tmp_path / "work").mkdir()
    program = tmp_path / "work" / "peek.tc"
    program.write_text('main [ pn fopen(1,"../outside/secret.txt",0,1) ]\n')
    for options, opened in (((), " -1"), (("--allow-read", "../outside"), " 0")):
        c = Client(*options, cwd=tmp_path / "work")
        c.request("initialize")
        c.request("launch", program=str(program))
        c.request("configurationDone")
        assert c.event("exited")["body"]["exitCode"] == 0
        assert c.output().strip() == opened.strip(), options
        c.request("disconnect")
        assert c.close()[0] == 0
    c = Client(cwd=tmp_path / "work")
    c.request("initialize")
    reply = c.request("launch", program=str(program), allowFilesAnywhere=True)
    assert not reply["success"] and "cannot widen the sandbox" in reply["message"]
    c.request("disconnect")
    assert c.close()[0] == 0


def test_a_crash_of_the_run_ends_the_session_with_its_report() -> None:
    """A run that raises what no tiny-c program should (a bug in tinyc) is reported in an output event,
    then exited (70) and terminated; the adapter answers on and ends at disconnect."""
    import io
    from tinyc.debug.dap import Server
    from tinyc.debug.dap_wire import read_message

    class Broken:
        names: dict = {}
        sources: list = []

        def start(self, debugger):
            raise RuntimeError("the engine broke")

    def frame(message: dict) -> bytes:
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    requests = [{"seq": 1, "type": "request", "command": "initialize", "arguments": {}},
                {"seq": 2, "type": "request", "command": "launch", "arguments": {"program": str(FACT)}},
                {"seq": 3, "type": "request", "command": "configurationDone", "arguments": {}},
                {"seq": 4, "type": "request", "command": "disconnect", "arguments": {}}]
    out = io.BytesIO()
    assert Server(io.BytesIO(b"".join(map(frame, requests))), out, lambda args, console: Broken()).serve() == 0
    out.seek(0)
    messages = []
    while (m := read_message(out)) is not None:
        messages.append(m)
    events = [m["event"] for m in messages if m["type"] == "event"]
    assert events[-2:] == ["exited", "terminated"]
    assert any("the engine broke" in m["body"]["output"] for m in messages if m.get("event") == "output")
    assert [m for m in messages if m["type"] == "event" and m["event"] == "exited"][0]["body"]["exitCode"] == 70
    assert messages[-1]["command"] == "disconnect" and messages[-1]["success"]
