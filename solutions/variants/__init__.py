"""Valid answers written differently from the reference: every check must accept them.

``solutions/variants/<module>/<name>.py`` imports the solution's names, overrides one function
in another valid way, says in its docstring why it is valid, and names the key points it must
pass in ``PASSES``. ``tests/test_check_validity.py::test_valid_variant_passes`` grades them.
"""
