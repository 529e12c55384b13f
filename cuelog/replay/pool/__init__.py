"""The pool engines: the eight-ball family (``eightball``) on the WPA general rules they
share (``common``). Pure Python, no I/O: they import only ``cuelog.schemas`` and the
standard library, like every engine."""
