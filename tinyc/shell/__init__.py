"""The ``tc>`` shell: its commands and program buffer, the line editor, the prompt_toolkit terminal and the
Pygments highlighting.

May import: :mod:`tinyc.machine` and everything below it; not :mod:`tinyc.views` or :mod:`tinyc.cli`.
"""
