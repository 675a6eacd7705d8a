"""The VS Code extension (issue 38 item 3, editors/vscode/): its TextMate grammar tokenizes every example and
program (both dialects) as VS Code does (vscode-textmate + vscode-oniguruma, run by node), leaving no
character unscoped that the shell's highlighter (tinyc/shell/highlight.py) scopes, and in the same class;
the manifest names the grammar, the language configuration and the debugger; ``@vscode/vsce package``
builds the ``.vsix``.  The npm tests skip without node/npm unless TINYC_REQUIRE_SYSTEM=1."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from pygments.token import Comment, Keyword, Name, Number, Operator, String

from editor_tools import CACHE, ROOT, node, node_modules, need
import subprocess

EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "tinyc.tmLanguage.json"
FILES = sorted([*ROOT.glob("examples/*.tc"), *ROOT.glob("examples/gibson/*.tc"), *ROOT.glob("programs/*.tc")])
# the highlighter's class -> the TextMate scope that must cover it (the first that matches, in this order)
CLASSES = [(Comment.Preproc, "meta.preprocessor"), (Comment, "comment"), (String, "string"),
           (String.Char, "constant.character"), (Keyword.Type, "storage.type"), (Keyword, "keyword.control"),
           (Name.Builtin, "support.function"), (Name.Function, "entity.name.function"), (Name, "variable"),
           (Number, "constant.numeric"), (Operator, "keyword.operator")]


def expected(path: Path) -> list[tuple[int, int, int, str]]:
    """``(line, start, end, scope)`` of each token the shell's highlighter gives a class of CLASSES."""
    from tinyc.shell.highlight import TinyCLexer
    text = path.read_bytes().decode("latin-1")
    out, line, col = [], 0, 0
    for kind, value in TinyCLexer(stripnl=False, ensurenl=False).get_tokens(text):
        scope = next((s for cls, s in CLASSES if kind in cls and not (cls is String and kind in String.Char)), None)
        if kind in String.Char:
            scope = "constant.character"
        for k, piece in enumerate(value.split("\n")):
            if k:
                line, col = line + 1, 0
            if scope and piece.strip():
                out.append((line, col, col + len(piece), scope))
            col += len(piece)
    return out


def test_the_manifest_declares_the_language_grammar_and_debugger():
    manifest = json.loads((EXTENSION / "package.json").read_text())
    contributes = manifest["contributes"]
    assert contributes["languages"][0]["extensions"] == [".tc", ".ipl"]
    assert contributes["grammars"][0]["path"] == "./syntaxes/tinyc.tmLanguage.json"
    assert contributes["debuggers"][0]["type"] == "tinyc"
    assert contributes["debuggers"][0]["configurationSnippets"][0]["body"]["type"] == "tinyc"
    config = json.loads((EXTENSION / "language-configuration.json").read_text())
    assert ["[", "]"] in config["brackets"] and config["comments"]["lineComment"] == "/*"
    source = (EXTENSION / "extension.js").read_text()
    assert "['lsp']" in source and "['dap']" in source


def test_the_grammar_scopes_what_the_highlighter_scopes_in_every_example_and_program():
    assert len(FILES) > 10 and any("gibson" in str(f) for f in FILES)
    done = node(ROOT / "tests" / "editors" / "grammar_tokens.js", str(GRAMMAR), *map(str, FILES))
    assert done.returncode == 0, done.stderr
    tokens = json.loads(done.stdout)
    for path in FILES:
        have: dict[tuple[int, int], list[str]] = {}
        for line, start, end, scopes in tokens[str(path)]:
            for c in range(start, end):
                have[(line, c)] = scopes
        wrong = []
        for line, start, end, scope in expected(path):
            for c in range(start, end):
                scopes = have.get((line, c), ["source.tinyc"])
                if not any(s.startswith(scope) for s in scopes[1:]):
                    wrong.append(f"{path.name}:{line + 1}:{c + 1}: {scope} expected, {scopes} found")
                    break
        assert not wrong, "\n".join(wrong[:20])


def test_vsce_packages_the_extension(tmp_path):
    modules = node_modules()
    npm = need("npm", "apt-get install npm")
    build = CACHE / "vscode-extension"  # kept between runs: its node_modules (vscode-languageclient) stay
    build.mkdir(parents=True, exist_ok=True)
    for item in EXTENSION.iterdir():
        target = build / item.name
        if item.is_dir():
            shutil.copytree(item, target, dirs_exist_ok=True)
        else:
            shutil.copy2(item, target)
    if not (build / "node_modules" / "vscode-languageclient").exists():
        done = subprocess.run([npm, "install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error",
                               "--prefer-offline", "--cache", str(CACHE / "npm")], cwd=build, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, done.stderr
    vsix = tmp_path / "tinyc.vsix"
    done = node(modules / "@vscode" / "vsce" / "vsce", "package", "--allow-missing-repository", "--out", str(vsix), cwd=build, timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    names = zipfile.ZipFile(vsix).namelist()
    for wanted in ("extension/package.json", "extension/extension.js", "extension/syntaxes/tinyc.tmLanguage.json",
                   "extension/language-configuration.json", "extension/node_modules/vscode-languageclient/package.json"):
        assert wanted in names
