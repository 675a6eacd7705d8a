"""``tinyc lsp`` under Neovim's built-in LSP client (issue 38 item 2): ``nvim --headless`` with a small Lua
config starts ``tinyc lsp`` for a ``.tc`` file with an error, waits for the diagnostics and writes them to a
file this test reads.  Skipped without nvim, unless TINYC_REQUIRE_SYSTEM=1 (CI), when it fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from system_tools import need

WITH_ERROR = "main [\n  int x\n  x = y + 1\n  pn x\n]\n"

NVIM_CONFIG = r"""
local out = vim.env.TINYC_NVIM_OUT
-- BufReadPost and vim.lsp.start_client: Neovim 0.7 (Debian's) has neither vim.lsp.start nor a tc filetype
vim.api.nvim_create_autocmd('BufReadPost', { pattern = '*.tc', callback = function(ev)
  local id = vim.lsp.start_client({ name = 'tinyc', cmd = { vim.env.TINYC_PYTHON, '-P', '-m', 'tinyc', 'lsp' },
                                    root_dir = vim.fn.getcwd() })
  vim.lsp.buf_attach_client(ev.buf, id)
end })
vim.api.nvim_create_autocmd('DiagnosticChanged', { callback = function(ev)
  local found = vim.diagnostic.get(ev.buf)
  if #found == 0 then return end
  local lines = {}
  for _, d in ipairs(found) do
    table.insert(lines, string.format('%d:%d:%s:%s', d.lnum + 1, d.col + 1, tostring(d.code), d.message))
  end
  vim.fn.writefile(lines, out)
  vim.cmd('qall!')
end })
vim.defer_fn(function() vim.fn.writefile({ 'timeout' }, out); vim.cmd('qall!') end, 90000)
"""


def test_neovim_shows_the_diagnostics(tmp_path):
    need("nvim", install="apt-get install neovim")
    nvim = shutil.which("nvim")
    assert nvim is not None
    (tmp_path / "init.lua").write_text(NVIM_CONFIG)
    program = tmp_path / "bad.tc"
    program.write_text(WITH_ERROR)
    out = tmp_path / "diagnostics.txt"
    env = {**os.environ, "TINYC_NVIM_OUT": str(out), "TINYC_PYTHON": sys.executable, "XDG_STATE_HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path)}
    subprocess.run([nvim, "--headless", "--clean", "-u", str(tmp_path / "init.lua"), str(program)], cwd=tmp_path,
                   env=env, timeout=120, capture_output=True)
    assert out.read_text().splitlines() == ["3:7:26:error 26: undefined symbol: y"]
