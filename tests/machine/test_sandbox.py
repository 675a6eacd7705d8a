"""The file sandbox (issue 24, docs/security.md) and the file calls that must fail the tiny-c way.

Each case runs ``python -m tinyc`` in a subprocess, with its current directory in a temporary ``work``
folder beside an ``outside`` folder holding a secret, as a user would run someone else's program.  The
file calls of both dialects, Gibson's ``#include`` and the switches that widen the sandbox are checked on
both engines, which must print the same bytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SECRET = b"SECRET-LINE"
ENGINES = ("reference", "fast")


@pytest.fixture
def work(tmp_path) -> Path:
    """``tmp/work`` (the current directory) holding a link ``link.txt`` to ``tmp/outside/secret.txt``."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_bytes(SECRET + b"\n")
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "link.txt").symlink_to(tmp_path / "outside" / "secret.txt")
    return tmp_path / "work"


def tinyc(cwd: Path, *args: str, memory_limit: int | None = None) -> subprocess.CompletedProcess:
    def limit():  # an address-space limit: a call that reads gigabytes fails (MemoryError) under it
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], capture_output=True, cwd=cwd, timeout=120,
                          stdin=subprocess.DEVNULL, preexec_fn=limit if memory_limit else None)


def both(cwd: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    """The run on the reference engine, checked to be the same on the fast one (bytes and status)."""
    ref, fast = (tinyc(cwd, "run", "--engine", e, *args, **kw) for e in ENGINES)
    assert (ref.returncode, ref.stdout, ref.stderr) == (fast.returncode, fast.stdout, fast.stderr)
    return ref


# ---- tiny-c/PC: MC 3 (fopen, readfile, writefile)

PC_OPENS = '''char b(600)
main [
  pn fopen(1,"../outside/secret.txt",0,1)
  pn fopen(1,"OUTSIDE/secret.txt",0,1)
  pn fopen(1,"link.txt",0,1)
  pn fopen(1,"/etc/passwd",0,1)
  pn fopen(2,"../outside/new.txt",0,1)
  pn fopen(1,"sub/../../outside/secret.txt",0,1)
]
'''


def test_pc_file_calls_reach_only_the_current_directory_tree(work):
    (work / "sub").mkdir()
    (work / "p.tc").write_text(PC_OPENS.replace("OUTSIDE", str(work.parent / "outside")))
    done = both(work, "p.tc")
    assert done.returncode == 0 and done.stdout.split() == [b"-1"] * 6
    assert not (work.parent / "outside" / "new.txt").exists()


def test_pc_readfile_of_a_secret_is_file_not_found(work):
    (work / "p.tc").write_text('char b(100)\nmain [ pn readfile("../outside/secret.txt",b,b+99,1); ps b ]\n')
    done = both(work, "p.tc")
    assert done.stdout.split() == [b"File", b"not", b"found", b"-1"] and SECRET not in done.stdout


def test_allow_files_and_allow_files_anywhere_widen_the_sandbox(work):
    (work / "p.tc").write_text('char b(100)\nmain [ pn readfile("../outside/secret.txt",b,b+99,1); ps b ]\n')
    for switch in (["--allow-files", str(work.parent / "outside")], ["--allow-files-anywhere"]):
        done = both(work, *switch, "p.tc")
        assert done.stdout.split() == [b"12" + SECRET], switch
    (work / "w.tc").write_text('char s(4)\nmain [ strcpy s,"abc"; pn writefile("../outside/new.txt",s,s+2,1) ]\n')
    assert both(work, "--allow-files", "../outside", "w.tc").stdout.split() == [b"3"]
    assert (work.parent / "outside" / "new.txt").read_bytes() == b"abc"


def test_allow_read_reads_and_does_not_write(work):
    # issue 35: --allow-read PATH is the read-only opt-in (--allow-write PATH, --allow-files PATH: both)
    (work / "p.tc").write_text('char b(100)\nmain [ pn readfile("../outside/secret.txt",b,b+99,1); ps b;\n'
                               '  pn writefile("../outside/new.txt",b,b+3,1) ]\n')
    done = both(work, "--allow-read", "../outside", "p.tc")
    assert done.stdout.split() == [b"12" + SECRET, b"Unit", b"1", b"open", b"-1"], done.stdout
    assert not (work.parent / "outside" / "new.txt").exists()
    assert both(work, "--allow-write", "../outside", "p.tc").stdout.split()[-1] == b"4"
    assert (work.parent / "outside" / "new.txt").read_bytes() == SECRET[:4]


def test_the_programs_own_directory_is_readable_not_writable(work):
    # a program kept in ~ and run from a scratch folder must not write ~/.bashrc
    own = work.parent / "own"
    own.mkdir()
    (own / "data.txt").write_bytes(b"mine\n")
    (own / "p.tc").write_text(f'char b(100)\nmain [ pn readfile("{own}/data.txt",b,b+99,1); ps b;\n'
                              f'  pn writefile("{own}/.bashrc",b,b+3,1) ]\n')
    assert both(work, str(own / "p.tc")).stdout.split() == [b"5mine", b"Unit", b"1", b"open", b"-1"]
    assert not (own / ".bashrc").exists()


def test_devices_are_refused(work):
    (work / "p.tc").write_text('main [ pn fopen(1,"/dev/zero",0,1); pn fopen(2,"/dev/full",0,2) ]\n')
    os.mkfifo(work / "fifo")
    (work / "f.tc").write_text('main [ pn fopen(1,"fifo",0,1) ]\n')  # opening it would block for ever
    assert both(work, "p.tc").stdout.split() == [b"-1", b"-1"]
    assert both(work, "f.tc").stdout.split() == [b"-1"]


def test_pc_unit_opened_the_other_way_and_a_full_device_fail_the_tiny_c_way(work):
    # fread on a unit opened for writing, fwrite on one opened for reading: -3; a close that cannot
    # write the last bytes (/dev/full): -1.  They were UnsupportedOperation and OSError, exit 70.
    (work / "p.tc").write_text('char b(600)\nmain [\n'
                               '  pn fopen(2,"mine.txt",0,2); pn fread(b,2); pn fclose(2)\n'
                               '  pn fopen(1,"mine.txt",0,3); pn fwrite(b,b+3,3); pn fclose(3)\n'
                               '  pn fopen(2,"/dev/full",0,4); pn fwrite(b,b+3,4); pn fclose(4); pl "end"\n]\n')
    done = both(work, "--allow-files-anywhere", "p.tc")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == b"0 -3 0 0 -3 0 0 4 -1 end".split()


def test_a_program_cannot_write_into_the_cache_directory(work, tmp_path):
    # the attack of issue 24: a program writes an entry into the cache; even with the current directory
    # there, the cache directory is outside the sandbox
    cache = tmp_path / "cache"
    (cache / "tinyc").mkdir(parents=True)
    (cache / "tinyc" / "p.tc").write_text('main [ pn writefile("prog-0-0.pickle","x","x",1) ]\n')
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "p.tc"], capture_output=True,
                          cwd=cache / "tinyc", env=env, timeout=120)
    assert done.stdout.split() == [b"Unit", b"1", b"open", b"-1"], done.stderr
    assert not (cache / "tinyc" / "prog-0-0.pickle").exists()


# ---- the Gibson dialect: fopen, readfile, writefile, getproperty, #include

GIBSON_OPENS = '''#include library.tc
char b(100)
main [
  int u
  pn readfile("../outside/secret.txt", b, 99)
  pn readfile("link.txt", b, 99)
  pn writefile("../outside/new.txt", "x", 1)
  u = fopen("/etc/passwd", "r")
  pn getproperty("../outside/secret.txt", "SECRET", b, 50, "dflt"); ps b
  u = fopen("/dev/zero", "r")
]
'''


def test_gibson_file_calls_reach_only_the_current_directory_tree(work):
    (work / "g.tc").write_text(GIBSON_OPENS)
    done = both(work, "-q", "g.tc")
    assert done.stdout == b" 0 0 0fopen err  -1 -1dfltfopen err  -1\n"
    assert not (work.parent / "outside" / "new.txt").exists()
    opened = both(work, "-q", "--allow-files-anywhere", "g.tc")
    assert opened.stdout.startswith(b" 12 12 1 1-LINE\n")


@pytest.mark.parametrize("name", ["../outside/secret.txt", "../../../../../../../../../etc/passwd", "link.txt"])
def test_gibson_include_outside_the_sandbox_is_not_found_and_not_shown(work, name):
    (work / "inc.tc").write_text(f'#include {name}\nmain [ pl "x" ]\n')
    done = both(work, "--dialect", "gibson", "inc.tc")
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr == f"No such file: {name}\n".encode()
    assert SECRET not in done.stderr and b"root:" not in done.stderr


def test_gibson_include_in_the_programs_directory_and_the_library(work):
    own = work.parent / "own"
    own.mkdir()
    (own / "mine.tc").write_text("twice int n [ return n*2 ]\n")
    (own / "p.tc").write_text('#include mine.tc\n#include library.tc\nmain [ pn twice(21) ]\n')
    assert both(work, "-q", str(own / "p.tc")).stdout == b" 42\n"


@pytest.mark.parametrize("text", [
    "#include " + "a" * 300 + '\nmain [ pl "x" ]\n',                          # longer than NAME_MAX
    "#include library.tc\r" + 'f [ pl "x" ]\r' * 30 + 'main [ pl "x" ]\r\n[\n',  # CR-only line ends
])
def test_gibson_include_of_a_name_the_system_refuses_is_a_report(work, text):
    (work / "inc.tc").write_text(text, newline="")
    done = both(work, "--dialect", "gibson", "inc.tc")
    assert done.returncode == 1 and done.stderr.startswith(b"No such file: ") and b"rror" not in done.stderr


def test_gibson_unit_opened_the_other_way_and_a_full_device(work):
    (work / "g.tc").write_text('#include library.tc\nchar b(100)\nmain [\n  int u\n'
                               '  u = fopen("mine.txt", "w"); pn fgets(b, 50, u)\n'
                               '  u = fopen("mine.txt", "r"); pn fputs("x", u); pn fclose(u)\n'
                               '  u = fopen("/dev/full", "w"); pn fputs("abc", u); pn fclose(u)\n]\n')
    done = both(work, "-q", "--allow-files-anywhere", "g.tc")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (b"fgets err  -4 -4fputs err  -2 -2 0 3fclose err  -1 -1\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /dev/zero as on Linux")
def test_gibson_readfile_of_dev_zero_reads_only_what_fits(work):
    # it read 2 GiB before checking the buffer: out of memory under a 1 GiB limit
    (work / "z.tc").write_text('#include library.tc\nchar b(100)\nmain [ pn readfile("/dev/zero", b, 2147483647) ]\n')
    done = both(work, "-q", "--allow-files-anywhere", "z.tc", memory_limit=1 << 30)
    assert done.returncode == 0 and b"RANGERR" in done.stdout, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /dev/zero as on Linux")
def test_gibson_getproperty_of_dev_zero_stops(work):
    (work / "z.tc").write_text('#include library.tc\nchar b(100)\n'
                               'main [ pn getproperty("/dev/zero", "k", b, 50, "d"); ps b ]\n')
    done = both(work, "-q", "--allow-files-anywhere", "z.tc", memory_limit=1 << 30)
    assert done.returncode == 0 and done.stdout == b" 0d\n", done.stderr


# ---- the shell and the notebook take the same switches

def test_the_shell_is_sandboxed_and_takes_the_switches(work):
    line = b'.pn fopen(1,"../outside/secret.txt",0,1)\n'
    for switch, expected in (([], b" -1"), (["--allow-files", "../outside"], b" 0")):
        done = subprocess.run([sys.executable, "-P", "-m", "tinyc", *switch], input=line, capture_output=True,
                              cwd=work, timeout=120)
        assert expected + b"\r\ntc>" in done.stdout.replace(b"\r\r", b"\r"), done.stdout


def test_the_notebook_magic_is_sandboxed_and_takes_the_switches(work, capsys, monkeypatch):
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tinyc")
    capsys.readouterr()  # "already loaded" when an earlier test loaded it in the same shell
    monkeypatch.chdir(work)
    cell = 'main [ pn fopen(1,"../outside/secret.txt",0,1) ]\n'
    ip.run_cell_magic("tinyc", "", cell)
    assert capsys.readouterr().out.split() == ["-1"]
    ip.run_cell_magic("tinyc", "--allow-files-anywhere", cell)
    assert capsys.readouterr().out.split() == ["0"]


def test_the_trace_tool_is_sandboxed_and_takes_the_switches(work):
    (work / "p.tc").write_text('main [ pn fopen(1,"../outside/secret.txt",0,1) ]\n')
    assert b" -1" in tinyc(work, "trace", "p.tc").stdout
    assert b" 0" in tinyc(work, "trace", "--allow-files-anywhere", "p.tc").stdout


# ---- FileSandbox itself

def test_open_modes_and_what_is_not_a_regular_file(work, monkeypatch):
    from tinyc.machine.sandbox import FileSandbox, Refused
    monkeypatch.chdir(work)
    box = FileSandbox()
    with box.open("a.txt", "wb") as f:
        f.write(b"one")
    with box.open("a.txt", "ab") as f:
        f.write(b"two")
    with box.open("a.txt", "r+b") as f:
        assert f.read() == b"onetwo"
    with box.open("a.txt", "wb") as f:  # truncates
        f.write(b"3")
    assert (work / "a.txt").read_bytes() == b"3"
    (work / "dir").mkdir()
    for name, mode in [("dir", "rb"), ("/dev/null", "wb"), ("", "rb"), ("../outside/secret.txt", "rb"),
                       ("link.txt", "rb")]:
        with pytest.raises(Refused):
            box.open(name, mode)
    with pytest.raises(FileNotFoundError):
        box.open("missing.txt", "rb")
    assert box.permits("../outside/secret.txt") is None
    assert FileSandbox(anywhere=True).permits("../outside/secret.txt") == os.path.realpath(work.parent / "outside" / "secret.txt")
    assert FileSandbox(allowed=[work.parent / "outside"]).permits("link.txt") is not None


def test_a_drawing_goes_through_the_sandbox(work):
    # system("python cairopy.py pic") draws pic.draw into pic.png: a pic.png linked out of the tree is
    # refused before anything is drawn
    (work / "pic.draw").write_text("window 10 10\n")
    (work / "pic.png").symlink_to(work.parent / "outside" / "target.png")
    (work / "g.tc").write_text('#include library.tc\nmain [ pn system("python cairopy.py pic") ]\n')
    done = both(work, "-q", "g.tc")
    assert done.stdout == b" 256\n" and b"stays in the current directory tree" in done.stderr
    assert not (work.parent / "outside" / "target.png").exists()


# ---- issue 35: what is checked is what is opened; code files

SWAPPER = '''
import os, sys, time
work, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.chdir(work)
end = time.monotonic() + seconds
while time.monotonic() < end:   # d: a real directory, then a link to outside, again and again
    os.rename("d", "d.real")
    os.symlink(outside, "d")
    os.unlink("d")
    os.rename("d.real", "d")
'''


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="symbolic links, POSIX")
def test_a_directory_swapped_for_a_link_during_opens_never_leads_out(work, monkeypatch):
    # the check-then-open race of issue 35 item 4: the path is resolved and checked while d is a real
    # directory, then opened by name after d became a link to outside.  A second process swaps d in a loop
    # while this one reads d/f.txt and writes d/new.txt through the sandbox.
    from tinyc.machine.sandbox import FileSandbox
    outside = work.parent / "outside"
    (outside / "f.txt").write_bytes(SECRET)
    (work / "d").mkdir()
    (work / "d" / "f.txt").write_bytes(b"inside")
    monkeypatch.chdir(work)
    box = FileSandbox()
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(work), str(outside), "4"])
    read, refused = set(), 0
    try:
        while swapper.poll() is None:
            for name, mode in (("d/f.txt", "rb"), ("d/new.txt", "wb")):
                try:
                    with box.open(name, mode) as f:
                        if mode == "rb":
                            read.add(f.read())
                        else:
                            f.write(b"written")
                except OSError:
                    refused += 1
    finally:
        swapper.wait(timeout=30)
    assert swapper.returncode == 0
    assert read == {b"inside"} and refused > 0
    assert not (outside / "new.txt").exists()


@pytest.mark.parametrize("name", ["cairocffi.py", "lark.PY", "evil.pth", "m.cpython-311-x86_64-linux-gnu.so",
                                  "tinyc.pyc", ".git/hooks/pre-commit", "sub/.git/config"])
def test_a_program_may_not_write_code_files_without_the_opt_in(work, name):
    # issue 35 item 2: a program that writes cairocffi.py (or a .pth, a git hook) where Python or git will
    # run it.  MC 3 fails as any refused open (-1), and stderr says why and names the opt-in.
    (work / "sub").mkdir()
    for d in (work / ".git" / "hooks", work / "sub" / ".git"):
        d.mkdir(parents=True)
    (work / "w.tc").write_text(f'char s(4)\nmain [ strcpy s,"abc"; pn writefile("{name}",s,s+2,1) ]\n')
    done = both(work, "w.tc")
    assert done.returncode == 0 and done.stdout.split() == [b"Unit", b"1", b"open", b"-1"], done.stdout
    assert done.stderr == (f"tinyc: {name}: a program may not create or overwrite Python code (*.py, *.pth, "
                           f"...) or files under .git/; --allow-write-code allows it\n").encode()
    assert not (work / name).exists()
    opened = both(work, "--allow-write-code", "w.tc")
    assert opened.stdout.split() == [b"3"] and (work / name).read_bytes() == b"abc"
    (work / "r.tc").write_text(f'char b(100)\nmain [ pn readfile("{name}",b,b+99,1) ]\n')
    assert both(work, "r.tc").stdout.split() == [b"3"]  # reading one is not refused


# ---- issue 35 item 2: the current directory never shadows tinyc's dependencies

SHADOWS = ("cairocffi", "lark", "prompt_toolkit", "tinyc")
HOUSE = (Path(__file__).resolve().parents[1] / "draw" / "house.expected.draw").read_text()  # a drawing that shows
DRAWS = '#include library.tc\nmain [ pn system("python cairopy.py pic") ]\n'


def plant(folder: Path, marker: Path, with_tinyc: bool = True) -> None:
    """Modules named as tinyc and its dependencies, and a .pth file, in ``folder``: each that runs notes
    its name in ``marker``."""
    for name in SHADOWS if with_tinyc else SHADOWS[:-1]:
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n")
    (folder / "evil.pth").write_text(f"import os; open({str(marker)!r}, 'a').write('pth\\n')\n")


@pytest.mark.parametrize("how", ["-m", "-P -m", "script"])
def test_files_in_the_current_directory_are_not_imported_by_the_cli(work, how):
    # a Gibson draw imports cairocffi lazily, and with no start-up cache the parser imports lark: from the
    # current directory before the fix (`python -m tinyc` puts it first on sys.path).  Under plain -m the
    # package itself is found first in the current directory (Python's rule): tinyc.py is planted only for
    # the safe forms, -P and the installed script.
    marker = work.parent / "imported.txt"
    plant(work, marker, with_tinyc=how != "-m")
    (work / "pic.draw").write_text(HOUSE)
    (work / "g.tc").write_text(DRAWS)
    command = {"-m": [sys.executable, "-m", "tinyc"], "-P -m": [sys.executable, "-P", "-m", "tinyc"],
               "script": [str(Path(sys.executable).parent / "tinyc")]}[how]
    done = subprocess.run([*command, "run", "-q", "g.tc"], capture_output=True, cwd=work, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, "TINYC_NO_CACHE": "1"})
    assert done.returncode == 0 and done.stdout == b" 0\n", done.stderr
    assert (work / "pic.png").exists()
    assert not marker.exists(), marker.read_text()


MAGIC_RUN = '''
import sys
sys.path.insert(0, "")  # as IPython and ipykernel start: the current directory first
from IPython.core.interactiveshell import InteractiveShell
ip = InteractiveShell.instance()
ip.run_line_magic("load_ext", "tinyc")
exec(sys.argv[1])       # the program's files appear after the notebook loaded tinyc (the same run)
ip.run_cell_magic("tinyc", "-q", sys.argv[2])
'''


def test_files_in_the_current_directory_are_not_imported_by_the_magics(work):
    pytest.importorskip("IPython")
    marker = work.parent / "imported.txt"
    (work / "pic.draw").write_text(HOUSE)
    planting = ("".join(f"open({str(work / (n + '.py'))!r}, 'w').write(\"open({str(marker)!r}, 'a').write({n!r})\\n\")\n"
                        for n in SHADOWS))
    done = subprocess.run([sys.executable, "-P", "-c", MAGIC_RUN, planting, DRAWS], capture_output=True, cwd=work,
                          timeout=120, stdin=subprocess.DEVNULL, env={**os.environ, "TINYC_NO_CACHE": "1"})
    assert done.returncode == 0 and b" 0" in done.stdout, done.stderr
    assert (work / "pic.png").exists() and (work / "lark.py").exists()
    assert not marker.exists(), marker.read_text()
