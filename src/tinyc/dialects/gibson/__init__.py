"""Tom Gibson's dialect of tiny-c (gibson-dialect.md): its front end (``syntax.py``, ``grammar.lark``), library
(``lib/``), machine calls (``calls.py``, ``files.py``, ``plugins.py``, ``drawing.py``), engines (``evaluator.py``,
``compiler.py``), error report (``report.py``), the run (``machine.py``) and its views (``stages.py``,
``tracer.py``, ``compile_view.py``, ``cli.py``)."""
