"""The magics in a real Jupyter kernel (issue 23): a small notebook, built with nbformat, runs through
nbclient in ipykernel, as ``jupyter lab`` would run it, and its output cells are checked.

ipykernel's ``sys.stdout`` is a text stream without ``.buffer``: terminal IPython (tests/cli/test_notebook.py)
cannot show what breaks there.  The kernel is the Python running these tests (its kernelspec is written
into a temporary directory, so no kernelspec of the user's is used) and its current directory is a
temporary one, so it imports the installed tinyc, not the checkout.
"""

from __future__ import annotations

import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

TWICE = "twice int n [ return n*2 ]\n"
ASK = 'ask [ int n; ps "n? "; n = gn; pn n*2 ]\n'
GIBSON = '#include pps/library.tc\nmain [ ps "gibson "; pn 6*7 ]\n'

# (source of the cell, its name in the tests below)
CELLS = {
    "python": "import sys; print(sys.executable)",
    "load": "%load_ext tinyc",
    "run": '%%tinyc\nmain [ pl "h\u00e9llo"; pn 6*7 ]\n',
    "input": f"%%tinyc --entry ask --input '21\\n'\n{ASK}",
    "no_input": f"%%tinyc --entry ask\n{ASK}",
    "short_input": f"%%tinyc --entry ask --input ''\n{ASK}",
    "error": "%%tinyc\nmain [ pn 2+ ]\n",
    "bad_option": "%%tinyc --int-bits 8\nmain [ ]\n",
    "int16": "%%tinyc --int-bits 16\nmain [ pn 32767+1 ]\n",
    "trace_cell": f"%%tinyc_trace --entry ask --input '4\\n'\n{ASK}",
    "trace_calls": f"%%tinyc_trace --calls\nmain [ pn twice 2 ]\n{TWICE}",
    "trace_line": "%tinyc_trace main",
    "trace_no_input": f"%%tinyc_trace --entry ask\n{ASK}",
    "tokens_cell": f"%%tinyc_tokens\n{TWICE}",
    "tokens_line": "%tinyc_tokens pn twice 3",
    "parse_cell": f"%%tinyc_parse\n{TWICE}",
    "parse_line": "%tinyc_parse pn 2+3",
    "ast_cell": f"%%tinyc_ast\n{TWICE}",
    "ast_line": "%tinyc_ast pn twice 3",
    "link_cell": f"%%tinyc_link\n{TWICE}",
    "link_line": "%tinyc_link",
    "view_error": "%%tinyc_parse\nmain [ pn 2+ ]\n",
    "gibson": f"%%tinyc --dialect gibson -q\n{GIBSON}",
    "gibson_found": f"%%tinyc\n{GIBSON}",
    "gibson_input": ("%%tinyc --dialect gibson -q --input '5\\n'\n#include pps/library.tc\n"
                     'main [ int n; ps "n? "; n = gn(); pn n*3 ]\n'),
    "gibson_no_input": ("%%tinyc --dialect gibson\n#include pps/library.tc\n"
                        'main [ int n; ps "n? "; n = gn(); pn n*3 ]\n'),
    "picture": ("%%tinyc -q\n#include pps/library.tc\n#include pps/pyGraphicsLib.tc\n"
                'main [ start "cellpic", 40, 30; rectangle 5, 5, 20, 10; show ]\n'),
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, dict[str, str]]:
    """Run the notebook once: for each cell, its stdout and stderr text and any error's name."""
    from ipykernel.kernelspec import write_kernel_spec
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    tmp = tmp_path_factory.mktemp("kernel")
    write_kernel_spec(path=str(tmp / "kernels" / "python3"))  # runs sys.executable -m ipykernel_launcher
    specs = KernelSpecManager(kernel_dirs=[str(tmp / "kernels")], ensure_native_kernel=False)
    km = KernelManager(kernel_name="python3", kernel_spec_manager=specs)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS.values()]
    with pytest.MonkeyPatch.context() as mp:  # no IPython profile or Jupyter files of the user's
        mp.setenv("IPYTHONDIR", str(tmp / "ipython"))
        mp.setenv("JUPYTER_RUNTIME_DIR", str(tmp / "runtime"))
        mp.setenv("JUPYTER_PLATFORM_DIRS", "1")
        mp.setenv("NO_COLOR", "1")
        client = nbclient.NotebookClient(nb, km=km, kernel_name="python3", timeout=120, startup_timeout=120,
                                         allow_errors=True, resources={"metadata": {"path": str(tmp)}})
        client.execute()
    result = {}
    for name, cell in zip(CELLS, nb.cells):
        texts = {"stdout": "", "stderr": "", "error": ""}
        for out in cell.outputs:
            if out.output_type == "display_data":
                texts["display"] = texts.get("display", "") + " ".join(sorted(out.data))
            if out.output_type == "stream":
                texts[out.name] += out.text
            elif out.output_type == "error":
                texts["error"] += f"{out.ename}: {out.evalue}"
        result[name] = texts
    return result


def test_the_kernel_is_this_python(outputs):
    assert outputs["python"]["stdout"].strip() == sys.executable


def test_no_cell_raises(outputs):
    assert {name: o["error"] for name, o in outputs.items() if o["error"]} == {}
    assert all("Traceback" not in o["stderr"] for o in outputs.values())


def test_a_cell_runs_as_a_program(outputs):
    assert outputs["load"] == {"stdout": "", "stderr": "", "error": ""}
    assert outputs["run"]["stdout"] == "h\u00e9llo 42\n"


def test_input_given_with_the_input_option(outputs):
    assert outputs["input"]["stdout"] == "n?  42\n"


def test_a_cell_that_reads_without_input_says_how_to_give_it(outputs):
    assert outputs["no_input"]["stdout"] == "n? \n"
    err = outputs["no_input"]["stderr"]
    assert "read input" in err and "--input" in err and err != "stopped\n"
    assert "--input" in outputs["short_input"]["stderr"]


def test_an_error_prints_the_tiny_c_report(outputs):
    assert outputs["error"]["stderr"].splitlines() == [" 1 --- err  9", "main [ pn 2+ ]", "             <"]


def test_options(outputs):
    assert outputs["bad_option"]["stderr"] == \
        "%%tinyc: argument --int-bits: invalid choice: 8 (choose from 16, 32)\n"
    assert outputs["int16"]["stdout"] == " -32768\n"


def test_traces(outputs):
    cell = outputs["trace_cell"]["stdout"]
    assert "entry | call ask()" in cell and "n = gn" in cell and " 8" in cell
    calls = outputs["trace_calls"]["stdout"]
    assert "call twice(2)" in calls and "returns 4" in calls and "pn" not in calls.replace(" 4\n", "")
    assert "entry | call main()" in outputs["trace_line"]["stdout"]
    no_input = outputs["trace_no_input"]
    assert "read input" in no_input["stdout"] + no_input["stderr"]


def test_tokens_as_cell_and_line_magic(outputs):
    assert "FNAME      twice" in outputs["tokens_cell"]["stdout"]
    line = outputs["tokens_line"]["stdout"]
    assert "FNAME      twice" in line and "a function of this program" in line


def test_parse_as_cell_and_line_magic(outputs):
    assert "twice" in outputs["parse_cell"]["stdout"] and "NUMBER '2'" in outputs["parse_cell"]["stdout"]
    assert "NUMBER '3'" in outputs["parse_line"]["stdout"]


def test_ast_as_cell_and_line_magic(outputs):
    assert "Function twice" in outputs["ast_cell"]["stdout"]
    assert "twice" in outputs["ast_line"]["stdout"] and "Call" in outputs["ast_line"]["stdout"]


def test_link_as_cell_and_line_magic(outputs):
    assert "twice     function" in outputs["link_cell"]["stdout"]
    assert "twice     function" in outputs["link_line"]["stdout"]


def test_a_view_of_a_bad_program_shows_the_report(outputs):
    assert " 1 --- err  9" in outputs["view_error"]["stdout"] + outputs["view_error"]["stderr"]


def test_the_gibson_dialect(outputs):
    assert outputs["gibson"]["stdout"] == "gibson  42\n"
    assert outputs["gibson_found"]["stdout"].startswith("***  TINY-C VERSION 1.0")
    assert outputs["gibson_found"]["stdout"].endswith("gibson  42\ndone\n")
    assert "Gibson dialect" in outputs["gibson_found"]["stderr"]
    assert outputs["gibson_input"]["stdout"] == "n? \n 15\n"  # the library's gn ends the line
    err = outputs["gibson_no_input"]["stderr"]
    assert "read input" in err and "--input" in err


def test_a_picture_a_cell_draws_is_shown_inline(outputs):
    picture = outputs["picture"]
    assert "image/png" in picture.get("display", "")
    assert "the picture is in cellpic.png" in picture["stderr"]
