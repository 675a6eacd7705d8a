"""The Gibson dialect's lexical rules for ``tinyc fmt`` (its ``lexis`` hook; dialects/gibson/grammar.lark):
a string may run over several lines and must be closed, a character constant is one character between
quotes, comments are ``//`` or ``/*`` to the end of the line, and a ``#include``/``#loadMC`` line is kept
exactly (the blanks after the name are part of it)."""

from __future__ import annotations

import re

from ...views.format import Lexis

LEXIS = Lexis(re.compile(r'"[^"\x00]*["\x00]|\'[\s\S]\'|/[/*][^\n\r]*'), open_strings=True, headers=True)
