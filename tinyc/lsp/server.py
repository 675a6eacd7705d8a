"""``tinyc lsp``: a Language Server Protocol server for tiny-c (both dialects) on stdin/stdout, built on
pygls (the protocol, the framing, the document store) and lsprotocol (the types).

What it offers, each from tinyc's own parts (:mod:`tinyc.lsp.analysis`):

- diagnostics while typing: what ``tinyc check`` finds, each with its tiny-c error number as the code, the
  range of the name or character the report points at, and the error's meaning; refreshed ``DEBOUNCE``
  seconds after the last change;
- hover (a function's parameters and the comment above it, a variable's type, size and declaration, a
  library function, a machine call's routine), go to definition, find references, rename of a local or a
  global, document and workspace symbols, completion of the names in scope, the library and the keywords,
  signature help inside a call;
- formatting by ``tinyc fmt``'s rules (:func:`tinyc.views.format.format_source`), whole or a range of
  lines; folding ranges of ``[ ]`` blocks; semantic tokens from the shell's highlighter
  (:class:`tinyc.shell.highlight.TinyCLexer`).

The dialect of a document is the one its header announces (``#include``/``#loadMC``: gibson), else the
``dialect`` setting of the ``tinyc`` section (initialization options or ``workspace/didChangeConfiguration``), else pc.

Bad input never ends the server: an analysis runs in a worker thread and a request waits for it at most
``BOUND`` seconds (then it is answered with what is known, or nothing); any exception in a handler is
logged and the request answered empty; a text over :data:`~tinyc.lsp.analysis.LIMIT` bytes is not analysed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import asyncio
import concurrent.futures
import logging
import re
import traceback

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from ..driver.dialect import DEFAULT, Choices
from .analysis import (KEYWORDS, LIMIT, TOKEN_TYPES, Analysis, Lines, Occurrence, Problem, Symbol, dialect_of,
                       machine_call_doc, path_of, semantic_data)
if TYPE_CHECKING:
    from ..driver.options import MachineOptions

DEBOUNCE = 0.3  # seconds after the last change before the diagnostics are refreshed
BOUND = 10.0    # seconds a request waits for an analysis
FILES = 200     # workspace files (not open) analysed for workspace symbols, at most
Positioned = (t.HoverParams | t.DefinitionParams | t.ReferenceParams | t.PrepareRenameParams | t.RenameParams
              | t.CompletionParams | t.SignatureHelpParams)  # a request about a place in a document

log = logging.getLogger("tinyc.lsp")



class TinyCServer(LanguageServer):
    """The server: the documents' analyses (by URI and version), the front ends (booted once)."""

    def __init__(self, options: MachineOptions):
        super().__init__("tinyc-lsp", _version())
        self.options = options
        self.setting: str | None = None
        self.fronts: dict[str, object] = {}
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="tinyc-lsp")
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.files: dict[str, tuple[int, Analysis]] = {}  # workspace files not open: (mtime, analysis)

    # ---- analysis

    def front(self, dialect: str):
        """The front end of ``dialect`` (its ``lsp_front`` hook), made once."""
        if dialect not in self.fronts:
            from ..driver.dialect import find
            self.fronts[dialect] = find(dialect).lsp_front(self.options)
        return self.fronts[dialect]

    def analyse_now(self, uri: str, source: str) -> Analysis:
        """The analysis of ``source`` (in the worker thread); a failure is one problem, never an exception."""
        data = source.encode("utf-8", "surrogateescape")
        try:
            dialect = dialect_of(data, self.setting)
            if len(data) > LIMIT:
                return Analysis(data, dialect, Lines(data), [Problem(None, 0, 0, f"not analysed: the text has {len(data)} "
                                                                     f"bytes (more than {LIMIT})")])
            return self.front(dialect).analyse(data, path_of(uri))
        except RecursionError:
            return Analysis(data, DEFAULT, Lines(data), [Problem(16, 0, 0, "error 16: the text nests too deeply to analyse")])
        except Exception as e:
            log.error("analysis failed: %s", traceback.format_exc())
            return Analysis(data, DEFAULT, Lines(data), [Problem(None, 0, 0, f"tinyc lsp: the analysis failed "
                                                                   f"({type(e).__name__}: {e})")])

    async def analysis(self, uri: str) -> Analysis | None:
        """The current analysis of ``uri``: the cached one for this version, else made now (at most BOUND
        seconds); None for a document not open or an analysis that took too long."""
        doc = self.workspace.get_text_document(uri)
        cached = self.analyses.get(uri)
        if cached is not None and cached[0] == doc.version and cached[0] is not None:
            return cached[1]
        future = asyncio.get_running_loop().run_in_executor(self.pool, self.analyse_now, uri, doc.source)
        try:
            a = await asyncio.wait_for(asyncio.shield(future), BOUND)
        except asyncio.TimeoutError:
            return cached[1] if cached is not None else None
        self.analyses[uri] = (doc.version, a)
        return a

    async def located(self, params: Positioned) -> tuple[Analysis, int] | None:
        """The analysis of the document a position request names and the position's offset in its text:
        every request about a place starts here; None as :meth:`analysis`."""
        a = await self.analysis(params.text_document.uri)
        return None if a is None else (a, _offset(a, params.position))

    async def occurrence(self, params: Positioned, renamable: bool = False
                         ) -> tuple[Analysis, Occurrence] | None:
        """The analysis and the name's occurrence at the position (``renamable``: of a name the program
        declares), or None."""
        found = await self.located(params)
        occ = found[0].occurrence_at(found[1]) if found is not None else None
        if found is None or occ is None or renamable and occ.key not in found[0].symbols:
            return None
        return found[0], occ

    async def publish(self, uri: str) -> None:
        a = await self.analysis(uri)
        if a is None:
            return
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics(a)))

    async def folder_analyses(self, skip: set[str]) -> list[tuple[str, Analysis | None]]:
        """The analyses of the ``.tc`` files in the workspace folders that are not open (``skip``): at most
        ``FILES`` of them, each under LIMIT bytes, kept while their modification time stays; those not
        made within BOUND seconds in all are left out."""
        from pathlib import Path
        paths: list[Path] = []
        roots = [f.uri for f in self.workspace.folders.values()] or [self.workspace.root_uri or ""]
        for folder in roots:
            root = path_of(folder)
            if root is None:
                continue
            for p in sorted(Path(root).rglob("*.tc")):
                if len(paths) >= FILES:
                    break
                if not any(part.startswith(".") or part == "node_modules" for part in p.parts):
                    paths.append(p)
        out: list[tuple[str, Analysis | None]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BOUND
        for p in paths:
            uri = p.as_uri()
            if uri in skip:
                continue
            try:
                stat = p.stat()
                if stat.st_size > LIMIT:
                    continue
                cached = self.files.get(uri)
                if cached is None or cached[0] != stat.st_mtime_ns:
                    left = deadline - loop.time()
                    if left <= 0:
                        break
                    text = p.read_bytes().decode("utf-8", "surrogateescape")
                    future = loop.run_in_executor(self.pool, self.analyse_now, uri, text)
                    cached = self.files[uri] = (stat.st_mtime_ns, await asyncio.wait_for(asyncio.shield(future), left))
            except (OSError, asyncio.TimeoutError):
                continue
            out.append((uri, cached[1]))
        return out

    def schedule(self, uri: str, delay: float) -> None:
        """Refresh the diagnostics of ``uri`` ``delay`` seconds from now (a later change restarts the wait)."""
        old = self.timers.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, lambda: asyncio.ensure_future(self.publish(uri)))


def _version() -> str:
    from .. import __version__
    return __version__


def diagnostics(a: Analysis) -> list[t.Diagnostic]:
    out = []
    for p in a.problems:
        out.append(t.Diagnostic(range=_range(a, p.offset, p.end), message=p.message, severity=t.DiagnosticSeverity.Error,
                                source="tinyc", code=p.code if p.code is not None else "duplicate"))
    return out


def _range(a: Analysis, start: int, end: int) -> t.Range:
    (l1, c1), (l2, c2) = a.lines.position(start), a.lines.position(end)
    return t.Range(start=t.Position(line=l1, character=c1), end=t.Position(line=l2, character=c2))


def _offset(a: Analysis, position: t.Position) -> int:
    return a.lines.offset(position.line, position.character)


def _describe(a: Analysis, s: Symbol) -> str:
    """Markdown for a hover on ``s``."""
    lang = "tinyc"
    if s.kind in ("function", "library"):
        where = "library function" if s.kind == "library" else "function"
        head = f"```{lang}\n{s.signature()}\n```\n{where}"
        if s.doc:
            head += "\n\n" + s.doc
        return head
    size = ""
    if s.size:
        size = f", an array {s.size}: elements 0..{s.size.strip('()')}"
    line = a.lines.position(s.offset)[0] + 1 if s.offset >= 0 else 0
    owner = f" of `{s.owner}`" if s.owner else ""
    declared = a.lines.line_text(line - 1).decode("utf-8", "replace").strip()
    return (f"```{lang}\n{s.signature()}\n```\n{s.kind}{owner}: {s.type}{size}\n\n"
            f"declared at line {line}: `{declared}`")


def make_server(options: MachineOptions) -> TinyCServer:
    """The server, its handlers registered (see the module docstring); ``options``: the machine options
    (:class:`~tinyc.driver.options.MachineOptions`) its front ends boot with."""
    server = TinyCServer(options)

    def guarded(default):
        """A handler that answers ``default`` rather than fail (and logs why)."""
        def wrap(fn):
            async def handler(ls, params):
                try:
                    return await fn(ls, params)
                except Exception:
                    log.error("%s failed: %s", fn.__name__, traceback.format_exc())
                    return default
            handler.__name__ = fn.__name__
            return handler
        return wrap

    @server.feature(t.INITIALIZE)
    def initialize(ls: TinyCServer, params: t.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            ls.setting = _dialect_setting(options)

    @server.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(ls: TinyCServer, params: t.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict):
            ls.setting = _dialect_setting(params.settings)
            ls.analyses.clear()
            for uri in list(ls.workspace.text_documents):
                ls.schedule(uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TinyCServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TinyCServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TinyCServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TinyCServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.analyses.pop(uri, None)
        timer = ls.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    @guarded(None)
    async def hover(ls: TinyCServer, params: t.HoverParams):
        found = await ls.located(params)
        if found is None:
            return None
        a, at = found
        mc = a.machine_call_at(at)
        if mc is not False:
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                                    value=machine_call_doc(a.dialect, mc)))
        s = a.symbol_at(at)
        if s is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=_describe(a, s)))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    @guarded(None)
    async def definition(ls: TinyCServer, params: t.DefinitionParams):
        found = await ls.located(params)
        s = found[0].symbol_at(found[1]) if found is not None else None
        if found is None or s is None:
            return None
        a = found[0]
        if s.kind == "library":
            if a.library_path is None:
                return None
            from pathlib import Path
            lib = Lines(Path(a.library_path).read_bytes())
            (l1, c1), (l2, c2) = lib.position(s.offset), lib.position(s.end)
            return t.Location(uri=Path(a.library_path).as_uri(), range=t.Range(
                start=t.Position(line=l1, character=c1), end=t.Position(line=l2, character=c2)))
        return t.Location(uri=params.text_document.uri, range=_range(a, s.offset, s.end))

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    @guarded([])
    async def references(ls: TinyCServer, params: t.ReferenceParams):
        found = await ls.occurrence(params)
        if found is None:
            return []
        a, occ = found
        return [t.Location(uri=params.text_document.uri, range=_range(a, o.offset, o.end))
                for o in a.references(occ.key) if params.context.include_declaration or not o.declaration]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    @guarded(None)
    async def prepare_rename(ls: TinyCServer, params: t.PrepareRenameParams):
        found = await ls.occurrence(params, renamable=True)
        return None if found is None else _range(found[0], found[1].offset, found[1].end)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    @guarded(None)
    async def rename(ls: TinyCServer, params: t.RenameParams):
        found = await ls.occurrence(params, renamable=True)
        if found is None:
            return None
        a, occ = found
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", params.new_name) or params.new_name in KEYWORDS:
            return None
        edits = [t.TextEdit(range=_range(a, o.offset, o.end), new_text=params.new_name) for o in a.references(occ.key)]
        return t.WorkspaceEdit(changes={params.text_document.uri: edits})

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded([])
    async def document_symbols(ls: TinyCServer, params: t.DocumentSymbolParams):
        a = await ls.analysis(params.text_document.uri)
        if a is None:
            return []
        out = []
        for s in a.symbols.values():
            if s.kind == "global":
                out.append(t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Array if s.size else t.SymbolKind.Variable,
                                            detail=s.signature(), range=_range(a, s.offset, s.end),
                                            selection_range=_range(a, s.offset, s.end)))
            elif s.kind == "function":
                children = [t.DocumentSymbol(name=c.name, kind=t.SymbolKind.Variable, detail=f"{c.kind}: {c.signature()}",
                                             range=_range(a, c.offset, c.end), selection_range=_range(a, c.offset, c.end))
                            for c in a.symbols.values() if c.owner == s.name and c.kind in ("parameter", "local")]
                out.append(t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Function, detail=s.signature(),
                                            range=_range(a, s.span[0], s.span[1]),
                                            selection_range=_range(a, s.offset, s.end), children=children))
        return sorted(out, key=lambda d: (d.range.start.line, d.range.start.character))

    @server.feature(t.WORKSPACE_SYMBOL)
    @guarded([])
    async def workspace_symbols(ls: TinyCServer, params: t.WorkspaceSymbolParams):
        out = []
        query = params.query.lower()
        found: list[tuple[str, Analysis | None]] = [(uri, await ls.analysis(uri)) for uri in list(ls.workspace.text_documents)]
        found += await ls.folder_analyses({uri for uri, _ in found})
        for uri, a in found:
            if a is None:
                continue
            for s in a.symbols.values():
                if s.kind in ("function", "global") and query in s.name.lower():
                    out.append(t.SymbolInformation(
                        name=s.name, kind=t.SymbolKind.Function if s.kind == "function" else t.SymbolKind.Variable,
                        location=t.Location(uri=uri, range=_range(a, s.offset, s.end))))
        return out

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[]))
    @guarded([])
    async def completion(ls: TinyCServer, params: t.CompletionParams):
        found = await ls.located(params)
        if found is None:
            return []
        a, at = found
        items = []
        kinds = {"function": t.CompletionItemKind.Function, "library": t.CompletionItemKind.Function}
        for s in a.in_scope(at):
            doc = t.MarkupContent(kind=t.MarkupKind.Markdown, value=s.doc) if s.doc else None
            items.append(t.CompletionItem(label=s.name, kind=kinds.get(s.kind, t.CompletionItemKind.Variable),
                                          detail=f"{s.kind}: {s.signature()}", documentation=doc))
        items += [t.CompletionItem(label=k, kind=t.CompletionItemKind.Keyword) for k in KEYWORDS]
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(t.TEXT_DOCUMENT_SIGNATURE_HELP, t.SignatureHelpOptions(trigger_characters=["(", ",", " "]))
    @guarded(None)
    async def signature_help(ls: TinyCServer, params: t.SignatureHelpParams):
        located = await ls.located(params)
        call = located[0].call_at(located[1]) if located is not None else None
        if located is None or call is None:
            return None
        a, (name, index) = located[0], call
        s = a.symbols.get(("", name)) or a.library.get(name)
        if s is None or s.kind not in ("function", "library"):
            return None
        params_ = [p.strip() for p in re.split(r",|\s(?=int\b|char\b)", s.type) if p.strip()]
        label = f"{s.name} {s.type}".rstrip()
        info = t.SignatureInformation(label=label, documentation=s.doc or None,
                                      parameters=[t.ParameterInformation(label=p) for p in params_])
        return t.SignatureHelp(signatures=[info], active_signature=0,
                               active_parameter=min(index, max(0, len(params_) - 1)))

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    @guarded(None)
    async def formatting(ls: TinyCServer, params: t.DocumentFormattingParams):
        return _format(ls, params.text_document.uri, None)

    @server.feature(t.TEXT_DOCUMENT_RANGE_FORMATTING)
    @guarded(None)
    async def range_formatting(ls: TinyCServer, params: t.DocumentRangeFormattingParams):
        return _format(ls, params.text_document.uri, params.range)

    @server.feature(t.TEXT_DOCUMENT_FOLDING_RANGE)
    @guarded([])
    async def folding(ls: TinyCServer, params: t.FoldingRangeParams):
        from ..views.format import _brackets, _lexis
        doc = ls.workspace.get_text_document(params.text_document.uri)
        data = doc.source.encode("utf-8", "surrogateescape")
        if len(data) > LIMIT:
            return []
        text = data.decode("latin-1")
        marks, _ = _brackets(text, _lexis(dialect_of(data, ls.setting)))
        out, stack = [], []
        for offset, step in marks:
            if step > 0:
                stack.append(offset)
            elif stack:
                start = stack.pop()
                l1, l2 = text.count("\n", 0, start), text.count("\n", 0, offset)
                if l2 > l1:
                    out.append(t.FoldingRange(start_line=l1, end_line=l2 - 1 if l2 - 1 > l1 else l2))
        return out

    @server.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    t.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=[]))
    @guarded(None)
    async def semantic_tokens(ls: TinyCServer, params: t.SemanticTokensParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        if len(doc.source) > LIMIT:
            return t.SemanticTokens(data=[])
        return t.SemanticTokens(data=semantic_data(doc.source))

    return server


def _dialect_setting(settings: dict) -> str | None:
    tinyc = settings.get("tinyc", settings)
    value = tinyc.get("dialect") if isinstance(tinyc, dict) else None
    return value if isinstance(value, str) and value in Choices() else None


def _format(ls: TinyCServer, uri: str, where: t.Range | None) -> list[t.TextEdit] | None:
    """The edits ``tinyc fmt`` would make: one for the whole text, or one per changed line of ``where``.
    None when the text cannot be formatted (unbalanced brackets: the client shows nothing changed)."""
    from ..views.format import FormatError, format_source
    doc = ls.workspace.get_text_document(uri)
    data = doc.source.encode("utf-8", "surrogateescape")
    if len(data) > LIMIT:
        return None
    try:
        formatted = format_source(data.decode("latin-1"), dialect_of(data, ls.setting)).encode("latin-1")
    except FormatError as e:
        ls.window_log_message(t.LogMessageParams(type=t.MessageType.Info, message=f"tinyc fmt: {e}; not formatted"))
        return None
    if formatted == data:
        return []
    old, new = data.split(b"\n"), formatted.split(b"\n")
    if where is None:
        end = Lines(data).position(len(data))
        return [t.TextEdit(range=t.Range(start=t.Position(line=0, character=0), end=t.Position(line=end[0], character=end[1])),
                           new_text=formatted.decode("utf-8", "surrogateescape"))]
    edits = []
    last = where.end.line - (1 if where.end.character == 0 and where.end.line > where.start.line else 0)
    for n in range(where.start.line, min(last, len(old) - 1) + 1):
        if old[n] != new[n]:
            width = len(old[n].decode("utf-8", "surrogateescape").encode("utf-16-le")) // 2
            edits.append(t.TextEdit(range=t.Range(start=t.Position(line=n, character=0), end=t.Position(line=n, character=width)),
                                    new_text=new[n].decode("utf-8", "surrogateescape")))
    return edits


def serve(options: MachineOptions) -> int:
    """Serve one client on stdin/stdout until it exits; 0."""
    make_server(options).start_io()
    return 0
