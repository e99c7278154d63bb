"""A stand-in for Hermes Agent's ``agent`` package, put on ``sys.path`` only when Hermes itself is
not importable (see ``conftest.py``)."""
