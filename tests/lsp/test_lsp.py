"""``tinyc lsp`` (issue 38 item 2), end to end: pytest-lsp's LanguageClient starts the server as a
subprocess and speaks the protocol to it (diagnostics, hover, definition, references, rename, symbols,
completion, signature help, formatting, folding, semantic tokens), in both dialects; bad input (not tiny-c,
binary, 1 MB, an unbalanced ``[``) gets answers within a bound and never ends the server.  Neovim's own client:
tests/lsp/test_lsp_nvim.py."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
FACT = (ROOT / "examples" / "fact.tc").resolve()
FIB = (ROOT / "examples" / "gibson" / "fib.tc").resolve()
SERVER = [sys.executable, "-P", "-m", "tinyc", "lsp"]
WITH_ERROR = "main [\n  int x\n  x = y + 1\n  pn x\n]\n"


class Published(dict):
    """pytest-lsp's store of the diagnostics by URI, counting each publication (``seen``)."""

    def __init__(self):
        super().__init__()
        self.counts: dict[str, int] = {}

    def __setitem__(self, uri, diagnostics):
        self.counts[uri] = self.counts.get(uri, 0) + 1
        super().__setitem__(uri, diagnostics)

    def seen(self, uri: str) -> int:
        return self.counts.get(uri, 0)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    lsp_client.diagnostics = Published()
    await lsp_client.initialize_session(t.InitializeParams(capabilities=t.ClientCapabilities(),
                                                           root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")

_versions: dict[str, int] = {}


async def open_doc(client: LanguageClient, uri: str, text: str, wait: bool = True) -> list[t.Diagnostic]:
    """Open (or re-open) ``uri`` with ``text``; with ``wait`` the diagnostics published for it."""
    if uri in _versions:
        before = client.diagnostics.seen(uri)
        client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri)))
        await diagnostics_of(client, uri, before)
    _versions[uri] = 1
    before = client.diagnostics.seen(uri)
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="tinyc", version=1, text=text)))
    if wait:
        return await diagnostics_of(client, uri, before)
    return []


async def diagnostics_of(client: LanguageClient, uri: str, before) -> list[t.Diagnostic]:
    """The diagnostics published for ``uri`` after its ``before``-th publication (``Published.seen``)."""
    for _ in range(1200):
        if client.diagnostics.seen(uri) > before:
            return list(client.diagnostics[uri])
        await asyncio.sleep(0.05)
    raise TimeoutError(f"no diagnostics for {uri} in 60 s")


def pos(line: int, character: int) -> t.Position:
    return t.Position(line=line, character=character)


def doc(uri: str) -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=uri)


async def test_diagnostics_carry_the_error_number_range_and_meaning(client):
    uri = "untitled:with-error.tc"
    found = await open_doc(client, uri, WITH_ERROR)
    assert len(found) == 1
    d = found[0]
    assert d.code == 26 and d.source == "tinyc"
    assert "undefined symbol: y" in d.message and "error 26" in d.message
    assert d.range == t.Range(start=pos(2, 6), end=pos(2, 7))  # the y
    # typing the declaration fixes it: refreshed after the change (debounced)
    before = client.diagnostics.seen(uri)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangePartial(range=t.Range(start=pos(1, 7), end=pos(1, 7)), text=", y")]))
    assert await diagnostics_of(client, uri, before) == []


async def test_a_utf8_line_gives_ranges_in_utf16_units(client):
    uri = "untitled:utf8.tc"
    found = await open_doc(client, uri, 'main [\n  ps "héllo😀"; pn zz\n]\n')
    assert [(d.code, d.range.start.character, d.range.end.character) for d in found] == [(26, 19, 21)]  # 😀 is two UTF-16 units


async def test_hover_definition_references_and_symbols_on_fact(client):
    uri = FACT.as_uri()
    text = FACT.read_text()
    await open_doc(client, uri, text)
    lines = text.split("\n")
    call = next(k for k, line in enumerate(lines) if "pn fact(n)" in line)
    at = pos(call, lines[call].index("fact"))
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=at))
    assert "fact int n" in hover.contents.value and "a parameter is declared" in hover.contents.value
    found = await client.text_document_definition_async(t.DefinitionParams(text_document=doc(uri), position=at))
    header = next(k for k, line in enumerate(lines) if line.startswith("fact int n"))
    assert found.range.start == pos(header, 0) and found.uri == uri
    refs = await client.text_document_references_async(t.ReferenceParams(
        text_document=doc(uri), position=at, context=t.ReferenceContext(include_declaration=True)))
    assert sorted(r.range.start.line for r in refs) == sorted([header, header + 2, call])
    # a local: its type and declaration; main's n is not fact's n
    n_line = next(k for k, line in enumerate(lines) if line.strip() == "int n")
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=pos(call, lines[call].index("(n") + 1)))
    assert "int n" in hover.contents.value and "local of `main`" in hover.contents.value
    assert f"line {n_line + 1}" in hover.contents.value
    # a library function: its parameters and comment; MC: the machine call's meaning
    pn = await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=pos(call, lines[call].index("pn"))))
    assert "pn int n" in pn.contents.value and "library function" in pn.contents.value
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc(uri)))
    assert [s.name for s in symbols] == ["fact", "main"]
    assert [c.name for c in symbols[0].children] == ["n"]
    ws = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="fac"))
    assert any(s.name == "fact" and s.location.uri == uri for s in ws)
    # files of the workspace folder that are not open: programs/bc.tc's functions
    ws = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))
    assert any(s.location.uri.endswith("programs/bc.tc") for s in ws)
    assert any(s.location.uri.endswith("examples/gibson/calendar.tc") and s.name == "weekday" for s in ws)


async def test_hover_on_a_machine_call_and_a_library_definition(client):
    uri = "untitled:mc.tc"
    await open_doc(client, uri, "main [\n  MC 65, 1\n  MC 7, 14\n  pn 1\n]\n")
    hover = await client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=pos(2, 3)))
    assert "MC 14" in hover.contents.value and "putn" in hover.contents.value
    found = await client.text_document_definition_async(t.DefinitionParams(text_document=doc(uri), position=pos(3, 2)))
    assert found is not None and found.uri.endswith("system.ipl")


async def test_rename_of_a_local_leaves_the_other_functions_alone(client):
    uri = FACT.as_uri()
    text = FACT.read_text()
    await open_doc(client, uri, text)
    lines = text.split("\n")
    header = next(k for k, line in enumerate(lines) if line.startswith("fact int n"))
    edit = await client.text_document_rename_async(t.RenameParams(text_document=doc(uri), position=pos(header, 9),
                                                                  new_name="k"))
    edits = edit.changes[uri]
    assert sorted(e.range.start.line for e in edits) == [header, header + 1, header + 2, header + 2]
    assert all(e.new_text == "k" for e in edits)
    glob = await client.text_document_rename_async(t.RenameParams(text_document=doc(uri), position=pos(header, 1),
                                                                  new_name="factorial"))
    assert len(glob.changes[uri]) == 3


async def test_completion_and_signature_help(client):
    uri = "untitled:complete.tc"
    text = "int total\nadd int a, b [\n  return a + b\n]\nmain [\n  int mine\n  pn add(1, \n]\n"
    await open_doc(client, uri, text)
    got = await client.text_document_completion_async(t.CompletionParams(text_document=doc(uri), position=pos(6, 2)))
    labels = {i.label: i for i in got.items}
    assert {"mine", "total", "add", "pn", "ps", "while", "int"} <= set(labels)
    assert "a" not in labels  # add's parameter is not in main's scope
    assert labels["add"].detail == "function: add int a, b"
    help_ = await client.text_document_signature_help_async(t.SignatureHelpParams(text_document=doc(uri),
                                                                                  position=pos(2, 12)))
    assert help_ is None or help_.signatures  # inside no call: nothing, or the enclosing one
    uri2 = "untitled:sig.tc"
    await open_doc(client, uri2, "add int a, b [\n  return a + b\n]\nmain [\n  pn add(1, 2)\n]\n")
    help_ = await client.text_document_signature_help_async(t.SignatureHelpParams(text_document=doc(uri2),
                                                                                  position=pos(4, 12)))
    assert help_.signatures[0].label == "add int a, b" and help_.active_parameter == 1


async def test_formatting_folding_and_semantic_tokens(client):
    uri = "untitled:fmt.tc"
    text = "main [\nint i\n      while (i < 3) [\n i = i + 1   \n]\n]\n"
    await open_doc(client, uri, text)
    edits = await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=doc(uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits[0].new_text == "main [\n  int i\n  while (i < 3) [\n    i = i + 1\n  ]\n]\n"
    ranged = await client.text_document_range_formatting_async(t.DocumentRangeFormattingParams(
        text_document=doc(uri), range=t.Range(start=pos(1, 0), end=pos(1, 3)),
        options=t.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert [(e.range.start.line, e.new_text) for e in ranged] == [(1, "  int i")]
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc(uri)))
    assert {(f.start_line, f.end_line) for f in folds} == {(0, 4), (2, 3)}
    tokens = await client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(text_document=doc(uri)))
    legend = ["comment", "string", "keyword", "type", "macro", "function", "variable", "number", "operator"]
    first = [legend[tokens.data[k + 3]] for k in range(0, 15, 5)]
    assert first == ["function", "type", "variable"]  # main, int, i


async def test_the_gibson_dialect_by_its_header(client):
    uri = FIB.as_uri()
    assert await open_doc(client, uri, FIB.read_text()) == []
    found = await open_doc(client, "untitled:g.tc", "#include pps/library.tc\nmain [\n  int x\n  x = y + 1\n]\n")
    assert [d.code for d in found] == [3] and found[0].range.start.line == 3
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc(uri)))
    assert [s.name for s in symbols] == ["fib", "fib2", "main"]


async def test_the_dialect_setting_reads_a_file_without_a_header_as_gibson(client):
    uri = "untitled:setting.tc"
    text = "// a Gibson comment\nmain [\n  int x\n  x = 1\n]\n"
    assert [d.code for d in await open_doc(client, uri, text)]  # as tiny-c/PC, // does not parse
    before = client.diagnostics.seen(uri)
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={"tinyc": {"dialect": "gibson"}}))
    assert await diagnostics_of(client, uri, before) == []
    before = client.diagnostics.seen(uri)
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={"tinyc": {"dialect": "pc"}}))
    assert await diagnostics_of(client, uri, before) != []


@pytest.mark.parametrize("name,text", [
    ("python.tc", "import os\nprint('not tiny-c')\ndef f(x): return x[0]\n"),
    ("binary.tc", bytes(range(256)).decode("latin-1") * 4),
    ("big.tc", "main [\n" + "  pn 1\n" * 150_000 + "]\n"),
    ("open.tc", "main [\n  while 1 [\n    pn 1\n"),
    ("deep.tc", "main [\n  pn " + "(" * 5000 + "1" + ")" * 5000 + "\n]\n"),
])
async def test_bad_input_is_answered_within_a_bound_and_the_server_lives(client, name, text):
    uri = f"untitled:{name}"
    found = await asyncio.wait_for(open_doc(client, uri, text), 30)
    assert isinstance(found, list)
    for call in (client.text_document_hover_async(t.HoverParams(text_document=doc(uri), position=pos(1, 3))),
                 client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc(uri))),
                 client.text_document_completion_async(t.CompletionParams(text_document=doc(uri), position=pos(1, 1))),
                 client.text_document_formatting_async(t.DocumentFormattingParams(
                     text_document=doc(uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True))),
                 client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc(uri))),
                 client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(text_document=doc(uri)))):
        await asyncio.wait_for(call, 30)
    # still alive and right
    assert len(await open_doc(client, "untitled:after.tc", WITH_ERROR)) == 1
